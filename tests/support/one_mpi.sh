#!/usr/bin/env bash
# usage: one_mpi.sh BUILD_DIR MPI_LIBRARY...
# Every ELF executable and shared library under BUILD_DIR loads the MPI the build was configured
# with (MPI_LIBRARY...: FindMPI's MPI_C_LIBRARIES) and no other MPI. Debian installs Open MPI and
# MPICH side by side, and some of its libraries (FFTW-MPI) are built for Open MPI only: a binary
# that loads both MPIs fails at run time, or worse, seems to work. An MPI library here is any
# libmpi*, libmpich*, libopen-rte*, libopen-pal* or libpmix* that ldd resolves; those that the
# configured MPI loads itself are allowed.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 BUILD_DIR MPI_LIBRARY..." >&2; exit 2; }
build=$1
shift

# The MPI libraries FILE loads, as real paths, one a line.
mpi_libraries() {
  ldd "$1" 2>/dev/null | sed -n 's/.* => \(\/[^ ]*\) .*/\1/p' | xargs -r realpath |
    grep -E '/lib(mpi|mpich|open-rte|open-pal|pmix)[^/]*\.so' | sort -u || true
}

allowed=$(for library in "$@"; do realpath "$library"; mpi_libraries "$library"; done | sort -u)
# The configured MPI's own C++ bindings (Open MPI's libmpi_cxx beside libmpi, MPICH's
# libmpichcxx beside libmpich): the installed package's C++ consumers link them (MPI::MPI_CXX,
# see cmake/a2afftConfig.cmake.in), and they load nothing but that MPI.
allowed=$(for library in $allowed; do
  echo "$library"
  stem=${library%%.so*}
  major=$(echo "${library#"$stem".so}" | cut -d. -f2)  # the soname's: .so.40.30.4 -> 40
  for bindings in "${stem}_cxx.so.$major" "${stem}cxx.so.$major"; do
    if [ -e "$bindings" ]; then realpath "$bindings"; fi
  done
done | sort -u)
checked=0
status=0
while IFS= read -r -d '' file; do
  [ "$(head -c 4 "$file" | od -An -c | tr -d ' \n')" = '177ELF' ] || continue
  loaded=$(mpi_libraries "$file")
  [ -n "$loaded" ] || continue
  checked=$((checked + 1))
  others=$(comm -23 <(printf '%s\n' "$loaded") <(printf '%s\n' "$allowed"))
  if [ -n "$others" ]; then
    echo "FAIL: ${file#"$build"/} loads another MPI:" $others
    status=1
  fi
done < <(find "$build" -type f \( -perm -u+x -o -name '*.so*' \) -not -path '*/CMakeFiles/*' \
  -print0)
if [ $checked -eq 0 ]; then
  echo "FAIL: no binary under $build loads an MPI library (is the build there?)"
  exit 1
fi
[ $status -eq 0 ] && echo "ok: all $checked binaries that load MPI load only" $(basename -a $allowed)
exit $status
