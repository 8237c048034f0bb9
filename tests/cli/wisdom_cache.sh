#!/usr/bin/env bash
# usage: wisdom_cache.sh COMMAND...
# COMMAND is an `a2afft fft3d ...` command line (under mpiexec) without --rigor or --wisdom. What
# a user gets without options (issue 43): FFTW's measured plans, and wisdom kept in the machine's
# cache so that only the first run pays the measuring. Checks, in a fresh A2AFFT_WISDOM_DIR:
# - the first run plans with measure, makes the cache file and says so;
# - the second loads it and says so;
# - float keeps its own file beside it (.fftwf); --wisdom none neither reads nor writes;
# - a cache that cannot be made is reported and the run still passes.
set -u
cache=$(mktemp -d)
trap 'chmod -R u+w "$cache"; rm -rf "$cache"' EXIT
export A2AFFT_WISDOM_DIR=$cache/wisdom
fail() { echo "FAILED: $*"; exit 1; }
# run NAME ARGS...: the command with ARGS added; its settings line (the console's 4th) in $settings.
run() {
  local name=$1
  shift
  "${command[@]}" "$@" >"$cache/$name.out" 2>&1 || { cat "$cache/$name.out"; fail "$name: exit $?"; }
  cat "$cache/$name.out"
  settings=$(grep -m1 '^# size ' "$cache/$name.out")
}
command=("$@")

run first
file=$(ls "$A2AFFT_WISDOM_DIR"/*.wisdom 2>/dev/null)
[ -n "$file" ] || fail "the first run left no wisdom in $A2AFFT_WISDOM_DIR"
[[ $settings == *", measure, "* ]] || fail "the default rigor is not measure: $settings"
[[ $settings == *"wisdom made by this run's planning, kept in $file;"* ]] ||
  fail "the first run does not say it made $file: $settings"
# WISDOM_SOLVERS: "-mpi" in a build with FFTW-MPI, whose solvers a build without it cannot read.
[[ $(basename "$file") == "$(uname -n)-fftw-3."*"${WISDOM_SOLVERS:-}.wisdom" ]] ||
  fail "the cache file $file is not named for the host, FFTW's version and solvers (${WISDOM_SOLVERS:-none})"
[ -n "${WISDOM_SOLVERS:-}" ] || [[ $file != *"-mpi.wisdom" ]] ||
  fail "the cache file $file names FFTW-MPI's solvers in a build without them"

run second
[[ $settings == *"wisdom loaded from $file;"* ]] || fail "the second run did not load $file: $settings"

run float --precision float
[ -s "$file.fftwf" ] || fail "float's wisdom was not kept in $file.fftwf"
[[ $settings == *"wisdom made by this run's planning, kept in $file.fftwf;"* ]] ||
  fail "the float run does not name its own file: $settings"

rm -rf "$A2AFFT_WISDOM_DIR"
run none --wisdom none
[[ $settings == *"wisdom none (--wisdom none);"* ]] || fail "--wisdom none is not reported: $settings"
[ -e "$A2AFFT_WISDOM_DIR" ] && fail "--wisdom none made $A2AFFT_WISDOM_DIR"

# A read-only parent: the cache cannot be made, which the run reports and survives. (Root
# ignores permissions, so a file stands where the directory would be.)
touch "$A2AFFT_WISDOM_DIR"
run unwritable
[[ $settings == *"wisdom not kept: cannot create $A2AFFT_WISDOM_DIR: "* ]] ||
  fail "an unusable cache is not reported: $settings"
echo "PASS"
