#!/usr/bin/python3
"""Figures of a simulated study (docs/results/simulated-*.md), drawn like the papers' figures,
from every run of one `a2afft run` results JSON at once (scripts/plot draws one figure per run).

  plot_simulated.py blocks STUDY.json OUT.png TITLE   time vs block size, one line per exchange
                                                    (the node-aware paper's Fig. 10, TRA's Fig. 10)
  plot_simulated.py radix STUDY.json OUT.png TITLE    time vs tra radix, one panel per block size,
                                                    best radix in red, sqrt(P) in green, the
                                                    vendor MPI_Alltoall dashed (TRA's Fig. 8)
"""
import json
import math
import re
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

RADIX = re.compile(r"^tra\(radix=(\d+)")


def rows_of(path):
    study = json.load(open(path))
    rows = [result for run in study["runs"] for result in run["results"]]
    context = study["runs"][0]["context"] if study["runs"] else {}
    return rows, context


def blocks_figure(rows, context, out, title):
    lines = defaultdict(dict)
    for row in rows:
        if RADIX.match(row["exchange"]) and not row["spec"] in ("tra",):
            continue  # the sweep's radices belong to the radix figure
        lines[row["exchange"]][row["block_bytes"]] = row["median_seconds"] * 1e3
    figure, axes = plt.subplots(figsize=(7, 4.5))
    for name, points in sorted(lines.items()):
        xs = sorted(points)
        axes.plot(xs, [points[x] for x in xs], marker="o", label=name,
                  linestyle="--" if name.startswith("mpi") else "-")
    axes.set_xscale("log", base=2)
    axes.set_yscale("log")
    axes.set_xlabel("bytes per block")
    axes.set_ylabel("simulated time [ms] (median)")
    axes.legend(fontsize=7)
    axes.grid(True, which="both", alpha=0.3)
    figure.suptitle(title + "\n" + context.get("simulated", ""), fontsize=8)
    figure.tight_layout()
    figure.savefig(out, dpi=110)


def radix_figure(rows, context, out, title):
    ranks = context.get("ranks") or max(int(m.group(1)) for r in rows
                                        if (m := RADIX.match(r["exchange"])))
    blocks = sorted({row["block_bytes"] for row in rows})
    columns = min(len(blocks), 3)
    lines = math.ceil(len(blocks) / columns)
    figure, panels = plt.subplots(lines, columns, figsize=(4 * columns, 3.2 * lines), squeeze=False)
    root = math.ceil(math.sqrt(ranks))
    for panel, block in zip(panels.flat, blocks):
        here = [row for row in rows if row["block_bytes"] == block]
        sweep = sorted((int(RADIX.match(row["exchange"]).group(1)), row["median_seconds"] * 1e3)
                       for row in here if RADIX.match(row["exchange"]))
        # the deck's default tra (radix ceil(sqrt P)) may repeat a swept radix: keep one each
        sweep = sorted(dict(sweep).items())
        xs, ys = zip(*sweep)
        panel.plot(xs, ys, marker="o", color="tab:blue", label="tra")
        best = min(sweep, key=lambda point: point[1])
        panel.plot(*best, "o", markersize=12, markerfacecolor="none", color="red", label="best")
        near = min(sweep, key=lambda point: abs(point[0] - root))
        panel.plot(*near, "o", markersize=16, markerfacecolor="none", color="green",
                   label=f"radix near sqrt(P)={root}")
        for row in here:
            if row["exchange"] == "mpi":
                panel.axhline(row["median_seconds"] * 1e3, linestyle="--", color="gray",
                              label="MPI_Alltoall")
        panel.set_xscale("log", base=2)
        panel.set_title(f"P={ranks}, S={block} B", fontsize=9)
        panel.set_xlabel("radix")
        panel.set_ylabel("time [ms]")
        panel.grid(True, alpha=0.3)
    for panel in list(panels.flat)[len(blocks):]:
        panel.axis("off")
    panels.flat[0].legend(fontsize=6)
    figure.suptitle(title + "\n" + context.get("simulated", ""), fontsize=8)
    figure.tight_layout()
    figure.savefig(out, dpi=110)


def main():
    kind, path, out, title = sys.argv[1:5]
    rows, context = rows_of(path)
    {"blocks": blocks_figure, "radix": radix_figure}[kind](rows, context, out, title)


if __name__ == "__main__":
    main()
