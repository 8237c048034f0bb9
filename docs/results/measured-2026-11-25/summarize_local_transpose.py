"""The table of local-fft-limits.md's p0 = 1 section from measure-local-transpose.sh's CSVs: each
entry the median over launches of each launch's median (a run's max over ranks).

    /usr/bin/python3 summarize_local_transpose.py DIR"""

import csv
import glob
import os
import statistics
import sys

folder = sys.argv[1]


def median_over_launches(pattern, engine, key="total_median_s"):
    values = []
    for path in sorted(glob.glob(os.path.join(folder, pattern))):
        with open(path, newline="") as file:
            values += [float(row[key]) for row in csv.DictReader(file)
                       if row["engine"] == engine and row.get(key, "")]
    return statistics.median(values) if values else float("nan"), len(values)


print("| case | before [ms] | after [ms] | after / before | FFTW serial [ms] (in the after"
      " launches) | after / FFTW serial | after vs bound | launches |")
print("|---|---|---|---|---|---|---|---|")
for n in (128, 256):
    for case, pattern in (("1 rank", "one_{}_%d_*.csv" % n), ("1 x 2 pencils", "pencils1x2_{}_%d_*.csv" % n)):
        before, _ = median_over_launches(pattern.format("old"), "a2afft")
        after, launches = median_over_launches(pattern.format("new"), "a2afft")
        bound, _ = median_over_launches(pattern.format("new"), "a2afft", "measured_over_bound")
        serial, _ = median_over_launches(pattern.format("new"), "fftw")
        serial_text = f"{serial * 1e3:.2f}" if serial == serial else "-"
        ratio = f"{after / serial:.2f}" if serial == serial else "-"
        print(f"| {n}³, {case} | {before * 1e3:.2f} | {after * 1e3:.2f} | {after / before:.2f} | "
              f"{serial_text} | {ratio} | {bound:.2f}x | {launches} |")
