#!/usr/bin/python3
"""Draws docs/taylor_green_dealias.png: the dissipation eps(t) of the four Taylor-Green runs of
docs/results/taylor-green.md (64^3 and 96^3, --dealias truncation and padding), with the
resolved reference's peak (van Rees et al. 2011: about 0.0127 near t = 9) marked, and prints
the table of that page: each run's peak eps and its time, eps at t = 8, 9 and 10, and the time
per step its log reports.

usage: taylor_green_dealias_plot.py [DIR [OUT]]   (defaults: this script's directory, and
                                                   docs/taylor_green_dealias.png beside it)
"""

import csv
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
# file, label, colour, line style, width. Padding of 64³ modes and truncation on the 96³ grid
# keep the same modes on the same grid and gave the same bits: the wide pale line under the
# dashed one shows both.
RUNS = [
    ("tg_truncation_64.csv", "64³ grid, truncation (2/3 rule: |k| ≤ 21)", "C0", "--", 1.2),
    ("tg_padding_64.csv", "64³ modes, padding (96³ grid: |k| ≤ 31)", "C2", "-", 4),
    ("tg_truncation_96.csv", "96³ grid, truncation (2/3 rule: |k| ≤ 31)", "C3", "--", 1.2),
    ("tg_padding_96.csv", "96³ modes, padding (144³ grid: |k| ≤ 47)", "C3", "-", 1.2),
]
REFERENCE_PEAK = (9.0, 0.0127)  # [van-rees-2011], spectral DNS at 512^3


def read(path):
    with open(path, newline="") as file:
        rows = list(csv.DictReader(file))
    return [float(row["t"]) for row in rows], [float(row["dissipation"]) for row in rows]


def table(directory):
    print("| run | kept modes | peak ε | t of peak | ε(8) | ε(9) | ε(10) | ms per step |")
    print("|---|---|---|---|---|---|---|---|")
    for name, label, *_ in RUNS:
        t, dissipation = read(os.path.join(directory, name))
        peak = max(range(len(t)), key=lambda j: dissipation[j])
        at = {round(time, 6): value for time, value in zip(t, dissipation)}
        with open(os.path.join(directory, name.replace(".csv", ".log"))) as file:
            step_ms = re.search(r"^per step: ([0-9.]+) ms", file.read(), re.MULTILINE).group(1)
        run, modes = label.split(" (")
        print(f"| {run} | {modes.rstrip(')')} | {dissipation[peak]:.5f} | {t[peak]:.2f} | "
              f"{at[8.0]:.5f} | {at[9.0]:.5f} | {at[10.0]:.5f} | {float(step_ms):.0f} |")


def main():
    directory = sys.argv[1] if len(sys.argv) > 1 else HERE
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "..", "..",
                                                            "taylor_green_dealias.png")
    figure, axes = plt.subplots(figsize=(7, 4.5))
    for name, label, colour, style, width in RUNS:
        t, dissipation = read(os.path.join(directory, name))
        axes.plot(t, dissipation, color=colour, linestyle=style, linewidth=width, label=label,
                  alpha=0.45 if width > 2 else 1)
    t_peak, eps_peak = REFERENCE_PEAK
    axes.plot([t_peak], [eps_peak], marker="*", markersize=12, color="k", linestyle="none",
              label="reference peak ε ≈ 0.0127, t ≈ 9 (van Rees et al. 2011, 512³)")
    axes.axhline(eps_peak, color="k", linewidth=0.5, alpha=0.4)
    axes.set_xlabel("t")
    axes.set_ylabel("dissipation ε = ν⟨|ω|²⟩")
    axes.grid(True, alpha=0.3)
    axes.legend(fontsize=8, loc="upper left")
    figure.suptitle("Taylor–Green vortex, Re = 1600: ε(t), truncation vs padding "
                    "(2 ranks, dt = 0.02)", fontsize=9)
    figure.tight_layout()
    figure.savefig(out, dpi=120)
    print(f"wrote {os.path.normpath(out)}")
    table(directory)


if __name__ == "__main__":
    main()
