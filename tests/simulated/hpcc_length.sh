#!/usr/bin/env bash
# usage: hpcc_length.sh SCRIPTS_SIMULATE
# `a2afft fft1d --hpcc` in simulation picks N from this machine's memory over all P simulated
# ranks (they all live in one process here), not over the ranks of one simulated host: with 16
# ranks on 4 hosts of 4 and --memory-fraction F, its four arrays of N complex doubles in all
# (64 N bytes) fit in F of the memory and the next power of two would not:
# 64 N <= F * MemTotal < 128 N. Counted per simulated host, N came out 4 times too large.
set -u
simulate=$1
fraction=0.001
fail() { echo "FAILED: $*"; exit 1; }
console=$("$simulate" --platform test-cluster --ranks 16 --ranks-per-node 4 -- a2afft fft1d \
  --hpcc --memory-fraction "$fraction" --exchange pairwise --iters 1 --warmup 0 2>&1)
status=$?
printf '%s\n' "$console"
[ $status -eq 0 ] || fail "exit status $status"
n=$(sed -n 's/^MPIFFT_N=//p' <<<"$console")
[ -n "$n" ] || fail "no MPIFFT_N line"
memory_kib=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)
python3 - "$n" "$memory_kib" "$fraction" <<'PY' || exit 1
import sys
n, memory, fraction = int(sys.argv[1]), int(sys.argv[2]) * 1024, float(sys.argv[3])
room = fraction * memory
if not (64 * n <= room < 128 * n):
    sys.exit(f"FAILED: MPIFFT_N={n}: 64 N = {64 * n} B, expected <= {room:.0f} B "
             f"(--memory-fraction {fraction} of {memory} B) < 128 N")
print(f"ok: MPIFFT_N={n}: 64 N = {64 * n} B <= {room:.0f} B < 128 N")
PY
