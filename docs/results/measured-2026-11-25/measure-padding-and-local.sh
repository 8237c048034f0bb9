#!/usr/bin/env bash
# The exact commands of padding-and-local-ffts.md, as run (paths of that machine: /work/b33 a
# Release build of this tree's commit, /work/main/build one of 8c4490d). Run on a quiet machine:
# 2 ranks, one per core; three launches, interleaved.
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export PYTHONPATH=/work/b33/python
A=/work/b33/apps/a2afft
OLD=/work/main/build/apps/a2afft
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/work/notes/measure2}
mkdir -p "$OUT"
run() { echo "### $*"; "$@" 2>&1 | grep -vE "^#( layout| host| command| date| MPI)"; }
for launch in 1 2 3; do
  # Issue 33: padded r2c (3/2 rule), forward + backward, against mpi4py-fft's padded PFFT.
  for n in 64 128; do
    run mpirun -np 2 --bind-to core /usr/bin/python3 "$HERE/padded_vs_mpi4py_fft.py" $n 20 \
        "$OUT/padded_${n}_$launch.csv"
  done
  # Issue 35: one rank, a2afft against FFTW's own serial plan and FFTW-MPI, huge-page and plain
  # arrays for every engine; and the reference set on two ranks, with the roofline.
  for arrays in huge-pages plain; do
    for n in 128 256; do
      run mpirun -np 1 --bind-to core $A fft3d --size $n --engine a2afft,fftw,fftw-mpi \
          --exchange auto --rigor measure --iters 20 --arrays $arrays --roofline \
          --wisdom "$OUT/wisdom1" --csv "$OUT/one_rank_${arrays}_${n}_$launch.csv"
      run mpirun -np 2 --bind-to core $A fft3d --size $n --engine a2afft,fftw-mpi \
          --exchange auto,pairwise,onmpml --rigor measure --iters 20 --arrays $arrays --roofline \
          --wisdom "$OUT/wisdom2" --csv "$OUT/two_ranks_${arrays}_${n}_$launch.csv"
    done
  done
  # The padding's engine changes must not slow the unpadded c2c: the previous binary (8c4490d,
  # std::vector arrays) against this one with plain arrays.
  for bin in $OLD $A; do
    extra=""
    [ "$bin" = "$A" ] && extra="--arrays plain"
    run mpirun -np 2 --bind-to core $bin fft3d --size 128 --exchange pairwise,onmpml \
        --engine a2afft --rigor measure --iters 20 $extra \
        --csv "$OUT/ab_$(basename "$(dirname "$(dirname "$bin")")")_$launch.csv"
  done
done
# Bytes exchanged (counted by the plans, not timed): padded against the padded grid's own
# transform, slabs on 2 ranks and 2x2 pencils on 4 (oversubscribed: counts only).
for np in 2 4; do
  for kind in c2c r2c; do
    for n in 64 128; do
      run mpirun -np $np --oversubscribe $A fft3d --size $n --padding 1.5 --kind $kind \
          --exchange pairwise --engine a2afft --rigor estimate --iters 1 --warmup 0 \
          --csv "$OUT/exchanged_${np}_${kind}_$n.csv"
    done
  done
done
