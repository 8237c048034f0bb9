#!/usr/bin/python3
"""Tables and the figure of docs/results/simulated-fft-scaling.md, from the results of
scripts/simulate-fft-scaling (DIR/fft-scaling-<study>-<size>-<P>.json, DIR/fft-scaling-walltimes.csv).

  sim_fft_scaling.py tables DIR            Markdown: one table per study, a row per P and plan:
                                           total, transpose, compute (simulated medians, ms),
                                           transpose share, the check, the wall time
  sim_fft_scaling.py plot DIR OUT.png      time vs P, stacked compute + transpose, per study
  sim_fft_scaling.py model DIR MODELS      Markdown: each row's transpose time beside `a2afft
                                           model`'s prediction for its exchanges (MODELS: the
                                           directory of model JSONs that `models` lists)
  sim_fft_scaling.py models DIR            the `a2afft model` runs the model table needs, one per
                                           line: NAME P Q BLOCK_BYTES (scripts/simulate-fft-scaling
                                           --model runs them)
"""
import csv
import glob
import json
import math
import os
import re
import sys
from collections import defaultdict

NAME = re.compile(r"fft-scaling-(fft3d|slabs|fft1d|hpcc)-(\w+)-(\d+)\.json$")
STUDIES = {
    "fft3d": "fft3d, pencils",
    "slabs": "fft3d, slabs (1 x P grid)",
    "fft1d": "fft1d (six-step)",
    "hpcc": "fft1d --hpcc",
}
RANKS_PER_NODE = 64  # theta-like
POINT_BYTES = 16  # complex double


def runs(directory):
    """{study: [(P, size label, document)]}, by P."""
    found = defaultdict(list)
    for path in glob.glob(os.path.join(directory, "fft-scaling-*.json")):
        match = NAME.search(path)
        if match:
            found[match.group(1)].append((int(match.group(3)), match.group(2), json.load(open(path))))
    return {study: sorted(items, key=lambda item: item[0]) for study, items in found.items()}


def walltimes(directory):
    table = {}
    path = os.path.join(directory, "fft-scaling-walltimes.csv")
    if os.path.exists(path):
        for row in csv.DictReader(open(path)):
            table[(row["study"], row["size"], int(row["ranks"]))] = (float(row["wall_seconds"]),
                                                                   int(row["status"]))
    return table


def ms(seconds):
    return f"{seconds * 1e3:.1f}"


def short(exchange):
    """A row's describe() without the six-step split (the settings line has it)."""
    return re.sub(r"^sixstep\([^)]*\): ", "", exchange)


