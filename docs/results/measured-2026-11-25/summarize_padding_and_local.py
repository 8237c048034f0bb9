"""The tables of padding-and-local-ffts.md from measure-padding-and-local.sh's CSVs: each entry
the median over launches of each launch's median (the runs' max over ranks).

    /usr/bin/python3 summarize_padding_and_local.py DIR"""

import csv
import glob
import os
import statistics
import sys

folder = sys.argv[1]


def rows(pattern):
    """(launch file, row) for every CSV row of the files matching pattern."""
    for path in sorted(glob.glob(os.path.join(folder, pattern))):
        with open(path, newline="") as file:
            for row in csv.DictReader(file):
                yield path, row


def auto(exchange):
    """`auto` whatever it chose in a launch (row=-,column=auto→pairwise: auto)."""
    return "auto" if "auto" in exchange else exchange


def median_of_launches(pattern, key, value="total_median_s"):
    """{key(row): median over launches of row[value]}, rows without the value left out."""
    found = {}
    for _, row in rows(pattern):
        if row.get(value, ""):
            found.setdefault(key(row), []).append(float(row[value]))
    return {name: (statistics.median(values), len(values)) for name, values in found.items()}


def ms(seconds):
    return f"{1e3 * seconds:.2f}"


print("## padded r2c forward + backward, 2 ranks")
for n in (64, 128):
    result = median_of_launches(f"padded_{n}_*.csv", lambda r: auto(r["engine"]), "median_s")
    theirs = next(v for k, v in result.items() if k == "mpi4py-fft")
    for name, (seconds, launches) in result.items():
        print(f"| {n}^3 | {name} | {ms(seconds)} ms | {seconds / theirs[0]:.2f} | {launches} |")

for ranks in ("one_rank", "two_ranks"):
    for arrays in ("huge-pages", "plain"):
        print(f"## {ranks}, {arrays} arrays")
        for n in (128, 256):
            pattern = f"{ranks}_{arrays}_{n}_*.csv"
            total = median_of_launches(pattern, lambda r: (r["engine"], auto(r["exchange"])))
            bound = median_of_launches(pattern, lambda r: (r["engine"], auto(r["exchange"])),
                                       "measured_over_bound")
            transpose = median_of_launches(pattern, lambda r: (r["engine"], auto(r["exchange"])),
                                           "transpose_median_s")
            compute = median_of_launches(pattern, lambda r: (r["engine"], auto(r["exchange"])),
                                         "compute_median_s")
            fftw_mpi = next((v[0] for k, v in total.items() if k[0] == "fftw-mpi"), None)
            for key, (seconds, launches) in total.items():
                ratio = f"{seconds / fftw_mpi:.2f}" if fftw_mpi else "-"
                over = f"{bound[key][0]:.2f}x" if key in bound else "-"
                split = (f"{ms(transpose[key][0])} / {ms(compute[key][0])}" if key[0] == "a2afft"
                         else "-")
                print(f"| {n}^3 | {key[0]} {key[1]} | {ms(seconds)} | {split} | {ratio} | {over} "
                      f"| {launches} |")

print("## the unpadded c2c 128^3, 2 ranks, previous binary against this one (plain arrays)")
for build in ("build", "b33"):
    result = median_of_launches(f"ab_{build}_*.csv", lambda r: r["exchange"])
    for exchange, (seconds, launches) in result.items():
        print(f"| {build} | {exchange} | {ms(seconds)} | {launches} |")
