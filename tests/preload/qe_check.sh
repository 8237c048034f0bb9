#!/usr/bin/env bash
# usage: qe_check.sh PRELOAD REPORT_CHECK INPUT -- LAUNCHER...   (mpiexec for 2 ranks)
# Quantum ESPRESSO's pw.x (Debian's quantum-espresso, Fortran, Open MPI) under the drop-in: its
# 3D FFT transposes call mpi_alltoall_ and mpi_alltoallv_. Runs the SCF of INPUT twice without
# the preload (the run must be deterministic, or nothing can be compared), then under each pair
# of backends below, and once more with task groups (-ntg 2), whose FFTs use mpi_alltoallv_. Every run's energy lines (each SCF step's accuracy, the total energy and
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

# The lines that carry the energies; `run NAME FLAGS [VAR=value...]` runs pw.x with its FLAGS
# (a word list) and leaves them in $work/NAME.energy.
energies() { grep -E "total energy|accuracy|contribution|highest occupied|convergence has" "$1"; }
run() {
  local name=$1 flags=$2
  shift 2
  local start=$SECONDS
  # shellcheck disable=SC2086 # FLAGS are words
  (cd "$work" && rm -rf out && "${launcher[@]}" env "$@" pw.x -nk 1 -nd 1 $flags -in "$input" \
    > "$work/$name.out" 2> "$work/$name.err") ||
    { cat "$work/$name.out" "$work/$name.err"; fail "pw.x ($name) exited non-zero"; }
  energies "$work/$name.out" > "$work/$name.energy"
  grep -q '^!' "$work/$name.energy" || fail "pw.x ($name) printed no total energy"
  echo "$name: $(grep '^!' "$work/$name.energy" | tr -s ' ') ($((SECONDS - start)) s)"
}

run reference ""
run reference_again ""
cmp -s "$work/reference.energy" "$work/reference_again.energy" ||
  fail "pw.x is not deterministic here without the preload: $(diff "$work/reference.energy" "$work/reference_again.energy")"
# Task groups (-ntg 2) move the FFT's data with MPI_ALLTOALLV instead (about 1800 calls), and
# sum in another order: their own reference.
run reference_ntg2 "-ntg 2"
# NAME@FLAGS@A2AFFT_ALLTOALL@A2AFFT_ALLTOALLV@reference@least MPI_Alltoall routed@least MPI_Alltoallv routed
for case in "mpi:mpi@@mpi@mpi@reference@3000@20" "pairwise:sparse@@pairwise@sparse@reference@3000@20" \
            "tra:neighbor@@tra@neighbor@reference@3000@20" "auto:auto@@auto@auto@reference@3000@20" \
            "ntg2.tra:sparse@-ntg 2@tra@sparse@reference_ntg2@20@1000"; do
  IFS=@ read -r name flags alltoall alltoallv reference least least_v <<< "$case"
  run "$name" "$flags" LD_PRELOAD="$preload" A2AFFT_ALLTOALL="$alltoall" \
    A2AFFT_ALLTOALLV="$alltoallv" A2AFFT_REPORT="$work/$name.json"
  grep "^a2afft:" "$work/$name.err"
  diff "$work/$reference.energy" "$work/$name.energy" ||
    fail "$name: the energies differ from the run without the preload ($reference)"
  "$report_check" "$work/$name.json" --kind "MPI_Alltoall (Fortran)" --min "$least" \
    --kind "MPI_Alltoallv (Fortran)" --min "$least_v" > "$work/$name.check" ||
    { cat "$work/$name.check"; fail "$name: the report does not show every call routed"; }
  grep "^ok:" "$work/$name.check"
done
echo "ok: pw.x's energies are identical without the preload and under mpi:mpi, pairwise:sparse," \
  "tra:neighbor, auto:auto and (with task groups) tra:sparse, every call routed"
