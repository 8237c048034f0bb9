"""The six-step fusion table of local-fft-limits.md from measure-six-step-fusion.sh's CSVs: each
entry the median over launches of each launch's median (a run's max over ranks), old and new
binaries measured in the same launches.

    /usr/bin/python3 summarize_six_step_fusion.py DIR"""

import csv
import glob
import os
import statistics
import sys

folder = sys.argv[1]
EXCHANGES = ["auto", "pairwise", "onmpml"]


def rows_by_name(pattern):
    """{engine or exchange name: [row per launch]} over the files matching pattern."""
    found = {}
    for path in sorted(glob.glob(os.path.join(folder, pattern))):
        with open(path, newline="") as file:
            for row in csv.DictReader(file):
                name = "fftw-mpi" if row["engine"] == "fftw-mpi" else next(
                    (x for x in EXCHANGES if x in row["exchange"]), row["exchange"])
                found.setdefault(name, []).append(row)
    return found


def median(rows, key, scale=1.0):
    values = [float(row[key]) for row in rows if row.get(key, "")]
    return statistics.median(values) * scale if values else float("nan")


print("| transform | exchange | FFTW-MPI [ms] | before [ms] | after [ms] | after / before | "
      "after / FFTW-MPI | after transpose / compute [ms] | passes before / after | "
      "after vs bound | launches |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for label, tag in (("1D 2^20", "220"), ("1D 2^22", "222"), ("1D 2^20 float", "220precisionfloat"),
                   ("1D 2^20 batch 3", "220batch3")):
    old = rows_by_name(f"fft1d_old_{tag}_*.csv")
    new = rows_by_name(f"fft1d_new_{tag}_*.csv")
    if not new:
        continue
    reference = median(new["fftw-mpi"] + old.get("fftw-mpi", []), "total_median_s", 1e3)
    for exchange in EXCHANGES:
        before = median(old.get(exchange, []), "total_median_s", 1e3)
        after = median(new[exchange], "total_median_s", 1e3)
        print(f"| {label} | {exchange} | {reference:.2f} | {before:.2f} | {after:.2f} | "
              f"{after / before:.2f} | {after / reference:.2f} | "
              f"{median(new[exchange], 'transpose_median_s', 1e3):.2f} / "
              f"{median(new[exchange], 'compute_median_s', 1e3):.2f} | "
              f"{median(old.get(exchange, []), 'memory_passes'):.2f} / "
              f"{median(new[exchange], 'memory_passes'):.2f} | "
              f"{median(new[exchange], 'measured_over_bound'):.2f}x | {len(new[exchange])} |")
