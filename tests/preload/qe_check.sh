#!/usr/bin/env bash
# usage: qe_check.sh PRELOAD REPORT_CHECK INPUT -- LAUNCHER...   (mpiexec for 2 ranks)
# Quantum ESPRESSO's pw.x (Debian's quantum-espresso, Fortran, Open MPI) under the drop-in: its
# 3D FFT transposes call mpi_alltoall_ and mpi_alltoallv_. Runs the SCF of INPUT twice without
# the preload (the run must be deterministic, or nothing can be compared), then under each pair
# of backends below. Every run's energy lines (each SCF step's accuracy, the total energy and
# its parts) must equal the reference's to the last printed digit, and the report must show
# calls of both kinds routed and none fallen back. Prints each run's wall time.
set -u
preload=$1 report_check=$2 input=$3
[ "${4:-}" = "--" ] || { echo "usage: $0 PRELOAD REPORT_CHECK INPUT -- LAUNCHER..."; exit 2; }
shift 4
launcher=("$@")
fail() { echo "FAILED: $*"; exit 1; }
command -v pw.x > /dev/null ||
  fail "pw.x is not installed (apt-get install quantum-espresso; ./scripts/run-tests installs it)"
grep -o "pseudo_dir *= *'[^']*'" "$input" | cut -d"'" -f2 | while read -r dir; do
  [ -r "$dir/Si.pz-vbc.UPF" ] ||
    { echo "FAILED: $dir/Si.pz-vbc.UPF is missing (apt-get install quantum-espresso-data)"; exit 1; }
done || exit 1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1  # one thread per rank: reproducible sums, and 2 ranks on 2 cores

# The lines that carry the energies; `run NAME [VAR=value...]` leaves them in $work/NAME.energy.
energies() { grep -E "total energy|accuracy|contribution|highest occupied|convergence has" "$1"; }
run() {
  local name=$1
  shift
  local start=$SECONDS
  (cd "$work" && rm -rf out && "${launcher[@]}" env "$@" pw.x -nk 1 -nd 1 -in "$input" \
    > "$work/$name.out" 2> "$work/$name.err") ||
    { cat "$work/$name.out" "$work/$name.err"; fail "pw.x ($name) exited non-zero"; }
  energies "$work/$name.out" > "$work/$name.energy"
  grep -q '^!' "$work/$name.energy" || fail "pw.x ($name) printed no total energy"
  echo "$name: $(grep '^!' "$work/$name.energy" | tr -s ' ') ($((SECONDS - start)) s)"
}

run reference
run reference_again
cmp -s "$work/reference.energy" "$work/reference_again.energy" ||
  fail "pw.x is not deterministic here without the preload: $(diff "$work/reference.energy" "$work/reference_again.energy")"
for pair in mpi:mpi pairwise:sparse tra:neighbor auto:auto; do
  alltoall=${pair%%:*} alltoallv=${pair#*:}
  run "$pair" LD_PRELOAD="$preload" A2AFFT_ALLTOALL="$alltoall" A2AFFT_ALLTOALLV="$alltoallv" \
    A2AFFT_REPORT="$work/$pair.json"
  grep "^a2afft:" "$work/$pair.err"
  diff "$work/reference.energy" "$work/$pair.energy" ||
    fail "A2AFFT_ALLTOALL=$alltoall A2AFFT_ALLTOALLV=$alltoallv: the energies differ from the run without the preload"
  "$report_check" "$work/$pair.json" --kind "MPI_Alltoall (Fortran)" --min 100 \
    --kind "MPI_Alltoallv (Fortran)" --min 10 > "$work/$pair.check" ||
    { cat "$work/$pair.check"; fail "$pair: the report does not show every call routed"; }
  grep "^ok:" "$work/$pair.check"
done
echo "ok: pw.x's energies are identical without the preload and under mpi:mpi, pairwise:sparse," \
  "tra:neighbor and auto:auto, every call routed"
