#!/usr/bin/env bash
# Issue 35: the p0 = 1 local transpose (commit 1b0398f) against the build before it (OLD, at
# 774ef44), and FFTW's own serial plan, on one rank; and 1 x 2 pencils on two ranks. c2c double
# forward, --rigor measure, 20 timed runs, three launches interleaved. Run on a quiet machine.
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
NEW=${NEW:-/work/b33/apps/a2afft}
OLD=${OLD:-/work/ci-clone/build/apps/a2afft}
OUT=${OUT:-/work/notes/measure4}
mkdir -p "$OUT"
run() { echo "### $*"; "$@" 2>&1 | grep -vE "^#( layout| host| command| date| MPI)"; }
for launch in 1 2 3; do
  for n in 128 256; do
    for tag in old new; do
      bin=$OLD; [ $tag = new ] && bin=$NEW
      run mpirun -np 1 --bind-to core $bin fft3d --size $n --engine a2afft,fftw --rigor measure \
          --iters 20 --roofline --wisdom "$OUT/wisdom1_$tag" --csv "$OUT/one_${tag}_${n}_$launch.csv"
      run mpirun -np 2 --bind-to core $bin fft3d --size $n --grid 1x2 --engine a2afft \
          --exchange pairwise --rigor measure --iters 20 --roofline \
          --wisdom "$OUT/wisdom2_$tag" --csv "$OUT/pencils1x2_${tag}_${n}_$launch.csv"
    done
  done
done
