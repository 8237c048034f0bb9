#!/bin/bash
# ESTIMATE against MEASURE after the step program: q1 of docs/results/defaults-quiet.md.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
B=/work/main/build/apps/a2afft
out=/work/notes/est/q1
mkdir -p $out
uptime > $out/load
for launch in 1 2 3; do
  for np in 1 2; do
    for size in 128 256; do
      for rigor in estimate measure; do
        mpirun -np $np --bind-to core $B fft3d --size $size -x pairwise --engine a2afft \
          --rigor $rigor --iters 10 --wisdom none --csv $out/q1-$size-np$np-$rigor-$launch.csv > /dev/null 2>&1
      done
    done
  done
done
uptime >> $out/load
