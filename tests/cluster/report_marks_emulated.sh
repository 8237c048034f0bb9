#!/usr/bin/env bash
# usage: report_marks_emulated.sh CLUSTER_SCRIPT "MPIRUN_OPTIONS" A2AFFT -- LAUNCHER...
# Numbers from emulated hosts must never pass for a real cluster's: `a2afft alltoall` on two
# emulated hosts of one rank says "(emulated hosts" at the end of its hosts line and writes
# "emulated_hosts": true into its JSON; the same command under LAUNCHER (a plain mpirun,
# without A2AFFT_EMULATED_HOSTS) says neither.
set -euo pipefail
cluster=$1 mpirun_options=$2 a2afft=$3
[ "$4" = "--" ] || { echo "usage: $0 CLUSTER_SCRIPT \"MPIRUN_OPTIONS\" A2AFFT -- LAUNCHER..."; exit 2; }
shift 4
fail() {
  echo "FAILED: $*"
  exit 1
}
[ -z "${A2AFFT_EMULATED_HOSTS+set}" ] || fail "A2AFFT_EMULATED_HOSTS is set in the test's environment"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
alltoall=("$a2afft" alltoall --exchange mpi --sizes 16 --iters 1 --validate)
emulated_in_json() {
  python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["context"]["emulated_hosts"])' "$1"
}

out=$("$cluster" --hosts 2x1 --mpirun-args "$mpirun_options" -- "${alltoall[@]}" \
      --json "$work/emulated.json" 2>&1) || { printf '%s\n' "$out"; fail "alltoall on 2 emulated hosts exited non-zero"; }
printf '%s\n' "$out"
printf '%s\n' "$out" | grep -q '^# layout: .*; hosts: nodea, nodeb (emulated hosts: UTS namespaces on one machine)$' ||
  fail "the context line does not mark the hosts nodea, nodeb as emulated"
[ "$(emulated_in_json "$work/emulated.json")" = True ] || fail "the JSON context's emulated_hosts is not true"

out=$("$@" "${alltoall[@]}" --json "$work/plain.json" 2>&1) ||
  { printf '%s\n' "$out"; fail "alltoall under a plain launcher exited non-zero"; }
printf '%s\n' "$out"
printf '%s\n' "$out" | grep -q '^# layout: ' || fail "no context line under a plain launcher"
! printf '%s\n' "$out" | grep -q 'emulated' || fail "a plain run says 'emulated'"
[ "$(emulated_in_json "$work/plain.json")" = False ] || fail "the JSON context's emulated_hosts is not false in a plain run"
echo "ok: reports mark emulated hosts, and only them"
