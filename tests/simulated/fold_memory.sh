#!/usr/bin/env bash
# usage: fold_memory.sh SCRIPTS_SIMULATE
# `a2afft alltoall --fold-memory` on 16 simulated ranks (nodes of 4, test-cluster) with blocks of
# 4 MiB: unfolded, mpi's and tra's send and receive buffers (2 x 64 MiB per rank and plan) alone
# would need 4 GiB in the one simulation process (6.4 GiB in all, measured), and onmpml's shared
# windows (its staging, 2 x 64 MiB per rank, and the buffers allocate() gives, as many again)
# 4 GiB more (2 GiB touched: it runs on the windows allocate() gave, so its staging stays
# untouched; its plan's heap is 128 MiB per rank). Folded, the three stay under 2.5 GiB (0.6 GiB
# measured for mpi and tra; onmpml adds 1 GiB, of which its plan is 0.1 GiB and the rest comes
# with its run and was not traced further), onmpml's plan holds less than 1 MiB per rank, and
# onmpml, whose ranks read where their peers' buffers lie from a window that is never folded,
# runs to the end. Its
# console header, JSON (context and settings) and every CSV row say that memory was folded, and
# --plan-time gives every row a plan time.
set -u
simulate=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAILED: $*"; exit 1; }
# The simulation's proportional set size (Pss), sampled: folded pages are mapped once per buffer,
# so the resident size (RSS, what /usr/bin/time reports) counts them once per mapping; Pss counts
# each physical page once.
descendants() { local child; for child in $(ps -o pid= --ppid "$1"); do echo "$child"; descendants "$child"; done; }
"$simulate" --platform test-cluster --ranks 16 --ranks-per-node 4 -- a2afft alltoall \
  --exchange mpi,tra,onmpml --sizes 4MiB --iters 1 --warmup 0 --order interleaved --fold-memory \
  --plan-time --json "$out/a.json" --csv "$out/a.csv" >"$out/console" 2>&1 &
job=$!
peak_kib=0 samples=0
while kill -0 "$job" 2>/dev/null; do
  for pid in $(descendants "$job"); do
    pss=$(awk '/^Pss:/ {print $2}' "/proc/$pid/smaps_rollup" 2>/dev/null) || continue
    [ -n "$pss" ] || continue
    samples=$((samples + 1))
    [ "$pss" -gt "$peak_kib" ] && peak_kib=$pss
  done
  sleep 0.1
done
wait "$job"
status=$?
console=$(cat "$out/console")
printf '%s\n' "$console"
[ $status -eq 0 ] || fail "exit status $status"
folded='memory folded'
grep -q "^# simulated: .*$folded" <<<"$console" || fail "the '# simulated:' line does not say '$folded'"
grep -q "^# .*$folded (--fold-memory" <<<"$console" || fail "the settings line does not say '$folded'"
for row in 'tra\(radix=4\)' 'onmpml\(leaders=1\)'; do
  grep -Eq "^ +4194304 +$row .* [0-9]+\.[0-9]{3} +[0-9]+\.[0-9]\$" <<<"$console" ||
    fail "no $row row with a plan time and heap"
done
python3 - "$out/a.json" "$folded" <<'PY' || fail "the JSON does not say folded, lacks plan times, or onmpml's plan holds its windows unfolded"
import json, sys
result = json.load(open(sys.argv[1]))
assert sys.argv[2] in result["context"]["simulated"], result["context"]["simulated"]
assert result["settings"]["fold_memory"] is True, result["settings"]
assert all(run["plan_seconds"] > 0 for run in result["results"]), result["results"]
assert all(run["plan_heap_bytes_per_rank"] > 0 for run in result["results"]), result["results"]
onmpml = [run for run in result["results"] if run["exchange"].startswith("onmpml")]
assert len(onmpml) == 1 and onmpml[0]["plan_heap_bytes_per_rank"] < 1 << 20, onmpml
PY
head -1 "$out/a.csv" | grep -q ',plan_s,plan_heap_bytes_per_rank,simulated$' ||
  fail "the CSV header lacks the plan's columns or simulated"
rows=$(tail -n +2 "$out/a.csv" | wc -l)
marked=$(tail -n +2 "$out/a.csv" | grep -c "$folded")
[ "$rows" -eq 3 ] && [ "$marked" -eq 3 ] || fail "$marked of $rows CSV rows (expected 3) say '$folded'"
echo "peak proportional set size of the simulation: $((peak_kib / 1024)) MiB ($samples samples)"
[ "$samples" -ge 3 ] || fail "only $samples samples of the simulation's memory were taken"
[ "$peak_kib" -lt $((2560 * 1024)) ] ||
  fail "the simulation peaked at $((peak_kib / 1024)) MiB: the buffers were not folded (limit 2560 MiB)"
echo "ok: folded, reported as folded in header, JSON and all $rows CSV rows, peak $((peak_kib / 1024)) MiB"
