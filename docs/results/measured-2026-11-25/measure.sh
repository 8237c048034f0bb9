#!/usr/bin/env bash
# The exact commands of axes-and-boxes.md, as run (paths of that machine: /work/b33 was a Release
# build of feec306, /work/main/build one of 8c4490d, heFFTe built in /work/scratch/heffte).
# Side-by-side measurements for the note (run on a quiet machine). 2 ranks, one per core.
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
A=/work/b33/apps/a2afft
H=/work/scratch/heffte/build/benchmarks/speed3d_c2c
OUT=/work/notes/measure
mkdir -p $OUT
run() { echo "### $*"; "$@" 2>&1 | grep -vE "^#( layout| host| command| date| a2afft)" ; }
for launch in 1 2 3; do
  for n in 128 256; do
    # issue 33: r2r against FFTW-MPI's r2r (reference methodology)
    run mpirun -np 2 --bind-to core $A fft3d --size $n --transforms dct2,dct2,dct2 \
        --exchange auto,pairwise,onmpml --engine a2afft,fftw-mpi --rigor measure --iters 20 \
        --csv $OUT/r2r_${n}_$launch.csv
    # issue 34: bricks (slabs of the slowest axis) in and out, heFFTe and a2afft interleaved
    run mpirun -np 2 --bind-to core $H fftw double $n $n $n -ingrid 1 1 2 -outgrid 1 1 2 -nruns20
    run mpirun -np 2 --bind-to core $A fft3d --size $n --in-grid 2x1x1 --out-grid 2x1x1 \
        --exchange auto,pairwise --engine a2afft --rigor measure --iters 20 --backward \
        --csv $OUT/bricks_${n}_$launch.csv
    run mpirun -np 2 --bind-to core $A fft3d --size $n --exchange auto,pairwise --engine a2afft \
        --rigor measure --iters 20 --backward --csv $OUT/pencils_${n}_$launch.csv
  done
done
# The engine's rewrite for per-axis kinds must not slow the c2c: the previous session's binary
# (built at 8c4490d) against this one, interleaved launches.
OLD=/work/main/build/apps/a2afft
for launch in 1 2 3; do
  for bin in $OLD $A; do
    run mpirun -np 2 --bind-to core $bin fft3d --size 128 --exchange pairwise,onmpml --engine a2afft \
        --rigor measure --iters 20 --csv $OUT/ab_$(basename $(dirname $(dirname $bin)))_$launch.csv
  done
done
