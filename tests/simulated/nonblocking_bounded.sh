#!/usr/bin/env bash
# usage: nonblocking_bounded.sh SCRIPTS_SIMULATE
# nonblocking in simulation (issue 31): without a batch it keeps at most 4 exchanges in flight
# per rank (SimGrid SMPI 3.32 crashed with 16 or more at P = 256), checked against
# MPI_Alltoall, and the console row, the JSON row and every CSV row say the batch was bounded in
# simulation and why; an explicit batch is honoured as given (batch=all: all 63 at P = 64).
set -u
simulate=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAILED: $*"; exit 1; }
console=$("$simulate" --platform test-cluster --ranks 64 --ranks-per-node 16 -- a2afft alltoall \
  --exchange nonblocking,nonblocking:batch=all --sizes 3 --iters 1 --warmup 0 --validate \
  --json "$out/a.json" --csv "$out/a.csv" 2>&1)
status=$?
printf '%s\n' "$console"
[ $status -eq 0 ] || fail "exit status $status"
bounded='nonblocking\(batch=4, bounded in simulation: SMPI 3\.32 crashes from P=256 with 16 or more\)'
grep -Eq "^ +3 +$bounded .* PASS$" <<<"$console" ||
  fail "no console row of the bounded default (batch=4) that PASSes"
grep -Eq '^ +3 +nonblocking\(batch=63\) .* PASS$' <<<"$console" ||
  fail "no console row of the explicit batch=all (batch=63) that PASSes"
python3 - "$out/a.json" "$bounded" <<'PY' || fail "the JSON rows do not say bounded"
import json, re, sys
rows = json.load(open(sys.argv[1]))["results"]
exchanges = sorted(row["exchange"] for row in rows)
assert len(exchanges) == 2, exchanges
assert re.fullmatch(sys.argv[2], exchanges[0]), exchanges
assert exchanges[1] == "nonblocking(batch=63)", exchanges
PY
marked=$(grep -Ec "$bounded" "$out/a.csv")
[ "$marked" -eq 1 ] || fail "$marked CSV rows say bounded, expected 1 (the default's)"
grep -q 'nonblocking(batch=63)' "$out/a.csv" || fail "no CSV row of batch=63"
echo "ok: the default is bounded to 4 and says so (console, JSON, CSV); batch=all runs all 63"
