#!/usr/bin/env python3
"""Tables of measure-estimate.sh's CSVs: a2afft's total and compute under estimate and measure,
before and after the change, then FFTW's own engines. Every entry is the median over launches
of each launch's median (a run's max over ranks)."""
import csv
import pathlib
import statistics
import sys
from collections import defaultdict


def read(directory):
    runs = defaultdict(list)  # (case, engine, rigor, build) -> [(total, compute)]
    for path in sorted(pathlib.Path(directory).glob("*.csv")):
        transform, size, ranks, kind, rigor, _launch, build = path.stem.split(",")
        case = (transform, size, int(ranks), kind)
        for row in csv.DictReader(path.open()):
            total = float(row["total_median_s"]) * 1e3
            compute = float(row["compute_median_s"]) * 1e3 if row["engine"] == "a2afft" else None
            runs[(case, row["engine"], rigor, build)].append((total, compute))
    return runs


def name(case):
    transform, size, ranks, kind = case
    cube = "³" if transform == "fft3d" else ""
    return f"{transform} {size}{cube} {kind}, {ranks} rank{'s' if ranks > 1 else ''}"


def main(directory):
    runs = read(directory)

    def median(case, engine, rigor, build, column):
        values = [v[column] for v in runs.get((case, engine, rigor, build), [])]
        return statistics.median(values) if values and values[0] is not None else None

    def ms(value):
        return "-" if value is None else f"{value:,.1f}"

    def ratio(a, b):
        return "-" if a is None or b is None else f"{a / b:.2f}"

    cases = sorted({key[0] for key in runs}, key=lambda c: (c[0], c[3] != "c2c", c[3], c[1], c[2]))
    launches = max(len(v) for v in runs.values())
    print(f"a2afft, total (compute) [ms], median of {launches} launches:\n")
    print("| case | before: estimate | before: measure | before: est / meas, compute | "
          "after: estimate | after: measure | after: est / meas, compute | "
          "estimate after / before, compute |")
    print("|---|---|---|---|---|---|---|---|")
    for case in cases:
        cells = [name(case)]
        got = {}
        for build in ("before", "after"):
            for rigor in ("estimate", "measure"):
                total = median(case, "a2afft", rigor, build, 0)
                compute = median(case, "a2afft", rigor, build, 1)
                got[(build, rigor)] = compute
                cells.append(f"{ms(total)} ({ms(compute)})")
            cells.append(ratio(got[(build, "estimate")], got[(build, "measure")]))
        cells.append(ratio(got[("after", "estimate")], got[("before", "estimate")]))
        print("| " + " | ".join(cells) + " |")
    print("\nFFTW's engines (the \"before\" launches), total [ms]:\n")
    print("| case | engine | estimate | measure | estimate / measure |")
    print("|---|---|---|---|---|")
    for case in cases:
        for engine in ("fftw", "fftw-mpi"):
            estimate = median(case, engine, "estimate", "before", 0)
            measure = median(case, engine, "measure", "before", 0)
            if estimate is None and measure is None:
                continue
            print(f"| {name(case)} | {engine} | {ms(estimate)} | {ms(measure)} | "
                  f"{ratio(estimate, measure)} |")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "estimate")
