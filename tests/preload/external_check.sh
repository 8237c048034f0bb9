#!/usr/bin/env bash
# usage: external_check.sh PRELOAD_LIBRARY A2AFFT_BINARY
# Real programs under the drop-in, at 4 ranks (oversubscribed: correctness only):
#  1. Debian's hpcc with A2AFFT_ALLTOALL=tra, and with node-aware on virtual nodes of 2: its
#     MPIFFT must go through the backend (the log says so) and pass HPCC's own check
#     (Success=1 and maxErr / (ln N * eps) < 16, HPCC's threshold);
#  2. FFTW-MPI's own transforms (a2afft's fftw-mpi engine), 3D and 1D, with and without the
#     preload: the same round-trip error to the last digit, and PASS. FFTW's in-place 3D plan
#     transposes without MPI_Alltoall, so only the 1D plan must show a routed call.
set -u
preload=$1 a2afft=$2
mpirun=(mpirun -np 4 --oversubscribe --bind-to none --mca mpi_yield_when_idle 1)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 A2AFFT_ALLTOALL_LOG=1
fail() { echo "FAILED: $*"; exit 1; }
command -v hpcc > /dev/null || fail "hpcc is not installed (./scripts/run-tests installs it)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A tiny HPL (N = 500) on a 1 x 4 grid; MPIFFT's vector follows from it (2^14, still four
# blocks per rank through MPI_Alltoall). hpcc runs all its benchmarks at sizes that follow from
# N: at N = 1000 the test took twice as long (12 s here instead of 6), mostly in RandomAccess.
awk 'NR == 6 { $1 = 500 } NR == 11 { $1 = 1 } NR == 12 { $1 = 4 } { print }' \
  /usr/share/doc/hpcc/examples/_hpccinf.txt > "$work/hpccinf.txt"

for case in "tra:tra\\(radix=" "node-aware:node-aware\\(inner="; do
  spec=${case%%:*} expected=${case#*:}
  rm -f "$work/hpccoutf.txt"
  log=$(cd "$work" && A2AFFT_RANKS_PER_NODE=2 A2AFFT_ALLTOALL=$spec LD_PRELOAD=$preload \
        "${mpirun[@]}" hpcc 2>&1 > /dev/null) || fail "hpcc under A2AFFT_ALLTOALL=$spec exited non-zero"
  printf '%s\n' "$log" | grep -E "^a2afft:" | sort -u
  printf '%s\n' "$log" | grep -Eq "blocks: $expected" || fail "hpcc's MPI_Alltoall did not run $spec"
  grep -E '^(Success|MPIFFT_N|MPIFFT_Gflops|MPIFFT_maxErr)=' "$work/hpccoutf.txt"
  grep -q '^Success=1$' "$work/hpccoutf.txt" || fail "hpcc under $spec: Success is not 1"
  awk -F= '/^MPIFFT_N=/ { n = $2 } /^MPIFFT_maxErr=/ { e = $2 }
           END { exit !(n > 0 && e / (log(n) * 2^-53) < 16) }' "$work/hpccoutf.txt" ||
    fail "hpcc under $spec: MPIFFT's maxErr fails HPCC's threshold"
  echo "ok: hpcc MPIFFT passes with A2AFFT_ALLTOALL=$spec"
done

for kind in "fft3d --size 16x12x10" "fft1d --n 2^12"; do
  errors=()
  for with in "" "$preload"; do
    out=$(A2AFFT_ALLTOALL=tra LD_PRELOAD=$with "${mpirun[@]}" "$a2afft" $kind --engine fftw-mpi \
          --iters 1 --csv "$work/fft.csv" 2>&1) || fail "$kind (preload '${with}') exited non-zero"
    [ -z "$with" ] || printf '%s\n' "$out" | grep -E "^a2afft:" | sort -u
    if [ -n "$with" ] && [ "${kind%% *}" = fft1d ]; then
      printf '%s\n' "$out" | grep -q "blocks: tra(radix=" || fail "FFTW-MPI's 1D plan did not route"
    fi
    grep -q ',PASS$' "$work/fft.csv" || fail "$kind (preload '${with}') did not pass its check"
    errors+=("$(awk -F, 'NR == 2 { print $(NF - 2) }' "$work/fft.csv")")
  done
  [ "${errors[0]}" = "${errors[1]}" ] ||
    fail "$kind: round-trip error ${errors[0]} without the preload, ${errors[1]} with it"
  echo "ok: FFTW-MPI $kind gives round-trip error ${errors[0]} with and without the preload"
done
