#!/usr/bin/env bash
# Issue 30: configure ends with a summary of what the build makes and what it leaves out, and
# why. Configures the source tree afresh (without tests, with this build's compilers and MPI)
# behind a python3 that cannot see NumPy or mpi4py (-S: no site-packages), as a pyenv or venv
# interpreter first on PATH would be, and checks that the summary is the last thing configure
# prints and says the Python package is left out, naming that interpreter and NumPy.
# usage: configure_summary.sh SOURCE_DIR CMAKE [cmake -D options of this build...]
set -u
source_dir=$1 cmake=$2
shift 2
work=$(mktemp -d "${TMPDIR:-/tmp}/a2afft-configure-summary.XXXXXX")
trap 'rm -rf "$work"' EXIT
printf '#!/bin/sh\nexec /usr/bin/python3 -S "$@"\n' > "$work/python3"
chmod +x "$work/python3"
output=$("$cmake" -S "$source_dir" -B "$work/build" -DA2AFFT_BUILD_TESTS=OFF \
  -DPython3_EXECUTABLE="$work/python3" "$@" 2>&1) || { echo "$output"; echo "FAIL: configure failed"; exit 1; }
# The summary, and after it only CMake's own closing lines.
summary=$(sed -n '/^-- a2afft [0-9.]* summary /,$p' <<<"$output" |
  grep -v -e '^-- Configuring done' -e '^-- Generating done' -e '^-- Build files have been written')
echo "$summary"
fail() {
  echo "FAIL: $*"
  exit 1
}
[[ -n $summary ]] || fail "no summary at the end of configure"
[[ $(wc -l <<<"$summary") -eq 6 ]] || fail "the summary is not the last thing configure prints"
grep -q "^--   Python package:     left out: $work/python3 cannot import numpy" <<<"$summary" ||
  fail "the summary does not say the Python package is left out for $work/python3"
grep -Eq "^--   FFTW-MPI reference: (the fftw-mpi engine|left out: .+)$" <<<"$summary" ||
  fail "no FFTW-MPI line"
grep -Eq "^--   Fortran module:     (installed; the install test compiles it with .+|installed as source, but no Fortran compiler .+)$" <<<"$summary" ||
  fail "no Fortran line"
grep -Eq "^--   sanitizers:         (off|ASan and UBSan)" <<<"$summary" || fail "no sanitizers line"
echo "PASS: configure ends with its summary, and says why the Python package is left out"
