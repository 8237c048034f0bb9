#!/usr/bin/env bash
# usage: hpcc_check.sh PRELOAD_LIBRARY SPEC LOG_REGEX RANKS -- LAUNCHER...
# Runs Debian's hpcc as `LAUNCHER env LD_PRELOAD=... A2AFFT_ALLTOALL=SPEC hpcc` (the preload
# reaches the ranks only, not the launcher) with a tiny HPL (N = 500) on a 1 x RANKS grid;
# MPIFFT's vector follows from it (2^14). Its MPIFFT must go through the backend (a line of the
# preload's log matches LOG_REGEX, e.g. "blocks: tra\\(radix=") and pass HPCC's own check
# (Success=1 and maxErr / (ln N * eps) < 16, HPCC's threshold). hpcc runs all its benchmarks
# at sizes that follow from N: at N = 1000 a run took twice as long, mostly in RandomAccess.
set -u
preload=$1 spec=$2 log_regex=$3 ranks=$4
[ "$5" = "--" ] || { echo "usage: $0 PRELOAD_LIBRARY SPEC LOG_REGEX RANKS -- LAUNCHER..."; exit 2; }
shift 5
fail() { echo "FAILED: $*"; exit 1; }
command -v hpcc > /dev/null || fail "hpcc is not installed (./scripts/run-tests installs it)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
awk -v q="$ranks" 'NR == 6 { $1 = 500 } NR == 11 { $1 = 1 } NR == 12 { $1 = q } { print }' \
  /usr/share/doc/hpcc/examples/_hpccinf.txt > "$work/hpccinf.txt"
log=$(cd "$work" && "$@" env LD_PRELOAD="$preload" A2AFFT_ALLTOALL="$spec" A2AFFT_ALLTOALL_LOG=1 \
      hpcc 2>&1 > /dev/null) || { printf '%s\n' "$log"; fail "hpcc under A2AFFT_ALLTOALL=$spec exited non-zero"; }
printf '%s\n' "$log" | grep -E "^a2afft:" | sort -u
printf '%s\n' "$log" | grep -Eq "$log_regex" || fail "hpcc under $spec: no line of the preload's log matches $log_regex"
grep -E '^(Success|MPIFFT_N|MPIFFT_Gflops|MPIFFT_maxErr)=' "$work/hpccoutf.txt"
grep -q '^Success=1$' "$work/hpccoutf.txt" || fail "hpcc under $spec: Success is not 1"
awk -F= '/^MPIFFT_N=/ { n = $2 } /^MPIFFT_maxErr=/ { e = $2 }
         END { exit !(n > 0 && e / (log(n) * 2^-53) < 16) }' "$work/hpccoutf.txt" ||
  fail "hpcc under $spec: MPIFFT's maxErr fails HPCC's threshold"
echo "ok: hpcc MPIFFT passes with A2AFFT_ALLTOALL=$spec"
