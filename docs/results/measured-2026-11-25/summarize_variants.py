"""Issue 35's variant table from measure-variants.sh's CSVs: each entry the median over launches
of each launch's median (the runs' max over ranks), measured / bound likewise.

    /usr/bin/python3 summarize_variants.py DIR"""

import csv
import glob
import os
import statistics
import sys

folder = sys.argv[1]
EXCHANGES = ["auto", "pairwise", "onmpml"]


def launches(pattern):
    """{(engine, exchange): [row per launch]} over the files matching pattern."""
    found = {}
    for path in sorted(glob.glob(os.path.join(folder, pattern))):
        with open(path, newline="") as file:
            for row in csv.DictReader(file):
                exchange = row["exchange"]
                name = "fftw-mpi" if row["engine"] == "fftw-mpi" else next(
                    (x for x in EXCHANGES if x in exchange), exchange)
                found.setdefault(name, []).append(row)
    return found


def median(rows, key):
    values = [float(row[key]) for row in rows if row.get(key, "")]
    return statistics.median(values) if values else float("nan")


print("| transform | FFTW-MPI [ms] | auto [ms] | pairwise [ms] | onmpml [ms] | auto / FFTW-MPI"
      " | auto transpose / compute [ms] | auto GFlop/s | auto vs bound | launches |")
print("|---|---|---|---|---|---|---|---|---|---|")
cases = [(f"3D {n}³ {what}", f"fft3d_{tag}_{n}_*.csv")
         for n in (128, 256) for what, tag in
         (("r2c", "kindr2c"), ("c2c float", "precisionfloat"), ("c2c batch 3", "batch3"))]
cases += [("1D 2^20", "fft1d_220_*.csv"), ("1D 2^22", "fft1d_222_*.csv")]
for label, pattern in cases:
    found = launches(pattern)
    if not found:
        continue
    t = {name: median(rows, "total_median_s") * 1e3 for name, rows in found.items()}
    auto = found["auto"]
    print(f"| {label} | {t['fftw-mpi']:.2f} | {t['auto']:.2f} | {t['pairwise']:.2f} | "
          f"{t['onmpml']:.2f} | {t['auto'] / t['fftw-mpi']:.2f} | "
          f"{median(auto, 'transpose_median_s') * 1e3:.2f} / "
          f"{median(auto, 'compute_median_s') * 1e3:.2f} | {median(auto, 'gflops'):.1f} | "
          f"{median(auto, 'measured_over_bound'):.2f}x | {len(auto)} |")
