#!/usr/bin/env bash
# usage: lammps_check.sh PRELOAD REPORT_CHECK EXAMPLE_DIR -- LAUNCHER...   (mpiexec, 2+ ranks)
# LAMMPS (Debian's lammps, C++, Open MPI) under the drop-in, on its own peptide example
# (Debian's lammps-examples: 2004 atoms, CHARMM force field, PPPM long-range electrostatics).
# With `kspace_modify collective yes` the PPPM's 3D FFT remaps move their data with
# MPI_Alltoallv (LAMMPS's remap.cpp), on MPI_COMM_WORLD and on sub-communicators it splits; its
# irregular communication adds an MPI_Alltoall of counts. The example runs as shipped but for
# that line, 20 steps instead of 300, thermo output every 5 steps with 15 digits, and its data
# file read from EXAMPLE_DIR. Run twice without the preload, then under each pair of backends
# below: every thermo line (each energy term, temperature, pressure) must equal the reference's
# to the last digit, and the report must show the calls of both kinds routed, none fallen back.
# shellcheck source=realapps.sh source-path=SCRIPTDIR
source "$(dirname "$0")/realapps.sh"
realapps_args "$@"
command -v lmp > /dev/null ||
  fail "lmp is not installed (apt-get install lammps; ./scripts/run-tests installs it)"
if [ ! -r "$input/in.peptide" ] || [ ! -r "$input/data.peptide" ]; then
  fail "$input/in.peptide or data.peptide is missing (apt-get install lammps-examples)"
fi

# The example, edited: each edit must apply exactly once, or the example has changed.
edit() {
  local pattern=$1 replacement=$2
  [ "$(grep -cE "$pattern" "$work/in.peptide")" = 1 ] ||
    fail "$input/in.peptide has not exactly one line matching '$pattern'; the example changed"
  sed -Ei "s|$pattern|$replacement|" "$work/in.peptide"
}
cp "$input/in.peptide" "$work/in.peptide"
edit '^(kspace_style[[:space:]].*)$' '\1\nkspace_modify collective yes'
edit '^(thermo_style[[:space:]].*)$' '\1\nthermo_modify format float %.15g'
edit '^thermo[[:space:]]+[0-9]+$' 'thermo 5'
edit '^run[[:space:]]+[0-9]+$' 'run 20'
edit '^read_data[[:space:]]+data.peptide$' "read_data $input/data.peptide"

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
