#!/usr/bin/env bash
# usage: reports_say_simulated.sh SCRIPTS_SIMULATE
# A simulated alltoall (16 ranks, nodes of 4, on test-cluster) marks its console header, its
# JSON context and every CSV row with the simulator, platform and layout; the shared-leader
# backend runs there (through the shared-window shim) and its result is checked.
set -u
simulate=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
expected='SimGrid [0-9.]+ SMPI, platform test-cluster, 16 ranks, 4 per node, smpi/host-speed 1Gf'
console=$("$simulate" --platform test-cluster --ranks 16 --ranks-per-node 4 -- a2afft alltoall \
  --exchange mpi,onmpml --sizes 1KiB --iters 3 --validate --json "$out/a.json" --csv "$out/a.csv" 2>&1)
status=$?
printf '%s\n' "$console"
fail() { echo "FAILED: $*"; exit 1; }
[ $status -eq 0 ] || fail "exit status $status"
grep -Eq "^# simulated: $expected" <<<"$console" || fail "no '# simulated:' header line"
grep -Eq '^ +1024 +onmpml\(leaders=1\) .* PASS$' <<<"$console" || fail "onmpml did not PASS --validate"
python3 - "$out/a.json" "$expected" <<'PY' || fail "the JSON context does not say simulated"
import json, re, sys
context = json.load(open(sys.argv[1]))["context"]
assert re.match(sys.argv[2], context["simulated"]), context["simulated"]
PY
head -1 "$out/a.csv" | grep -q ',simulated$' || fail "the CSV has no simulated column"
rows=$(tail -n +2 "$out/a.csv" | wc -l)
marked=$(tail -n +2 "$out/a.csv" | grep -Ec "\"$expected")
[ "$rows" -ge 2 ] && [ "$rows" -eq "$marked" ] || fail "$marked of $rows CSV rows say simulated"
echo "ok: header, JSON and all $rows CSV rows say simulated"
