#!/usr/bin/env bash
# usage: alltoall_osu.sh COMMAND...
# COMMAND is an `a2afft alltoall -x mpi,pairwise --sizes 16,1K --iters 5 ...` command line (under
# mpiexec); this script adds --stats osu or --format osu, --csv and --json. Issue 46:
# --stats osu adds osu_alltoall -f's figures beside a2afft's (console osu avg/min/max [us], CSV
# osu_avg_s,osu_min_s,osu_max_s, JSON "osu"), each row's min <= avg <= max; --format osu prints
# OSU's layout instead of the table: per exchange a title, OSU's column header and one line per
# size with OSU's widths (size in 10, latencies in 18 with 2 decimals, iterations in 12).
# osu_ialltoall's figures come for the row with a split phase (mpi: MPI_Ialltoall) in every
# format: console osu overall/compute/pure comm [us] and overlap [%], CSV osu_overall_s ...
# osu_overlap_percent, JSON "osu_ialltoall" (overall >= compute > 0, pure comm > 0, overlap in
# 0..100); the row without one (pairwise) has none and says why, once in the console, in its CSV
# cell and in the JSON's "osu_ialltoall_none".
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
grep -Eq 'osu max \[us\] +osu overall \[us\] +osu compute \[us\] +osu pure comm \[us\] +osu overlap \[%\]' \
  "$out/stats" || fail "--stats osu: no osu_ialltoall columns after osu_alltoall's"
[ "$(grep -c '^no osu_ialltoall figures: pairwise[^:]*: no split phase: ' "$out/stats")" -eq 1 ] ||
  fail "--stats osu: pairwise does not say once why it has no osu_ialltoall figures"
grep -E '^ +(16|1024) +mpi ' "$out/stats" | grep -Eq ' -( |$)' &&
  fail "--stats osu: the mpi row (split phase) has a '-' cell"
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
    if run["spec"] == "mpi":
        split = run["osu_ialltoall"]
        assert 0 < split["compute_seconds"] <= split["overall_seconds"], run
        assert split["pure_comm_seconds"] > 0, run
        assert 0 <= split["overlap_percent"] <= 100, run
        assert split["iterations"] == 5, run
        assert "osu_ialltoall_none" not in run, run
    else:
        assert "osu_ialltoall" not in run, run
        assert run["osu_ialltoall_none"].startswith("no split phase: "), run
rows = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == 4
for row in rows:
    assert 0 < float(row["osu_min_s"]) <= float(row["osu_avg_s"]) <= float(row["osu_max_s"]), row
    if row["spec"] == "mpi":
        assert 0 < float(row["osu_compute_s"]) <= float(row["osu_overall_s"]), row
        assert 0 <= float(row["osu_overlap_percent"]) <= 100, row
        assert row["osu_no_overlap_because"] == "", row
    else:
        assert row["osu_overall_s"] == "" and row["osu_overlap_percent"] == "", row
        assert row["osu_no_overlap_because"].startswith("no split phase: "), row
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
head -1 "$out/b.csv" | grep -q '^block_bytes,spec,exchange,median_s,.*,osu_avg_s,osu_min_s,osu_max_s,osu_overall_s,.*,osu_no_overlap_because$' ||
  fail "--format osu: the CSV is not a2afft's with OSU's figures"
echo "ok: --stats osu's figures in every format (osu_ialltoall's for mpi, the reason pairwise has none), and --format osu in OSU's layout"
