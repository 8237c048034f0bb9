#!/usr/bin/env bash
# usage: vendor_rows.sh SCRIPTS_SIMULATE
# The vendor rows in simulation (issue 46): mpi:alg=NAME are SimGrid SMPI's own alltoall
# algorithms, read at run time from SimGrid (`a2afft list` shows them). SMPI runs one for the
# whole simulation, chosen at launch (scripts/simulate --alltoall), so the row of that one runs
# (checked against MPI_Alltoall, its describe() says it is the simulation's) and any other is
# one error, exit 2, naming the one in effect and saying to relaunch with --alltoall NAME; after
# that relaunch the same row runs. 4 ranks on test-cluster: a few seconds each.
set -u
simulate=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAILED: $*"; exit 1; }
place=(--platform test-cluster --ranks 4 --ranks-per-node 2)

"$simulate" "${place[@]}" --alltoall bruck -- a2afft list >"$out/list" 2>&1 ||
  fail "list: exit status $?"
grep -q '^Offered by this MPI library (SimGrid SMPI' "$out/list" || { cat "$out/list"; fail "list: no SMPI heading"; }
for name in pair ring bruck rdb basic_linear 2dmesh mvapich2_scatter_dest; do
  grep -qx "  mpi:alg=$name" "$out/list" || { cat "$out/list"; fail "list: no mpi:alg=$name"; }
done

for alg in bruck ring; do
  "$simulate" "${place[@]}" --alltoall $alg -- a2afft alltoall -x mpi,mpi:alg=$alg --sizes 16,1K \
    --iters 2 --warmup 0 --validate --json "$out/$alg.json" >"$out/$alg" 2>&1
  status=$?
  cat "$out/$alg"
  [ $status -eq 0 ] || fail "--alltoall $alg, mpi:alg=$alg: exit status $status"
  [ "$(grep -Ec "^ +(16|1024) +mpi\(alg=$alg, the simulation's smpi/alltoall\) .* PASS$" "$out/$alg")" -eq 2 ] ||
    fail "--alltoall $alg: not two PASS rows of mpi:alg=$alg that say they are the simulation's"
  python3 - "$out/$alg.json" "$alg" <<'PY' || fail "--alltoall $alg: the JSON rows"
import json, sys
rows = json.load(open(sys.argv[1]))["results"]
forced = [row for row in rows if row["spec"] == "mpi:alg=" + sys.argv[2]]
assert len(forced) == 2 and all(row["check"] == "PASS" for row in forced), rows
assert all(row["exchange"] == f"mpi(alg={sys.argv[2]}, the simulation's smpi/alltoall)" for row in forced), rows
PY
done

"$simulate" "${place[@]}" --alltoall bruck -- a2afft alltoall -x mpi:alg=ring --sizes 16 \
  >"$out/refused" 2>&1
status=$?
cat "$out/refused"
[ $status -eq 2 ] || fail "mpi:alg=ring under --alltoall bruck: exit status $status, expected 2"
[ "$(grep -c '^a2afft: error:' "$out/refused")" -eq 1 ] || fail "not one error line"
grep -q "^a2afft: error: mpi:alg=ring cannot run on .*SimGrid SMPI runs one alltoall algorithm for the whole simulation, chosen at launch, and this simulation runs bruck; relaunch with scripts/simulate --alltoall ring" \
  "$out/refused" || fail "the refusal does not name bruck and say to relaunch with --alltoall ring"
echo "ok: SMPI's algorithms listed; the launched one's row runs and passes, another is refused with how to run it"
