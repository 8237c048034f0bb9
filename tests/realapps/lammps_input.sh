#!/usr/bin/env bash
# usage: lammps_input.sh EXAMPLE_DIR OUTPUT
# Writes OUTPUT: LAMMPS's peptide example (Debian's lammps-examples: 2004 atoms, CHARMM force
# field, PPPM long-range electrostatics) as shipped but for `kspace_modify collective yes`, with
# which the PPPM's 3D FFT remaps move their data with MPI_Alltoallv (LAMMPS's remap.cpp), 20
# steps instead of 300, thermo output every 5 steps with 15 digits, and its data file read from
# EXAMPLE_DIR. Each edit must apply exactly once, or the example has changed: then it fails.
set -u
example=${1:-} output=${2:-}
[ -n "$output" ] || { echo "usage: $0 EXAMPLE_DIR OUTPUT"; exit 2; }
if [ ! -r "$example/in.peptide" ] || [ ! -r "$example/data.peptide" ]; then
  echo "FAILED: $example/in.peptide or data.peptide is missing (apt-get install lammps-examples)"
  exit 1
fi
example=$(realpath "$example")
cp "$example/in.peptide" "$output" || exit 1
edit() {
  local pattern=$1 replacement=$2
  if [ "$(grep -cE "$pattern" "$output")" != 1 ]; then
    echo "FAILED: $example/in.peptide has not exactly one line matching '$pattern'; the example changed"
    exit 1
  fi
  sed -Ei "s|$pattern|$replacement|" "$output"
}
edit '^(kspace_style[[:space:]].*)$' '\1\nkspace_modify collective yes'
edit '^(thermo_style[[:space:]].*)$' '\1\nthermo_modify format float %.15g'
edit '^thermo[[:space:]]+[0-9]+$' 'thermo 5'
edit '^run[[:space:]]+[0-9]+$' 'run 20'
edit '^read_data[[:space:]]+data.peptide$' "read_data $example/data.peptide"
