#!/usr/bin/env bash
# Issue 30: FFTW-MPI beside a2afft's rows on cases it cannot run (an array with fewer planes
# than ranks along n0 or n1, c2c and r2c, double and float, 3D and 2D): one `# not run:
# fftw-mpi: ...; the a2afft rows run without it` line, every a2afft row PASS, exit 0. Before,
# these runs ended in MPI_Abort (exit 3) with Open MPI's raw help text, or FFTW-MPI corrupted
# its heap while planning (exit 134).
# usage: reference_refusals_skipped.sh LAUNCHER... -- A2AFFT
set -u
launcher=()
while [[ $1 != -- ]]; do launcher+=("$1"); shift; done
a2afft=$2
failures=0
for args in "fft3d --size 1x1x1" "fft3d --size 1x1x1 --output natural" \
            "fft3d --size 2x1x1 --kind r2c --precision float" "fft3d --size 8x1x2 --batch 2" \
            "fft2d --size 1x1" "fft2d --size 1x6 --kind r2c"; do
  # shellcheck disable=SC2086 # the arguments are words
  output=$("${launcher[@]}" "$a2afft" $args --exchange mpi,pairwise --iters 2 --warmup 1 2>&1)
  status=$?
  skipped=$(grep -c "^# not run: fftw-mpi: FFTW-MPI is not run on .*; the a2afft rows run without it$" <<<"$output")
  passed=$(grep -c "^a2afft .* PASS$" <<<"$output")
  if [[ $status -ne 0 || $skipped -ne 1 || $passed -ne 2 ]] || grep -q "^fftw-mpi " <<<"$output"; then
    echo "FAIL: a2afft $args: exit $status, $skipped skip lines, $passed passing a2afft rows:"
    echo "$output"
    failures=$((failures + 1))
  else
    echo "ok: a2afft $args: $(grep '^# not run' <<<"$output")"
  fi
done
[[ $failures -eq 0 ]] && echo "PASS: FFTW-MPI's refusals skipped beside a2afft's rows"
exit $((failures > 0))
