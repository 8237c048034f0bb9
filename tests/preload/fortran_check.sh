#!/usr/bin/env bash
# usage: fortran_check.sh MPIFORT SOURCE BINDING PRELOAD REPORT_CHECK -- LAUNCHER...
# Builds the Fortran test program SOURCE (alltoall_fortran.F90) for BINDING (1: mpif.h, 2: use
# mpi, 3: use mpi_f08) with MPIFORT, the build MPI's own wrapper, then runs it under the
# preload (check_run.sh): every check must match, MPI_ALLTOALL and MPI_ALLTOALLV must be routed
# (their log lines), and MPI_IN_PLACE and MPI_BOTTOM must be recognised as Fortran's constants:
# MPI_IN_PLACE falls back, the report's only fallback; MPI_ALLTOALL from MPI_BOTTOM (a type at
# an absolute address) routes through the staging copy, so its values prove the recognition.
# MPICH's mpi_f08 converts its MPI_IN_PLACE itself and calls the C MPI_Alltoall(v), so there the calls count as C's (Open
# MPI's mpi_f08 calls ompi_alltoall_f, a Fortran entry point).
set -u
mpifort=$1 source=$2 binding=$3 preload=$4 report_check=$5
[ "${6:-}" = "--" ] || { echo "usage: $0 MPIFORT SOURCE BINDING PRELOAD REPORT_CHECK -- LAUNCHER..."; exit 2; }
shift 6
command -v "$mpifort" > /dev/null ||
  { echo "FAILED: no Fortran MPI compiler $mpifort (apt-get install gfortran; ./scripts/run-tests installs it)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=(-cpp -DBINDING="$binding" -O1)
# mpif.h declares no interfaces: gfortran >= 10 refuses one buffer passed as two types without this.
[ "$binding" = 1 ] && flags+=(-fallow-argument-mismatch)
"$mpifort" "${flags[@]}" -o "$work/alltoall_fortran" "$source" ||
  { echo "FAILED: $mpifort could not build $source for binding $binding"; exit 1; }
caught_as=Fortran
[ "$binding" = 3 ] && "$mpifort" -show 2>/dev/null | grep -q mpich && caught_as=C
"$(dirname "$0")/check_run.sh" "$preload" "$report_check" -- "$@" -- "$work/alltoall_fortran" -- \
  "24 of 24 checks matched" "MPI_Alltoall on .* B blocks: " "MPI_Alltoallv on .*, pattern [0-9]+: " \
  "MPI_Alltoall \($caught_as\): fallback to PMPI_Alltoall: MPI_IN_PLACE" \
  "MPI_Alltoallv \($caught_as\): fallback to PMPI_Alltoallv: MPI_IN_PLACE" -- \
  --kind "MPI_Alltoall ($caught_as)" --min 12 --fallback "^MPI_IN_PLACE$" \
  --kind "MPI_Alltoallv ($caught_as)" --min 4 --fallback "^MPI_IN_PLACE$"
