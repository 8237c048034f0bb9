#!/bin/bash
# The installed package as a user gets it (ctest label install): installs the build into a
# temporary prefix, checks what is there, builds examples/ (fft3d_hello.cpp, fft3d_hello.c,
# fft3d_hello.f90, exchange_only.cpp, and the applications poisson3d.cpp and taylor_green.cpp)
# out of tree once with find_package(a2afft) and once with mpicxx/mpicc/mpifort
# $(pkg-config --cflags --libs a2afft), and runs each hello at 1, 2 and 3 ranks, checking its
# output, and each application once, briefly (the `apps` tests check them in depth); a bad spec
# must fail on every rank with one message, from C++, C and Fortran.
# usage: install_test.sh <build dir> <source dir> <libdir> <cmake> <mpiexec> <-n flag> [flags...]
set -euo pipefail
build=$1 source=$2 libdir=$3 cmake=$4 mpiexec=$5 np_flag=$6
shift 6
mpiexec_flags=("$@")

work=$(mktemp -d "${TMPDIR:-/tmp}/a2afft-install-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix

fail() {
  echo "FAIL: $*"
  exit 1
}

# Runs a step quietly; on failure shows its output.
step() {
  local log=$work/step.log
  "$@" > "$log" 2>&1 || { cat "$log"; fail "$*"; }
}

step "$cmake" --install "$build" --prefix "$prefix"
for file in include/a2afft/a2afft.hpp include/a2afft/a2afft.h include/a2afft/a2afft.f90 \
            include/a2afft/exchange.hpp \
            include/a2afft/fft3d.hpp include/a2afft/fft1d.hpp include/a2afft/version.hpp \
            include/a2afft/tools/timing.hpp include/a2afft/tools/model.hpp \
            include/a2afft/tools/model_types.hpp \
            include/a2afft/tools/topology.hpp include/a2afft/tools/backends.hpp \
            "$libdir/liba2afft.so" "$libdir/liba2afft_tools.so" "$libdir/liba2afft_mpi.so" bin/a2afft \
            "$libdir/cmake/a2afft/a2afftConfig.cmake" \
            "$libdir/cmake/a2afft/a2afftConfigVersion.cmake" \
            "$libdir/cmake/a2afft/a2afftTargets.cmake" "$libdir/pkgconfig/a2afft.pc" \
            "$libdir/pkgconfig/a2afft-tools.pc"; do
  [[ -e $prefix/$file ]] || fail "cmake --install did not install $file"
done
[[ ! -e $prefix/include/a2afft/version.hpp.in ]] || fail "the version.hpp template was installed"
soname=$(objdump -p "$prefix/$libdir/liba2afft.so" | awk '$1 == "SONAME" { print $2 }')
[[ $soname =~ ^liba2afft\.so\.[0-9]+$ ]] || fail "liba2afft.so has SONAME '$soname'"
[[ -e $prefix/$libdir/$soname ]] || fail "$soname is not installed"
# Nothing internal is installed: the headers are the public ones only.
internal=$(find "$prefix/include" -name '*.hpp' ! -path '*/include/a2afft/*')
[[ -z $internal ]] || fail "internal headers installed: $internal"

# The core is small (issue 32): at most eleven C++ headers in include/a2afft/ beside the umbrella
# a2afft.hpp (a2afft.h and a2afft.f90 are the C and Fortran faces): ten, and transform.hpp, the
# basic types on their own (issue 44); the tools live apart, and the umbrella includes the core
# alone.
core=$(find "$prefix/include/a2afft" -maxdepth 1 -name '*.hpp' ! -name a2afft.hpp | sort)
core_count=$(grep -c . <<< "$core")
((core_count >= 1 && core_count <= 11)) ||
  fail "the core has $core_count public C++ headers (at most 11): $(echo $core)"
if grep -q '#include <a2afft/tools/' "$prefix/include/a2afft/a2afft.hpp" $core; then
  fail "a core header includes a tools header: $(grep -l '#include <a2afft/tools/' "$prefix/include/a2afft/a2afft.hpp" $core)"
fi
tools_count=$(find "$prefix/include/a2afft/tools" -name '*.hpp' | grep -c .)
((tools_count >= 7)) || fail "only $tools_count tools headers under include/a2afft/tools/"

# 1. CMake, as examples/CMakeLists.txt is written for users.
# The MPI of the build under test (MPICC, MPICXX, MPIFORT from ctest), not whichever mpicc is
# first on PATH: Debian installs Open MPI and MPICH side by side.
step "$cmake" -S "$source/examples" -B "$work/with-cmake" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_BUILD_TYPE=Release -DA2AFFT_EXAMPLES_REQUIRE_FORTRAN=ON \
  -DMPI_C_COMPILER="${MPICC:-mpicc}" -DMPI_CXX_COMPILER="${MPICXX:-mpicxx}" \
  -DMPI_Fortran_COMPILER="${MPIFORT:-mpifort}"
step "$cmake" --build "$work/with-cmake" -j 2

# 1b. Projects of one language each find the package without enabling another (issue 30: a
# C++-only project was told to enable C): project(... CXX), (... C) and (... Fortran).
one_language_project() {
  local language=$1 program=$2 sources=$3 libraries=${4:-}
  local dir=$work/only-$language
  mkdir -p "$dir"
  cat > "$dir/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(only_$language LANGUAGES $language)
find_package(a2afft 0.1 REQUIRED)
add_executable($program $sources)
target_link_libraries($program PRIVATE a2afft::a2afft $libraries)
CMAKE
  step "$cmake" -S "$dir" -B "$dir/build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
    -DMPI_C_COMPILER="${MPICC:-mpicc}" -DMPI_CXX_COMPILER="${MPICXX:-mpicxx}" \
    -DMPI_Fortran_COMPILER="${MPIFORT:-mpifort}"
  step "$cmake" --build "$dir/build"
  cp "$dir/build/$program" "$work/with-cmake/${program}_only_$language"
}
one_language_project CXX fft3d_hello "$source/examples/fft3d_hello.cpp"
# a2afft::tools from the same package: the cost model needs no MPI run.
mkdir -p "$work/tools-user"
cat > "$work/tools-user/model.cpp" <<'CPP'
#include <a2afft/tools/model.hpp>
#include <cmath>
#include <cstdio>
int main() {
  const a2afft::model::ModelInputs inputs{16, 4, 1024, {1e-6, 1e-10}, {2e-6, 1e-9}};
  const a2afft::model::ModelResult result = a2afft::model::tra_cost(inputs, 4);
  std::printf("tools: %s rounds %ld\n", result.algorithm.c_str(), result.rounds);
  // A measured node sync of 5 us a stage: onmpml's two syncs of ceil(log2 4) = 2 stages cost
  // 2 x 2 x (5 - 1) us more than a 1 us intra-node message a stage.
  a2afft::model::ModelInputs synced = inputs;
  synced.node_sync_stage_seconds = 5e-6;
  const double more = a2afft::model::spec_cost(synced, "onmpml:leaders=1").seconds -
                      a2afft::model::spec_cost(inputs, "onmpml:leaders=1").seconds;
  std::printf("tools: node sync adds %.1f us\n", more * 1e6);
  return result.rounds > 0 && std::fabs(more - 16e-6) < 1e-12 ? 0 : 1;
}
CPP
one_language_project CXX tools_model "$work/tools-user/model.cpp" a2afft::tools
one_language_project C fft3d_hello_c "$source/examples/fft3d_hello.c" m  # m: cexp
# The Fortran example's own `use mpi` comes with the Fortran MPI target a2afft::a2afft carries.
one_language_project Fortran fft3d_hello_f \
  "\${a2afft_FORTRAN_MODULE} $source/examples/fft3d_hello.f90"

# 2. pkg-config and the MPI compiler wrapper.
mkdir -p "$work/with-pkg-config"
export PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig
flags=$(pkg-config --cflags --libs a2afft) || fail "pkg-config does not find a2afft"
# shellcheck disable=SC2086 # pkg-config's flags are words
for program in exchange_only fft3d_hello; do
  step "${MPICXX:-mpicxx}" -std=c++17 -O2 "$source/examples/$program.cpp" $flags \
    -Wl,-rpath,"$prefix/$libdir" -o "$work/with-pkg-config/$program"
done
# The applications are C++20 programs on the same headers.
# shellcheck disable=SC2086
for program in poisson3d taylor_green; do
  step "${MPICXX:-mpicxx}" -std=c++20 -O2 "$source/examples/$program.cpp" $flags \
    -Wl,-rpath,"$prefix/$libdir" -o "$work/with-pkg-config/$program"
done
# shellcheck disable=SC2086
step "${MPICC:-mpicc}" -std=c99 -O2 "$source/examples/fft3d_hello.c" $flags -lm \
  -Wl,-rpath,"$prefix/$libdir" -o "$work/with-pkg-config/fft3d_hello_c"
# Fortran: the installed module source compiled with the program (its .mod lands in the cwd).
# shellcheck disable=SC2086
(cd "$work/with-pkg-config" && step "${MPIFORT:-mpifort}" -O2 "$prefix/include/a2afft/a2afft.f90" \
  "$source/examples/fft3d_hello.f90" $flags -Wl,-rpath,"$prefix/$libdir" -o fft3d_hello_f)

# Runs `program` on `ranks` ranks; its output is in $output.
run() {
  local ranks=$1
  shift
  output=$("$mpiexec" "$np_flag" "$ranks" "${mpiexec_flags[@]}" "$@" 2>&1)
}

run 1 "$work/with-cmake/tools_model_only_CXX" || { echo "$output"; fail "a2afft::tools user exited non-zero"; }
grep -q "^tools: tra(radix=4) rounds [1-9]" <<< "$output" || fail "a2afft::tools user printed: $output"

# Runs one example at each of RANK_COUNTS (default 1 and 3: no exchange at all, and uneven
# pieces); `expect` is a regex for its first line ($ranks in it). The examples' behaviour at
# other counts is the main suite's business: here the question is whether each way of building
# against the installed package links and runs.
check_example() {
  local build_kind=$1 program=$2 expect=$3
  for ranks in ${RANK_COUNTS:-1 3}; do
    run "$ranks" "$work/$build_kind/$program" ||
      { echo "$output"; fail "$build_kind/$program at $ranks ranks exited non-zero"; }
    echo "$build_kind/$program, $ranks ranks: $(echo "$output" | tr '\n' ' ')"
    grep -q "${expect//RANKS/$ranks}" <<< "$output" ||
      fail "$build_kind/$program at $ranks ranks: no plan line matching '$expect'"
    grep -q "^PASS: " <<< "$output" || fail "$build_kind/$program at $ranks ranks: no PASS"
  done
}

for build_kind in with-cmake with-pkg-config; do
  check_example "$build_kind" exchange_only "^exchange: auto→.*, RANKS ranks, 1000-byte blocks$"
  check_example "$build_kind" fft3d_hello "^fft3d: 32x24x20, RANKS ranks, grid [0-9]x[0-9], row=.*,column="
  check_example "$build_kind" fft3d_hello_c "^fft3d from C: 32x24x20, RANKS ranks, row=.*,column="
  check_example "$build_kind" fft3d_hello_f "^fft3d from Fortran: 32x24x20, RANKS ranks, row=.*,column="
done
# One language at a time: does each link alone? One launch each.
RANK_COUNTS=3 check_example with-cmake fft3d_hello_only_CXX "^fft3d: 32x24x20, RANKS ranks, grid [0-9]x[0-9], row=.*,column="
RANK_COUNTS=3 check_example with-cmake fft3d_hello_c_only_C "^fft3d from C: 32x24x20, RANKS ranks, row=.*,column="
RANK_COUNTS=3 check_example with-cmake fft3d_hello_f_only_Fortran "^fft3d from Fortran: 32x24x20, RANKS ranks, row=.*,column="

# Fortran's A2AFFT_GRID_TIMED and A2AFFT_THREADS_TIMED: grids and thread counts timed through the
# module, the winner in the plan line.
run 2 "$work/with-cmake/fft3d_hello_f" pairwise timed ||
  { echo "$output"; fail "fft3d_hello_f with a timed grid exited non-zero"; }
echo "with-cmake/fft3d_hello_f pairwise timed, 2 ranks: $(echo "$output" | tr '\n' ' ')"
grep -q "^fft3d from Fortran: .*| grid [0-9]x[0-9], threads [0-9] timed: " <<< "$output" && grep -q "^PASS: " <<< "$output" ||
  fail "fft3d_hello_f with a timed grid: no timed grid line or no PASS: $output"

# The applications, briefly: a Poisson solve to round-off, and a few Taylor–Green steps.
for build_kind in with-cmake with-pkg-config; do
  run 2 "$work/$build_kind/poisson3d" --n 16 --exchange pairwise ||
    { echo "$output"; fail "$build_kind/poisson3d exited non-zero"; }
  echo "$build_kind/poisson3d, 2 ranks: $(echo "$output" | tr '\n' ' ')"
  grep -q "^PASS: max error" <<< "$output" || fail "$build_kind/poisson3d: no PASS"
  run 2 "$work/$build_kind/taylor_green" --n 8 --steps 3 --exchange pairwise ||
    { echo "$output"; fail "$build_kind/taylor_green exited non-zero"; }
  echo "$build_kind/taylor_green, 2 ranks: $(echo "$output" | tr '\n' ' ')"
  grep -q "^digest: [0-9a-f]\{16\}$" <<< "$output" || fail "$build_kind/taylor_green: no digest"
done

# A spec the library refuses: a2afft::Error caught in the user's C++ code, and an error code
# with a2afft_error_message() in C and Fortran; one line each, exit code 1.
for program in exchange_only fft3d_hello_c fft3d_hello_f; do
  if run 2 "$work/with-cmake/$program" tra:radix=banana; then
    fail "$program: a bad spec exited 0: $output"
  fi
  [[ $(grep -c "^FAIL: tra: radix=banana is not valid" <<< "$output") -eq 1 ]] ||
    fail "$program: a bad spec did not print its error once: $output"
done
# The Python package, when the build has one (A2AFFT_TEST_PYTHON names its interpreter): the
# installed a2afft/ imported from the prefix alone, the Poisson example run with it.
python_note=""
if [[ -n ${A2AFFT_TEST_PYTHON:-} ]]; then
  package=$prefix/$A2AFFT_PYTHON_INSTALL_DIR
  [[ -e $package/__init__.py ]] || fail "the Python package is not installed in $package"
  PYTHONPATH=$(dirname "$package") run 2 "$A2AFFT_TEST_PYTHON" \
    "$source/examples/python/poisson.py" 16 ||
    { echo "$output"; fail "examples/python/poisson.py on the installed package exited non-zero"; }
  echo "installed Python package, 2 ranks: $(echo "$output" | tr '\n' ' ')"
  grep -q "max error .* PASS" <<< "$output" || fail "examples/python/poisson.py: no PASS"
  python_note="; the Python package imported from the prefix"
fi
echo "PASS: installed; 4 examples and 2 applications built with find_package and with pkg-config, the hello programs also in C++-, C- and Fortran-only projects, ran at 1, 2 and 3 ranks$python_note"
