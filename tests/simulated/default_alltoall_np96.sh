#!/usr/bin/env bash
# usage: default_alltoall_np96.sh SCRIPTS_SIMULATE
# 96 simulated ranks (2 nodes of 48, supermuc-ng-like) with no --alltoall: P is not a power of
# two, so the `mpi` backend's baseline is SMPI's ring, not pair (which would abort every rank).
# The console header and the JSON context name it, and mpi and tra pass --validate.
set -u
simulate=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
expected='platform supermuc-ng-like, 96 ranks, 48 per node, .*, MPI_Alltoall ring$'
console=$("$simulate" --platform supermuc-ng-like --ranks 96 -- a2afft alltoall \
  --exchange mpi,tra --sizes 3,1KiB --iters 1 --warmup 0 --validate --json "$out/a.json" 2>&1)
status=$?
printf '%s\n' "$console"
fail() { echo "FAILED: $*"; exit 1; }
[ $status -eq 0 ] || fail "exit status $status"
grep -q '^simulate: .*MPI_Alltoall ring (the default for 96 ranks: pair needs a power of two)$' \
  <<<"$console" || fail "scripts/simulate does not say it chose ring, and why"
grep -Eq "^# simulated: SimGrid [0-9.]+ SMPI, $expected" <<<"$console" ||
  fail "the '# simulated:' header does not name MPI_Alltoall ring"
python3 - "$out/a.json" "$expected" <<'PY' || fail "the JSON context does not name MPI_Alltoall ring"
import json, re, sys
context = json.load(open(sys.argv[1]))["context"]
assert re.search(sys.argv[2], context["simulated"]), context["simulated"]
PY
for exchange in mpi tra; do
  for size in 3 1024; do
    grep -Eq "^ +$size +$exchange(\(.*\))? .* PASS$" <<<"$console" ||
      fail "$exchange at $size B did not PASS --validate"
  done
done
echo "ok: ring named in the header and the JSON; mpi and tra PASS at 3 B and 1 KiB on 96 ranks"
