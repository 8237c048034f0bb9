#!/usr/bin/python3
"""Tables for docs/results/simulated-factor-hier.md: a simulated study of the factor schedules
(an `a2afft run` results JSON) next to `a2afft model --json` for the same P, node sizes and
blocks.

usage: factor_hier_vs_model.py STUDY.json --model B=MODEL.json ... [--node-bytes-per-s RATE]

MODEL.json for block B comes from `a2afft model -P P --node-sizes ... --block-bytes B` (uneven:
the factor table only) or `-Q Q` (equal nodes: the alpha-beta table too). The model's times:
- pairwise, factor (and `mpi`, SMPI's `pair`, the pairwise schedule): the model's own alpha-beta
  time, P - 1 rounds of the slowest (inter-node) message. It does not depend on the node sizes
  once there are two nodes, so for uneven nodes it is computed here by the same rule from the
  model's inputs: (P - 1) (alpha_inter + B beta_inter).
- factor-hier: the model's step counts priced by the same rule: the largest node talks in every
  step ([hier-factor-2002] Theorem 1), off-node in `inter_node_steps_per_node` (most) of them,
  inside the node in the rest: inter (alpha_inter + B beta_inter) + intra (alpha_intra + B
  beta_intra).
With --node-bytes-per-s, the term the model lacks: a node's ranks share one link out, so no
exchange beats max over nodes of size(U) (P - size(U)) B / RATE. Prints Markdown.
"""
import argparse
import json

# The study reader and the ranking rule (a tie in the model's best counts as no agreement) are
# sim_vs_model's, so every study's record is counted alike.
from sim_vs_model import ranking, results


def model_seconds(model, node_sizes, block):
    inputs = model["inputs"]
    ranks = inputs["ranks"]
    inter = inputs["alpha_inter_seconds"] + block * inputs["beta_inter_seconds_per_byte"]
    intra = inputs["alpha_intra_seconds"] + block * inputs["beta_intra_seconds_per_byte"]
    direct = (ranks - 1) * inter
    by_name = {entry["algorithm"]: entry for entry in model.get("algorithms", [])}
    factor = {entry["algorithm"]: entry for entry in model["factor"]}
    hier = factor["factor-hier"]
    inter_steps = hier["inter_node_steps_per_node"][1]
    times = {
        "pairwise": by_name["pairwise"]["seconds"] if "pairwise" in by_name else direct,
        "factor": by_name["factor"]["seconds"] if "factor" in by_name else direct,
        "factor-hier": inter_steps * inter + (hier["steps"] - inter_steps) * intra,
    }
    times["mpi"] = times["pairwise"]
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("study")
    parser.add_argument("--model", action="append", default=[])
    parser.add_argument("--node-sizes", required=True, help="e.g. 64,32,48,16,40,56")
    parser.add_argument("--node-bytes-per-s", type=float, default=0.0)
    args = parser.parse_args()
    study, rows = results(args.study)
    sizes = [int(size) for size in args.node_sizes.split(",")]
    ranks = sum(sizes)
    models = {}
    for item in args.model:
        block, _, path = item.partition("=")
        models[int(block)] = json.load(open(path))
    blocks = sorted({row["block_bytes"] for row in rows})
    agree = agree_injected = cases = 0
    for block in blocks:
        found = [row for row in rows if row["block_bytes"] == block]
        best = min(found, key=lambda row: row["median_seconds"])
        print(f"\n**block {block} B** (simulated best: `{best['exchange']}`)\n")
        model = models.get(block)
        if model is None:
            continue
        times = model_seconds(model, sizes, block)
        bound = 0.0
        if args.node_bytes_per_s:
            bound = max(size * (ranks - size) * block for size in sizes) / args.node_bytes_per_s
        print("| exchange | simulated [us] (median) | vs best | model [us] | "
              "model + node-link term [us] |")
        print("|---|---|---|---|---|")
        for row in sorted(found, key=lambda row: row["median_seconds"]):
            name = row["exchange"]
            key = name if name in times else None
            model_text = injected_text = "-"
            if key:
                model_text = f"{times[key] * 1e6:.1f}"
                injected_text = f"{max(times[key], bound) * 1e6:.1f}"
            print(f"| `{name}` | {row['median_seconds'] * 1e6:.1f} | "
                  f"{row['median_seconds'] / best['median_seconds']:.2f}x | {model_text} | "
                  f"{injected_text} |")
        modelled = [row for row in found if row["exchange"] in times]
        if not modelled:
            continue
        cases += 1
        simulated_best = min(modelled, key=lambda row: row["median_seconds"])["exchange"]
        text, hit = ranking({row["exchange"]: times[row["exchange"]] for row in modelled},
                            simulated_best)
        text_injected, hit_injected = ranking(
            {row["exchange"]: max(times[row["exchange"]], bound) for row in modelled},
            simulated_best)
        agree += hit
        agree_injected += hit_injected
        print(f"\nsimulated best among the modelled: `{simulated_best}`; model's best: {text}; "
              f"with the node-link term: {text_injected}")
    print(f"\n**Model's best = simulated best in {agree} of {cases} cases**; with the node-link "
          f"term, {agree_injected} of {cases}.")


if __name__ == "__main__":
    main()
