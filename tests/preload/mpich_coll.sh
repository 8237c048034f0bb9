#!/usr/bin/env bash
# usage: mpich_coll.sh PRELOAD REPORT_CHECK PROGRAM_DIR PROGRAMS -- LAUNCHER...
# Runs each of MPICH's own collective tests named in PROGRAMS (comma-separated, built in
# PROGRAM_DIR by tests/mpich_coll.cmake) under the drop-in with the A2AFFT_ALLTOALL(V) of the
# environment (check_run.sh): each must exit 0 and print MTest's " No Errors", and its report must
# show calls routed, falling back only for the reasons MPI's rules leave to the library:
# MPI_IN_PLACE, and for MPI_Ialltoall a backend without a split phase.
set -u
preload=$1 report_check=$2 dir=$3 programs=$4
[ "${5:-}" = "--" ] || { echo "usage: $0 PRELOAD REPORT_CHECK PROGRAM_DIR PROGRAMS -- LAUNCHER..."; exit 2; }
shift 5
check_run="$(dirname "$0")/check_run.sh"
allowed=(--fallback "^MPI_IN_PLACE$" --fallback "has no split phase")
# Backends with a split phase must route the nonblocking and persistent calls too.
case ${A2AFFT_ALLTOALL:-} in
  nonblocking* | mpi) split_min=1 ;;
  *) split_min=0 ;;
esac
failed=0
IFS=, read -r -a names <<<"$programs"
for name in "${names[@]}"; do
  [ -x "$dir/$name" ] || { echo "FAILED: $dir/$name was not built"; exit 1; }
  # What each program calls, and so which kinds must show routed calls.
  case $name in
    alltoall1) kinds=(--kind "MPI_Alltoall (C)" --min 1 "${allowed[@]}") ;;
    alltoall1_nb | nonblocking) kinds=(--kind "MPI_Ialltoall (C)" --min "$split_min" "${allowed[@]}") ;;
    alltoallv | alltoallv0) kinds=(--kind "MPI_Alltoallv (C)" --min 1 "${allowed[@]}") ;;
    p_alltoall) kinds=(--kind "MPI_Alltoall_init (C)" --min "$split_min" "${allowed[@]}") ;;
    p_alltoallv) kinds=(--kind "MPI_Alltoallv_init (C)" --min 1 "${allowed[@]}") ;;
    *) echo "FAILED: no expectations for $name"; exit 1 ;;
  esac
  echo "== $name"
  "$check_run" "$preload" "$report_check" -- "$@" -- "$dir/$name" -- "^ No Errors$" -- \
    "${kinds[@]}" || failed=1
done
exit $failed
