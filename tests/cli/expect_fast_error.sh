#!/usr/bin/env bash
# usage: expect_fast_error.sh LAUNCHER... -- A2AFFT
# A refused command must finish about as fast as `a2afft list`: every rank agrees on the error,
# finalizes MPI and exits 2, with no MPI_Abort and no timeout on the way. Run with
# OMPI_MCA_odls_base_sigkill_timeout=0, which takes out mpirun's own 2 s wait after any
# non-zero exit; that wait is not the command's. Best of three of each, bound at twice.
set -u
launcher=()
while [ "$1" != "--" ]; do launcher+=("$1"); shift; done
a2afft=$2
best_seconds() {  # best_seconds EXPECTED_STATUS ARGS...: the fastest of three runs
  local expected=$1 best="" start end seconds status
  shift
  for _ in 1 2 3; do
    start=$(date +%s.%N)
    "${launcher[@]}" "$a2afft" "$@" >/dev/null 2>&1
    status=$?
    end=$(date +%s.%N)
    if [ "$status" -ne "$expected" ]; then
      echo "FAILED: a2afft $* exited $status, expected $expected" >&2
      exit 1
    fi
    seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')
    if [ -z "$best" ] || awk -v s="$seconds" -v b="$best" 'BEGIN { exit !(s < b) }'; then
      best=$seconds
    fi
  done
  echo "$best"
}
list_seconds=$(best_seconds 0 list) || exit 1
error_seconds=$(best_seconds 2 alltoall --sizes 0) || exit 1
printf 'a2afft list: %.2f s; refused a2afft alltoall --sizes 0: %.2f s\n' "$list_seconds" \
  "$error_seconds"
if awk -v e="$error_seconds" -v l="$list_seconds" 'BEGIN { exit !(e > 2 * l) }'; then
  echo "FAILED: the refused command took more than twice as long as a2afft list"
  exit 1
fi
echo "ok: the refusal is as fast as a command that does nothing"
