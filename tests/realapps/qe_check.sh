#!/usr/bin/env bash
# usage: qe_check.sh PRELOAD REPORT_CHECK INPUT -- LAUNCHER...   (mpiexec for 2 or more ranks)
# Quantum ESPRESSO's pw.x (Debian's quantum-espresso, Fortran, Open MPI) under the drop-in: its
# 3D FFT transposes call mpi_alltoall_ and mpi_alltoallv_. Runs the SCF of INPUT twice without
# the preload, then under each pair of backends below, and once more with task groups (-ntg 2),
# whose FFTs use mpi_alltoallv_. Every run's energy lines (each SCF step's accuracy, the total
# energy and its parts) must equal the reference's to the last printed digit, and the report
# must show calls of both kinds routed and none fallen back. Prints each run's wall time.
# shellcheck source=realapps.sh source-path=SCRIPTDIR
source "$(dirname "$0")/realapps.sh"
realapps_args "$@"
command -v pw.x > /dev/null ||
  fail "pw.x is not installed (apt-get install quantum-espresso; ./scripts/run-tests installs it)"
grep -o "pseudo_dir *= *'[^']*'" "$input" | cut -d"'" -f2 | while read -r dir; do
  [ -r "$dir/Si.pz-vbc.UPF" ] ||
    { echo "FAILED: $dir/Si.pz-vbc.UPF is missing (apt-get install quantum-espresso-data)"; exit 1; }
done || exit 1

app_lines() { grep -E "total energy|accuracy|contribution|highest occupied|convergence has" "$1"; }
app_summary() { grep '^!' "$1"; }

app=(pw.x -nk 1 -nd 1 -in "$input")
realapps_reference reference
# Task groups (-ntg 2) move the FFT's data with MPI_ALLTOALLV instead (about 1800 calls), and
# sum in another order: their own reference.
app=(pw.x -nk 1 -nd 1 -ntg 2 -in "$input")
realapps_run reference_ntg2
# NAME@FLAGS@A2AFFT_ALLTOALL@A2AFFT_ALLTOALLV@reference@least MPI_Alltoall routed@least MPI_Alltoallv routed
for case in "mpi:mpi@@mpi@mpi@reference@3000@20" "pairwise:sparse@@pairwise@sparse@reference@3000@20" \
            "tra:neighbor@@tra@neighbor@reference@3000@20" "auto:auto@@auto@auto@reference@3000@20" \
            "ntg2.tra:sparse@-ntg 2@tra@sparse@reference_ntg2@20@1000"; do
  IFS=@ read -r name flags alltoall alltoallv reference least least_v <<< "$case"
  # shellcheck disable=SC2206 # FLAGS are words
  app=(pw.x -nk 1 -nd 1 $flags -in "$input")
  realapps_case "$name" "$alltoall" "$alltoallv" "$reference" --kind "MPI_Alltoall (Fortran)" \
    --min "$least" --kind "MPI_Alltoallv (Fortran)" --min "$least_v"
done
echo "ok: pw.x's energies are identical without the preload and under mpi:mpi, pairwise:sparse," \
  "tra:neighbor, auto:auto and (with task groups) tra:sparse, every call routed"
