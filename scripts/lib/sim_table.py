#!/usr/bin/python3
"""A Markdown table of a simulated study: one line per exchange, one column per block size,
median in ms, best per block in bold, the tra radix nearest sqrt(P) marked.
usage: sim_table.py STUDY.json"""
import json
import math
import re
import sys

study = json.load(open(sys.argv[1]))
rows = [row for run in study["runs"] for row in run["results"]]
ranks = study["runs"][0]["context"]["ranks"]
root = math.ceil(math.sqrt(ranks))
blocks = sorted({row["block_bytes"] for row in rows})
names = []
for row in rows:
    if row["exchange"] not in names:
        names.append(row["exchange"])
best = {b: min(r["median_seconds"] for r in rows if r["block_bytes"] == b) for b in blocks}
print("| exchange | " + " | ".join(f"{b} B" for b in blocks) + " |")
print("|---|" + "---|" * len(blocks))
for name in names:
    cells = []
    for block in blocks:
        found = [r for r in rows if r["exchange"] == name and r["block_bytes"] == block]
        if not found:
            cells.append("-")
            continue
        value = found[0]["median_seconds"]
        text = f"{value * 1e3:.2f}"
        cells.append(f"**{text}**" if value == best[block] else text)
    radix = re.match(r"^tra\(radix=(\d+)", name)
    mark = " (ceil sqrt P)" if radix and int(radix.group(1)) == root else ""
    print(f"| `{name}`{mark} | " + " | ".join(cells) + " |")
