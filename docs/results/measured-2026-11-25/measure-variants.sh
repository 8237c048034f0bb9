#!/usr/bin/env bash
# Issue 35's measured / bound for the variants (r2c, float, a batch of 3) and the 1D rows, with
# the reference set: 2 ranks one per core, a2afft auto,pairwise,onmpml next to FFTW-MPI,
# --rigor measure, 20 timed runs, three launches interleaved. Run on a quiet machine.
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
A=${A:-/work/b33/apps/a2afft}
OUT=${OUT:-/work/notes/measure3}
mkdir -p "$OUT"
run() { echo "### $*"; "$@" 2>&1 | grep -vE "^#( layout| host| command| date| MPI)"; }
common=(--engine a2afft,fftw-mpi --exchange auto,pairwise,onmpml --rigor measure --iters 20 --roofline)
for launch in 1 2 3; do
  for n in 128 256; do
    for variant in "--kind r2c" "--precision float" "--batch 3"; do
      tag=$(echo "$variant" | tr -d ' -')
      run mpirun -np 2 --bind-to core $A fft3d --size $n $variant "${common[@]}" \
          --wisdom "$OUT/wisdom3d" --csv "$OUT/fft3d_${tag}_${n}_$launch.csv"
    done
  done
  for n in 2^20 2^22; do
    run mpirun -np 2 --bind-to core $A fft1d --n $n "${common[@]}" \
        --wisdom "$OUT/wisdom1d" --csv "$OUT/fft1d_${n/^/}_$launch.csv"
  done
done
