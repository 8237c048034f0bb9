#!/usr/bin/env bash
# usage: alltoall_osu.sh COMMAND...
# COMMAND is an `a2afft alltoall -x mpi,pairwise --sizes 16,1K --iters 5 ...` command line (under
# mpiexec); this script adds --stats osu or --format osu, --csv and --json. Issue 46:
# --stats osu adds osu_alltoall -f's figures beside a2afft's (console osu avg/min/max [us], CSV
# osu_avg_s,osu_min_s,osu_max_s, JSON "osu"), each row's min <= avg <= max; --format osu prints
# OSU's layout instead of the table: per exchange a title, OSU's column header and one line per
# size with OSU's widths (size in 10, latencies in 18 with 2 decimals, iterations in 12).
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
"$@" --format osu --csv "$out/b.csv" >"$out/osu" 2>&1
status=$?
cat "$out/osu"
[ $status -eq 0 ] || fail "--format osu: exit status $status"
grep -q 'median \[us\]' "$out/osu" && fail "--format osu: a2afft's table is printed too"
[ "$(grep -c '^# OSU MPI All-to-All Personalized Exchange Latency Test layout, by a2afft alltoall: exchange ' "$out/osu")" -eq 2 ] ||
  fail "--format osu: not one title per exchange"
[ "$(grep -cxF '# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations' "$out/osu")" -eq 2 ] ||
  fail "--format osu: not OSU's column header, once per exchange"
row='^(16|1024) {6,8}( {4,}[0-9]+\.[0-9]{2}){3}           5$'
[ "$(grep -cE "$row" "$out/osu")" -eq 4 ] || fail "--format osu: not 4 rows of OSU's widths"
# What OSU's readers take: every line not starting with '#' is a size and three latencies.
awk '!/^#/ && NF { if (NF != 5 || length($0) != 10 + 3 * 18 + 12) bad = 1 } END { exit bad }' \
  "$out/osu" || fail "--format osu: a line that is neither a comment nor an OSU row"
head -1 "$out/b.csv" | grep -q '^block_bytes,spec,exchange,median_s,.*,osu_avg_s,osu_min_s,osu_max_s$' ||
  fail "--format osu: the CSV is not a2afft's with OSU's figures"
echo "ok: --stats osu's figures in every format, and --format osu in OSU's layout"
