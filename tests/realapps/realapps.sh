# shellcheck shell=bash
# Sourced by the realapps checks (qe_check.sh, lammps_check.sh), which run an application that
# nobody here wrote, unchanged, under the drop-in. The parts they share:
#   realapps_args "$@"      PRELOAD REPORT_CHECK INPUT -- LAUNCHER...: sets preload, report_check,
#                           input and launcher (an array), and a work directory removed at exit
#   realapps_run NAME [VAR=value...]
#                           runs the command in the array `app` (set by the caller) under the
#                           launcher, in a directory of its own, with that environment
#   realapps_reference NAME the same twice without the preload: the lines compared must be equal
#                           (the run must be deterministic, or nothing can be compared)
#   realapps_case NAME ALLTOALL ALLTOALLV REFERENCE CHECKS...
#                           runs under the drop-in with those specs; its lines must equal
#                           REFERENCE's and `report_check <report> CHECKS...` must pass
# The caller defines app_lines FILE (the lines of the output to compare: energies) and
# app_summary FILE (one line worth printing).
set -u
fail() { echo "FAILED: $*"; exit 1; }
export OMP_NUM_THREADS=1  # one thread per rank: reproducible sums, and 2 ranks on 2 cores

realapps_args() {
  preload=${1:-} report_check=${2:-} input=${3:-}
  if [ "${4:-}" != "--" ] || [ $# -lt 5 ]; then
    echo "usage: $0 PRELOAD REPORT_CHECK INPUT -- LAUNCHER..."
    exit 2
  fi
  shift 4
  launcher=("$@")
  # The application runs in a directory of its own: paths given relative to here must still hold.
  preload=$(realpath "$preload") report_check=$(realpath "$report_check") input=$(realpath "$input")
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
}

realapps_run() {
  local name=$1 start=$SECONDS
  shift
  mkdir -p "$work/$name"
  # shellcheck disable=SC2154 # app is the caller's
  (cd "$work/$name" && "${launcher[@]}" env "$@" "${app[@]}" > "$work/$name.out" 2> "$work/$name.err") ||
    { cat "$work/$name.out" "$work/$name.err"; fail "${app[0]} ($name) exited non-zero"; }
  app_lines "$work/$name.out" > "$work/$name.lines"
  [ -s "$work/$name.lines" ] || { cat "$work/$name.out"; fail "${app[0]} ($name) printed no result"; }
  echo "$name: $(app_summary "$work/$name.out" | tr -s ' ') ($((SECONDS - start)) s)"
}

realapps_reference() {
  realapps_run "$1"
  realapps_run "$1.again"
  diff "$work/$1.lines" "$work/$1.again.lines" ||
    fail "${app[0]} is not deterministic here without the preload ($1)"
}

realapps_case() {
  local name=$1 alltoall=$2 alltoallv=$3 reference=$4
  shift 4
  realapps_run "$name" LD_PRELOAD="$preload" A2AFFT_ALLTOALL="$alltoall" \
    A2AFFT_ALLTOALLV="$alltoallv" A2AFFT_REPORT="$work/$name.json"
  grep "^a2afft:" "$work/$name.err"
  diff "$work/$reference.lines" "$work/$name.lines" ||
    fail "$name: the results differ from the run without the preload ($reference)"
  "$report_check" "$work/$name.json" "$@" > "$work/$name.check" ||
    { cat "$work/$name.check"; fail "$name: the report does not show every call routed"; }
  grep "^ok:" "$work/$name.check"
}
