#!/usr/bin/env bash
# usage: external_check.sh PRELOAD_LIBRARY A2AFFT_BINARY -- LAUNCHER...   (mpiexec for 4 ranks)
# Real programs under the drop-in, at 4 ranks (oversubscribed: correctness only):
#  1. Debian's hpcc with A2AFFT_ALLTOALL=tra, and with node-aware on virtual nodes of 2: its
#     MPIFFT must go through the backend and pass HPCC's own check (hpcc_check.sh);
#  2. FFTW-MPI's own transforms (a2afft's fftw-mpi engine), 3D and 1D, with and without the
#     preload: the same round-trip error to the last digit, and PASS. FFTW's in-place 3D plan
#     transposes without MPI_Alltoall, so only the 1D plan must show a routed call.
set -u
preload=$1 a2afft=$2
[ "${3:-}" = "--" ] || { echo "usage: $0 PRELOAD_LIBRARY A2AFFT_BINARY -- LAUNCHER..."; exit 2; }
shift 3
mpirun=("$@")
export A2AFFT_ALLTOALL_LOG=1
fail() { echo "FAILED: $*"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for case in "tra:blocks: tra\\(radix=" "node-aware:blocks: node-aware\\(inner="; do
  A2AFFT_RANKS_PER_NODE=2 "$(dirname "$0")/hpcc_check.sh" "$preload" "${case%%:*}" "${case#*:}" 4 \
    -- "${mpirun[@]}" || exit 1
done

for kind in "fft3d --size 16x12x10" "fft1d --n 2^12"; do
  errors=()
  for with in "" "$preload"; do
    # FFTW-MPI measures its transposes (MPI_Alltoall or point-to-point): ESTIMATE and no wisdom
    # make its choice the same in every run; a measured one, or wisdom measured under load, took
    # the point-to-point transpose and left nothing to route.
    out=$(A2AFFT_ALLTOALL=tra LD_PRELOAD=$with "${mpirun[@]}" "$a2afft" $kind --engine fftw-mpi \
          --rigor estimate --wisdom none --iters 1 --csv "$work/fft.csv" 2>&1) ||
      fail "$kind (preload '${with}') exited non-zero"
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
