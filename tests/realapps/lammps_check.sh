#!/usr/bin/env bash
# usage: lammps_check.sh PRELOAD REPORT_CHECK EXAMPLE_DIR -- LAUNCHER...   (mpiexec, 2+ ranks)
# LAMMPS (Debian's lammps, C++, Open MPI) under the drop-in, on its own peptide example from
# EXAMPLE_DIR, edited by lammps_input.sh: with `kspace_modify collective yes` the PPPM's 3D FFT
# remaps move their data with MPI_Alltoallv, on MPI_COMM_WORLD and on sub-communicators LAMMPS
# splits; its irregular communication adds an MPI_Alltoall of counts. Run twice without the
# preload, then under each pair of backends below: every thermo line (each energy term,
# temperature, pressure) must equal the reference's to the last digit, and the report must show
# the calls of both kinds routed, none fallen back.
# shellcheck source=realapps.sh source-path=SCRIPTDIR
source "$(dirname "$0")/realapps.sh"
realapps_args "$@"
command -v lmp > /dev/null ||
  fail "lmp is not installed (apt-get install lammps; ./scripts/run-tests installs it)"
"$(dirname "$0")/lammps_input.sh" "$input" "$work/in.peptide" || exit 1

# thermo_style multi: a "---- Step N ----- CPU = ..." line (the CPU time differs), then the values.
app_lines() { grep -E "^(TotEng|PotEng|E_dihed|E_coul) " "$1"; }
app_summary() { grep "^TotEng" "$1" | tail -n 1 | tr -s ' ' | cut -d' ' -f1-3; }
app=(lmp -in "$work/in.peptide" -log none -echo none)

realapps_reference reference
for case in mpi:mpi pairwise:sparse tra:neighbor auto:auto; do
  realapps_case "$case" "${case%%:*}" "${case#*:}" reference \
    --kind "MPI_Alltoallv (C)" --min 250 --kind "MPI_Alltoall (C)" --min 10
done
echo "ok: LAMMPS's thermo output is identical without the preload and under mpi:mpi," \
  "pairwise:sparse, tra:neighbor and auto:auto, every MPI_Alltoallv and MPI_Alltoall routed"
