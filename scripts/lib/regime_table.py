#!/usr/bin/env python3
"""One markdown table of scripts/regime's results for one host layout: per block size, the
model's predicted time and rank of each modelled exchange next to the measured median and rank
(`a2afft alltoall`), and every exchange's phase split. Usage: regime_table.py DIR TAG [oversubscribed]."""

import glob
import json
import os
import sys


def family(name):
    """tra(radix=2) -> tra; 'bruck (tra radix=2)' -> bruck; 'pairwise, nonblocking, ...' -> pairwise."""
    return name.replace(",", " ").replace("(", " ").split()[0]


def ranks_of(values):
    """1 for the fastest; equal values (within 0.1%) share a rank, marked '='."""
    ranks = {}
    for name, value in values.items():
        ahead = sum(1 for other in values.values() if other < value * 0.999)
        tied = sum(1 for other in values.values() if abs(other - value) <= value * 0.001) > 1
        ranks[name] = f"{ahead + 1}{'=' if tied else ''}"
    return ranks


def link(inputs, side):
    alpha = inputs[f"alpha_{side}_seconds"] * 1e6
    beta = inputs[f"beta_{side}_seconds_per_byte"] * 1e9
    gbs = 1 / beta if beta > 0 else float("inf")
    measured = "measured" if inputs.get(f"{side}_measured") else "not measurable here: copied"
    return f"{alpha:.2f} us + {beta:.3f} ns/B ({gbs:.2f} GB/s; {measured})"


def main(directory, tag, oversubscribed):
    measured = json.load(open(os.path.join(directory, f"alltoall-{tag}.json")))
    context = measured["context"]
    by_block = {}
    for row in measured["results"]:
        by_block.setdefault(row["block_bytes"], []).append(row)
    models = {}
    for path in glob.glob(os.path.join(directory, f"model-{tag}-*.json")):
        document = json.load(open(path))
        models[document["inputs"]["block_bytes"]] = document
    print(f"### {context['layout']}, hosts {', '.join(context['hosts'])}"
          + (" (emulated hosts)" if context.get("emulated_hosts") else ""))
    if oversubscribed or context.get("oversubscribed"):
        print("\n**Oversubscribed** (more ranks than cores): these times prove correctness only.")
    inputs = models[min(models)]["inputs"]
    print(f"\nintra-node: {link(inputs, 'intra')}; inter-node: {link(inputs, 'inter')}"
          " (ping-pong, in the smallest block size's run)\n")
    print("| block | exchange | predicted [us] | predicted rank | measured [us] | measured rank |"
          " phases (median of max over ranks) [us] |")
    print("|---|---|---|---|---|---|---|")
    for block in sorted(by_block):
        rows = by_block[block]
        model = models.get(block)
        predicted = {}
        if model:
            for algorithm in model["algorithms"]:
                predicted.setdefault(family(algorithm["algorithm"]), algorithm["seconds"])
        measured_times = {row["exchange"]: row["median_seconds"] for row in rows}
        modelled = {row["exchange"]: family(row["exchange"]) for row in rows
                    if family(row["exchange"]) in predicted}
        predicted_rank = ranks_of({name: predicted[f] for name, f in modelled.items()})
        measured_rank = ranks_of({name: measured_times[name] for name in modelled})
        for row in rows:
            name = row["exchange"]
            phases = ", ".join(f"{phase} {seconds * 1e6:.0f}"
                               for phase, seconds in sorted(row.get("phase_median_seconds", {}).items(),
                                                            key=lambda item: -item[1])
                               if seconds * 1e6 >= 1)
            in_model = name in modelled
            print(f"| {block} | {name} | "
                  + (f"{predicted[modelled[name]] * 1e6:.1f}" if in_model else "(no model)")
                  + f" | {predicted_rank.get(name, '-')} | {row['median_seconds'] * 1e6:.1f} | "
                  + f"{measured_rank.get(name, '-')} | {phases} |")
    print()


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: regime_table.py DIR TAG [oversubscribed]")
    main(sys.argv[1], sys.argv[2], len(sys.argv) == 4 and sys.argv[3] == "oversubscribed")
