#!/usr/bin/env bash
# Issue 43: a2afft's local FFTs under --rigor estimate against measure, the build before the
# change (BEFORE) and after it (AFTER), case by case and binary by binary in the same launches,
# so that load hits both alike. No wisdom file: ESTIMATE would use wisdom, and MEASURE plans
# afresh in every launch. Output: one CSV per run in OUT, their console output in OUT/log.txt.
#   BEFORE=/path/to/old/a2afft AFTER=build/apps/a2afft OUT=estimate ./measure-estimate.sh
set -euo pipefail
: "${BEFORE:?the a2afft binary before the change}" "${AFTER:?the a2afft binary after it}"
OUT=${OUT:-estimate}
LAUNCHES=${LAUNCHES:-3}
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# FFTW's engines (fftw-mpi, fftw) are the same code in both builds: they run in the "before"
# launch of each case only, and "after" runs a2afft alone.
run() {  # tag ranks engines command args...
  local tag=$1 ranks=$2 engines=$3
  shift 3
  for which in before after; do
    local binary=$BEFORE
    [ "$which" = after ] && binary=$AFTER && engines=a2afft
    echo "## $tag $which: $* --engine $engines" >> "$OUT/log.txt"
    mpirun -np "$ranks" --bind-to core "$binary" "$@" --engine "$engines" \
      --csv "$OUT/$tag,$which.csv" >> "$OUT/log.txt" 2>&1
  done
}

# Each case runs estimate and measure back to back, before and after each, so that all four
# of a case see the same load.
for launch in $(seq 1 "$LAUNCHES"); do
  uptime >> "$OUT/log.txt"
  for size in 128 256; do
    for ranks in 1 2; do
      engines=a2afft,fftw-mpi
      [ "$ranks" = 1 ] && engines=a2afft,fftw-mpi,fftw
      for rigor in estimate measure; do
        run "fft3d,$size,$ranks,c2c,$rigor,$launch" "$ranks" "$engines" fft3d --size "$size" \
          --rigor "$rigor" --exchange pairwise --iters 10
      done
    done
  done
  for kind in r2c float; do
    flags=(--kind r2c)
    [ "$kind" = float ] && flags=(--precision float)
    for ranks in 1 2; do
      for rigor in estimate measure; do
        run "fft3d,256,$ranks,$kind,$rigor,$launch" "$ranks" a2afft fft3d --size 256 \
          "${flags[@]}" --rigor "$rigor" --exchange pairwise --iters 10
      done
    done
  done
  for n in 20 22; do
    for rigor in estimate measure; do
      run "fft1d,2^$n,2,c2c,$rigor,$launch" 2 a2afft,fftw-mpi fft1d --n "2^$n" \
        --rigor "$rigor" --exchange pairwise --iters 10
    done
  done
done
uptime >> "$OUT/log.txt"
