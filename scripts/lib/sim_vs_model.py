#!/usr/bin/python3
"""Tables for docs/results/simulated-*.md: an `a2afft run` results JSON of a simulated study (or
one `a2afft alltoall --json` file) next to `a2afft model --json` predictions for the same P, Q
and block sizes.

usage: sim_vs_model.py STUDY.json [--model B=MODEL.json ...] [--node-bytes-per-s RATE]
                        [--vendor pairwise|bruck]

For each block size: every exchange's simulated median, the best one, and (with --model) the
model's prediction for it and the model's best among the same exchanges. With
--node-bytes-per-s the model is also given the term it lacks: a node's ranks share one link out,
so an exchange cannot be faster than the bytes that leave the node / RATE (the model's
inter_node_bytes_per_node; Q x bytes/rank in model files that predate it). Prints Markdown.
"""
import argparse
import json
import re


def results(study_path):
    study = json.load(open(study_path))
    # An `a2afft run` study has runs of results; one `a2afft alltoall --json` has its results.
    if "runs" not in study:
        return study, list(study["results"])
    rows = []
    for run in study["runs"]:
        rows.extend(run["results"])
    return study, rows


def model_table(path):
    model = json.load(open(path))
    by_name = {}
    for entry in model["algorithms"] + model.get("radix_sweep", []):
        by_name[entry["algorithm"]] = entry
    return model, by_name


def model_key(exchange, by_name, vendor="pairwise"):
    """The model's name for a simulated row's describe(): tra(radix=32), tra2(r1=8,r2=16); the
    node-aware family and the shared-leader rows price under their describe() text itself
    (`a2afft model --exchange` with the study's specs); `mpi` is SMPI's `pair` (or `ring`)
    alltoall in these studies, P - 1 rounds of one block, the schedule the model calls pairwise
    (--vendor bruck: SMPI's `bruck` alltoall, log2 P rounds, the model's bruck)."""
    if exchange == "mpi":
        return vendor
    if exchange in by_name:
        return exchange
    match = re.match(r"^(tra\(radix=\d+\)|tra2\(r1=\d+,r2=\d+\)|bruck|pairwise)", exchange)
    return match.group(1) if match else None


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("study")
    parser.add_argument("--model", action="append", default=[])
    parser.add_argument("--node-bytes-per-s", type=float, default=0.0)
    parser.add_argument("--vendor", choices=["pairwise", "bruck"], default="pairwise",
                        help="the schedule of SMPI's MPI_Alltoall in the study (`mpi`)")
    args = parser.parse_args()
    study, rows = results(args.study)
    models = {}
    for item in args.model:
        block, path = item.split("=", 1)
        models[int(block)] = model_table(path)
    blocks = sorted({row["block_bytes"] for row in rows})
    agree = agree_injection = cases = 0
    for block in blocks:
        here = [row for row in rows if row["block_bytes"] == block]
        best = min(here, key=lambda row: row["median_seconds"])
        print(f"\n**block {block} B** (simulated best: `{best['exchange']}`)\n")
        header = "| exchange | simulated median [us] | vs best |"
        model, by_name = models.get(block, (None, {}))
        if model:
            q = model["inputs"]["ranks_per_node"]
            header += " model [us] |"
            if args.node_bytes_per_s:
                header += " model + injection term [us] |"
        print(header)
        print("|" + "---|" * (header.count("|") - 1))
        predicted, predicted_injection = {}, {}
        for row in sorted(here, key=lambda row: row["median_seconds"]):
            line = (f"| `{row['exchange']}` | {row['median_seconds'] * 1e6:.1f} | "
                    f"{row['median_seconds'] / best['median_seconds']:.2f}x |")
            key = model_key(row["exchange"], by_name, args.vendor)
            if model:
                entry = by_name.get(key)
                if entry:
                    predicted[row["exchange"]] = entry["seconds"]
                    line += f" {entry['seconds'] * 1e6:.1f} |"
                    if args.node_bytes_per_s:
                        # What the node's link out carries; models written before the field
                        # existed: every rank's bytes, forwarded ones inside the node included.
                        node_bytes = entry.get("inter_node_bytes_per_node",
                                               q * entry["bytes_per_rank"])
                        injection = node_bytes / args.node_bytes_per_s
                        total = max(entry["seconds"], injection)
                        predicted_injection[row["exchange"]] = total
                        line += f" {total * 1e6:.1f} |"
                else:
                    line += " - |" + (" - |" if args.node_bytes_per_s else "")
            print(line)
        if predicted:
            cases += 1
            simulated_best = min((row for row in here if row["exchange"] in predicted),
                                 key=lambda row: row["median_seconds"])["exchange"]
            verdict, agreed = ranking(predicted, simulated_best)
            agree += agreed
            print(f"\nmodel's best: {verdict}; simulated best among the modelled: "
                  f"`{simulated_best}`")
            if predicted_injection:
                verdict, agreed = ranking(predicted_injection, simulated_best)
                agree_injection += agreed
                print(f"; with the injection term: {verdict}")
    if cases:
        print(f"\n**Model's best = simulated best in {agree} of {cases} cases**" +
              (f"; with the injection term, {agree_injection} of {cases}." if args.node_bytes_per_s
               else ".") + " A tie in the model's best counts as no agreement.")


def ranking(predicted, simulated_best):
    """The model's best (every exchange within 0.1% of the lowest prediction, a tie when more
    than one) and whether it is the simulated best alone."""
    lowest = min(predicted.values())
    best = [name for name, seconds in predicted.items() if seconds <= lowest * 1.001]
    if len(best) > 1:
        names = ", ".join(f"`{name}`" for name in best)
        return f"a tie of {len(best)} ({names}) (no agreement counted)", False
    return f"`{best[0]}`" + (" (agree)" if best[0] == simulated_best else " (differ)"), (
        best[0] == simulated_best)


if __name__ == "__main__":
    main()
