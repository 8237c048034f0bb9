#!/usr/bin/env bash
# Issue 35: the six-step with the middle transpose fused into its second sweep (commit 388542c,
# NEW) against the build before it (OLD, 3dc1303), with the reference set: 2 ranks one per
# core, a2afft auto,pairwise,onmpml next to FFTW-MPI, --rigor measure, 20 timed runs, three
# launches, old and new interleaved in each. Each binary keeps its own wisdom file. Double at
# 2^20 and 2^22, float and a batch of 3 at 2^20. Run on a quiet machine.
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
NEW=${NEW:-/work/b33/apps/a2afft}
OLD=${OLD:-/work/ci-clone/build/apps/a2afft}
OUT=${OUT:-/work/notes/measure5}
mkdir -p "$OUT"
run() { echo "### $*"; "$@" 2>&1 | grep -vE "^#( layout| host| command| date| MPI)"; }
common=(--engine a2afft,fftw-mpi --exchange auto,pairwise,onmpml --rigor measure --iters 20 --roofline)
for launch in 1 2 3; do
  for variant in "2^20" "2^22" "2^20 --precision float" "2^20 --batch 3"; do
    tag=$(echo "$variant" | tr -d ' ^-')
    for which in old new; do
      bin=$OLD; [ $which = new ] && bin=$NEW
      # shellcheck disable=SC2086
      run mpirun -np 2 --bind-to core $bin fft1d --n $variant "${common[@]}" \
          --wisdom "$OUT/wisdom_$which" --csv "$OUT/fft1d_${which}_${tag}_$launch.csv"
    done
  done
done
