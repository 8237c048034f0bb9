#!/usr/bin/python3
"""Summaries of session 52's quiet runs: medians of launch medians, with min-max."""
import csv, glob, statistics, sys, os
Q = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'quiet')
def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))
def mm(values):
    return f"{statistics.median(values):.1f} ({min(values):.1f}-{max(values):.1f})"
print("## 43: compute [ms], estimate / measure, 3 launches")
for n in (128, 256):
    for np_ in (1, 2):
        e = [float(rows(f'{Q}/est-{n}-np{np_}-estimate-{l}.csv')[0]['compute_median_s'])*1e3 for l in (1,2,3)]
        m = [float(rows(f'{Q}/est-{n}-np{np_}-measure-{l}.csv')[0]['compute_median_s'])*1e3 for l in (1,2,3)]
        t = [float(rows(f'{Q}/est-{n}-np{np_}-estimate-{l}.csv')[0]['total_median_s'])*1e3 for l in (1,2,3)]
        tm = [float(rows(f'{Q}/est-{n}-np{np_}-measure-{l}.csv')[0]['total_median_s'])*1e3 for l in (1,2,3)]
        ratios = [a/b for a, b in zip(e, m)]
        print(f"| {n}^3 | {np_} | {mm(e)} | {mm(m)} | {statistics.median(e)/statistics.median(m):.2f} | "
              + ", ".join(f"{r:.2f}" for r in ratios) + f" | {mm(t)} | {mm(tm)} |")
if glob.glob(f'{Q}/auto-*.csv'):
    print("## 45: --threads auto")
    for name in ('auto-128', 'auto-256', 'auto-grid-128-np2'):
        for l in (1,2,3):
            p = f'{Q}/{name}-{l}.csv'
            if not os.path.exists(p): continue
            for r in rows(p):
                print(name, l, r['engine'], r['exchange'][:150], f"{float(r['total_median_s'])*1e3:.1f}", r.get('ranks_x_threads',''))
if glob.glob(f'{Q}/onerank-*.csv'):
    print("## 45: 1D 2^22 one rank")
    data = {}
    for l in (1,2,3):
        p = f'{Q}/onerank-{l}.csv'
        if not os.path.exists(p): continue
        for r in rows(p):
            key = (r['engine'], r.get('ranks_x_threads',''))
            data.setdefault(key, []).append((float(r['total_median_s'])*1e3, float(r['transpose_median_s'] or 0)*1e3 if r['transpose_median_s'] else 0))
    for key, v in data.items():
        print(key, mm([a for a, _ in v]), "transpose", mm([b for _, b in v]))
