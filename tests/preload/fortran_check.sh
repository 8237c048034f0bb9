#!/usr/bin/env bash
# usage: fortran_check.sh MPIFORT SOURCE BINDING PRELOAD REPORT_CHECK [FLAG...] -- LAUNCHER... --
#        REGEX... [-- CHECKS...]
# Builds the Fortran test program SOURCE (alltoall_fortran.F90, ialltoall_fortran.F90) for
# BINDING (1: mpif.h, 2: use mpi, 3: use mpi_f08) with MPIFORT, the build MPI's own wrapper, and
# the compiler FLAGs, then runs it under the preload (check_run.sh): it must exit 0, its output
# must match every REGEX and its report pass report_check's CHECKS. In REGEXes and CHECKS,
# {caught} stands for the binding the drop-in catches the program's calls in: Fortran, except
# under MPICH's mpi_f08, which converts its arguments and calls the C MPI_Alltoall(v) and
# MPI_Ialltoall (Open MPI's mpi_f08 calls ompi_alltoall_f & co., Fortran entry points).
set -u
mpifort=$1 source=$2 binding=$3 preload=$4 report_check=$5
shift 5
flags=(-cpp -DBINDING="$binding" -O1)
while [ $# -gt 0 ] && [ "$1" != "--" ]; do flags+=("$1"); shift; done
[ "${1:-}" = "--" ] ||
  { echo "usage: $0 MPIFORT SOURCE BINDING PRELOAD REPORT_CHECK [FLAG...] -- LAUNCHER... -- REGEX... [-- CHECKS...]"; exit 2; }
shift
command -v "$mpifort" > /dev/null ||
  { echo "FAILED: no Fortran MPI compiler $mpifort (apt-get install gfortran; ./scripts/run-tests installs it)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# mpif.h declares no interfaces: gfortran >= 10 refuses one buffer passed as two types without this.
[ "$binding" = 1 ] && flags+=(-fallow-argument-mismatch)
program="$work/$(basename "${source%.*}")"
"$mpifort" "${flags[@]}" -o "$program" "$source" ||
  { echo "FAILED: $mpifort could not build $source for binding $binding"; exit 1; }
caught=Fortran
[ "$binding" = 3 ] && "$mpifort" -show 2>/dev/null | grep -q mpich && caught=C
launcher=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do launcher+=("$1"); shift; done
shift
expectations=()
for argument in "$@"; do expectations+=("${argument//\{caught\}/$caught}"); done
"$(dirname "$0")/check_run.sh" "$preload" "$report_check" -- "${launcher[@]}" -- "$program" -- \
  "${expectations[@]}"