def tables(directory):
    walls = walltimes(directory)
    for study in STUDIES:
        items = runs(directory).get(study)
        if not items:
            continue
        print(f"\n### {STUDIES[study]}\n")
        print("| P | grid / N | plan | total [ms] | transpose [ms] | compute [ms] "
              "| transpose / (transpose + compute) | GFlop/s | round trip | check | wall [s] |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        for ranks, label, document in items:
            settings = document["settings"]
            shape = re.search(r"(grid \d+x\d+|N \d+ = \d+ x \d+)", settings)
            wall = walls.get((study, label, ranks))
            for k, row in enumerate(document["results"]):
                total, transpose, compute = (row[key]["median_seconds"]
                                             for key in ("total", "transpose", "compute"))
                share = transpose / (transpose + compute) if transpose + compute > 0 else 0
                first = k == 0
                print(f"| {f'{ranks:,}' if first else ''} | "
                      f"{shape.group(1) if shape and first else ''} | "
                      f"`{short(row['exchange'])}` | {ms(total)} | {ms(transpose)} | {ms(compute)} | "
                      f"{share:.0%} | {row['gflops']:.1f} | {row['round_trip_error']:.1e} | "
                      f"{row['check']} | {f'{wall[0]:,.0f}' if wall and first else ''} |")


def plot(directory, out):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    studies = runs(directory)
    names = [study for study in STUDIES if study in studies]
    columns = min(len(names), 2)
    lines = math.ceil(len(names) / columns)
    figure, panels = plt.subplots(lines, columns, figsize=(6 * columns, 4.4 * lines),
                                  squeeze=False)
    for panel in panels.flat[len(names):]:
        panel.set_visible(False)
    for panel, study in zip(panels.flat, names):
        items = studies[study]
        exchanges = []  # families, in the order of the rows
        for _, _, document in items:
            for row in document["results"]:
                if family(row["exchange"]) not in exchanges:
                    exchanges.append(family(row["exchange"]))
        width = 0.8 / max(len(exchanges), 1)
        colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
        for k, exchange in enumerate(exchanges):
            xs, compute, transpose = [], [], []
            for position, (ranks, _, document) in enumerate(items):
                for row in document["results"]:
                    if family(row["exchange"]) == exchange:
                        xs.append(position - 0.4 + width * (k + 0.5))
                        compute.append(row["compute"]["median_seconds"] * 1e3)
                        transpose.append(row["transpose"]["median_seconds"] * 1e3)
            colour = colours[k % len(colours)]
            panel.bar(xs, compute, width, color=colour, alpha=0.35, edgecolor=colour)
            panel.bar(xs, transpose, width, bottom=compute, color=colour, edgecolor=colour,
                      label=exchange)
        panel.set_xticks(range(len(items)))
        panel.set_xticklabels([f"P = {ranks:,}" for ranks, _, _ in items], fontsize=8)
        panel.set_ylabel("simulated forward time [ms]: compute + transpose")
        settings = items[0][2]["settings"]
        match = re.search(r"(size \d+x\d+x\d+|N \d+ = \d+ x \d+)", settings)
        panel.set_title(f"{STUDIES[study]}, {match.group(1) if match else ''}"
                        "\npale: compute, solid: transpose (stacked)", fontsize=9)
        panel.legend(fontsize=6)
        panel.grid(True, axis="y", which="both", alpha=0.3)
    context = items[0][2]["context"] if names else {}
    figure.suptitle("a2afft FFT strong scaling on theta-like, simulated ("
                    + context.get("simulated", "").split(",")[0] + ", 64 ranks per node, "
                    "host speed ratio 1): one forward transform, max over ranks", fontsize=9)
    figure.tight_layout()
    figure.savefig(out, dpi=110)


def family(exchange):
    """The spec a row came from: auto:mode=estimate, pairwise, tra, tra2 (the radix and auto's
    choice vary with P)."""
    exchange = short(exchange)
    if "auto(estimate)" in exchange:
        return "auto:mode=estimate"
    for name in ("tra2", "tra", "pairwise", "bruck"):
        if re.search(rf"(^|=){re.escape(name)}(\(|,|$)", exchange):
            return name
    return exchange


def grid_of(settings):
    match = re.search(r"grid (\d+)x(\d+)", settings)
    return (int(match.group(1)), int(match.group(2))) if match else None


def transposes(study, ranks, document):
    """The exchanges one forward transform makes: (name, P, Q, block bytes, count)."""
    settings = document["settings"]
    if study in ("fft1d", "hpcc"):
        n = int(re.search(r"N (\d+) =", settings).group(1))
        block = n // ranks // ranks * POINT_BYTES
        return [("all", ranks, min(ranks, RANKS_PER_NODE), block, 3)]
    p0, p1 = grid_of(settings)
    n = int(re.search(r"size (\d+)x", settings).group(1))
    local_bytes = n ** 3 // ranks * POINT_BYTES
    items = []
    if p1 > 1:  # rows: p1 consecutive ranks
        items.append(("row", p1, min(p1, RANKS_PER_NODE), local_bytes // p1, 1))
    if p0 > 1:  # columns: p0 ranks p1 apart, 64 / p1 of them per node
        items.append(("column", p0, max(1, min(p0, RANKS_PER_NODE // p1)), local_bytes // p0, 1))
    return items


def models(directory):
    """One line per model run: NAME P Q BLOCK [R1 R2]; with R1 and R2 for a tra2 that auto chose
    (the model's table has tra2 at its default radices only)."""
    seen = set()
    for study, items in runs(directory).items():
        for ranks, _, document in items:
            for name, p, q, block, _ in transposes(study, ranks, document):
                radices = [()]
                for row in document["results"]:
                    spec = exchanges_of(short(row["exchange"])).get(name, short(row["exchange"]))
                    match = re.search(r"tra2\(r1=(\d+),r2=(\d+)\)", spec)
                    if match:
                        radices.append((int(match.group(1)), int(match.group(2))))
                for pair in radices:
                    if (p, q, block, pair) not in seen:
                        seen.add((p, q, block, pair))
                        suffix = "".join(f"-{r}" for r in pair)
                        print(f"model-fft-{p}-{q}-{block}{suffix} {p} {q} {block} {' '.join(map(str, pair))}".rstrip())


def model_key(exchange):
    """The model's name for one exchange of a row: what auto chose, if auto."""
    exchange = exchange.split("→")[-1]
    match = re.match(r"^(tra\(radix=\d+\)|tra2\(r1=\d+,r2=\d+\)|bruck|pairwise)", exchange)
    return match.group(1) if match else None


def exchanges_of(exchange):
    """{row: spec, column: spec} of a pencil row's describe(), else the one spec for all."""
    match = re.match(r"^row=(.*),column=(.*)$", exchange)
    return {"row": match.group(1), "column": match.group(2)} if match else {}


def model_table(directory, model_directory):
    def predicted(p, q, block, exchange):
        key = model_key(exchange)
        match = re.match(r"tra2\(r1=(\d+),r2=(\d+)\)", key or "")
        suffix = f"-{match.group(1)}-{match.group(2)}" if match else ""
        for name in (f"model-fft-{p}-{q}-{block}", f"model-fft-{p}-{q}-{block}{suffix}"):
            path = os.path.join(model_directory, name + ".json")
            if p == 1 or not os.path.exists(path):
                continue
            model = json.load(open(path))
            for entry in model["algorithms"] + model.get("radix_sweep", []):
                if entry["algorithm"] == key:
                    return entry["seconds"]
        return None

    agree = cases = 0
    for study in STUDIES:
        items = runs(directory).get(study)
        if not items:
            continue
        print(f"\n### {STUDIES[study]}\n")
        print("| P | plan | exchanges per forward (P, Q, block) | simulated transpose [ms] "
              "| model [ms] | simulated / model |")
        print("|---|---|---|---|---|---|")
        for ranks, _, document in items:
            best_simulated = best_model = None
            plans = set()
            for row in document["results"]:
                # A pencil row's describe: "row=X,column=Y" or one spec for both.
                exchanges = short(row["exchange"])
                parts = exchanges_of(exchanges)
                total = 0.0
                texts = []
                for name, p, q, block, count in transposes(study, ranks, document):
                    spec = parts.get(name, exchanges)
                    value = predicted(p, q, block, spec)
                    texts.append(f"{count} x {name} ({p}, {q}, {block:,} B)")
                    total = None if value is None or total is None else total + count * value
                simulated = row["transpose"]["median_seconds"]
                ratio = f"{simulated / total:.1f}x" if total else ""
                print(f"| {ranks:,} | `{exchanges}` | {'; '.join(texts)} | {ms(simulated)} | "
                      f"{f'{total * 1e3:.3f}' if total is not None else 'not modelled'} | {ratio} |")
                if total is not None:
                    # The plan, whichever row ran it (auto's choice is also a row of its own).
                    plan = tuple(model_key(parts.get(name, exchanges))
                                 for name, *_ in transposes(study, ranks, document))
                    plan = "/".join(plan)
                    plans.add(plan)
                    if best_simulated is None or simulated < best_simulated[1]:
                        best_simulated = (plan, simulated)
                    if best_model is None or total < best_model[1]:
                        best_model = (plan, total)
            if best_model and best_simulated and len(plans) > 1:  # one plan: nothing to rank
                cases += 1
                same = best_model[0] == best_simulated[0]
                agree += same
                print(f"| {ranks:,} | model's best `{best_model[0]}`, simulated best "
                      f"`{best_simulated[0]}` | | | | {'agree' if same else 'differ'} |")
    print(f"\n**Model's best = simulated best in {agree} of {cases} cases.**")


def main():
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "tables" and len(sys.argv) == 3:
        tables(sys.argv[2])
    elif command == "plot" and len(sys.argv) == 4:
        plot(sys.argv[2], sys.argv[3])
    elif command == "models" and len(sys.argv) == 3:
        models(sys.argv[2])
    elif command == "model" and len(sys.argv) == 4:
        model_table(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
