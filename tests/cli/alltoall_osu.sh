#!/usr/bin/env bash
# usage: alltoall_osu.sh COMMAND...
# COMMAND is an `a2afft alltoall -x mpi,pairwise --sizes 16,1K --iters 5 ...` command line (under
# mpiexec); this script adds --stats osu, --csv and --json. Issue 46: --stats osu adds
# osu_alltoall -f's figures beside a2afft's (console osu avg/min/max [us], CSV
# osu_avg_s,osu_min_s,osu_max_s, JSON "osu"), each row's min <= avg <= max.
set -u
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAILED: $*"; exit 1; }
"$@" --stats osu --csv "$out/a.csv" --json "$out/a.json" >"$out/stats" 2>&1
status=$?
cat "$out/stats"
[ $status -eq 0 ] || fail "--stats osu: exit status $status"
grep -Eq 'median \[us\].*osu avg \[us\] +osu min \[us\] +osu max \[us\]' "$out/stats" ||
  fail "--stats osu: no osu columns after a2afft's"
grep -q '; osu: osu_alltoall -f.s figures too' "$out/stats" || fail "--stats osu: settings line"
python3 - "$out/a.json" "$out/a.csv" <<'PY' || fail "--stats osu: the JSON or CSV figures are wrong"
import csv, json, sys
document = json.load(open(sys.argv[1]))
assert document["settings"]["stats"] == "osu", document["settings"]
results = document["results"]
assert len(results) == 4, f"{len(results)} rows"
for run in results:
    osu = run["osu"]
    assert 0 < osu["min_seconds"] <= osu["avg_seconds"] <= osu["max_seconds"], run
    assert osu["iterations"] == 5, run
rows = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == 4
for row in rows:
    assert 0 < float(row["osu_min_s"]) <= float(row["osu_avg_s"]) <= float(row["osu_max_s"]), row
PY
echo "ok: --stats osu's figures in every format"
