# Shared by run-tests, run-demo and simulate: install what is missing, configure, build.
# Sourced, not run. Everything it installs comes from Debian's packages.

A2AFFT_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
A2AFFT_BUILD=${A2AFFT_BUILD:-$A2AFFT_ROOT/build}

# Debian packages the build and the tests need, and a file each one provides, so that a
# machine that already has them is not touched.
A2AFFT_PACKAGES=(
  "g++:/usr/bin/g++"
  "make:/usr/bin/make"
  "cmake:/usr/bin/cmake"
  "pkg-config:/usr/bin/pkg-config"
  "openmpi-bin:/usr/bin/mpirun"
  "libopenmpi-dev:/usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h"
  "libfftw3-dev:/usr/include/fftw3.h"
  "libfftw3-mpi-dev:/usr/include/fftw3-mpi.h"
  "libhwloc-dev:/usr/include/hwloc.h"
  "hwloc:/usr/bin/lstopo-no-graphics"
  "libgtest-dev:/usr/include/gtest/gtest.h"
  "libcli11-dev:/usr/include/CLI/CLI.hpp"
  "nlohmann-json3-dev:/usr/include/nlohmann/json.hpp"
  "libtomlplusplus-dev:/usr/include/toml++/toml.h"
  "python3-matplotlib:/usr/lib/python3/dist-packages/matplotlib/__init__.py"
  # The Python package (build/python/a2afft): pybind11 over the library, NumPy, mpi4py.
  "python3-dev:/usr/bin/python3-config"
  "pybind11-dev:/usr/lib/cmake/pybind11/pybind11Config.cmake"
  "python3-numpy:/usr/lib/python3/dist-packages/numpy/__init__.py"
  "python3-mpi4py:/usr/lib/python3/dist-packages/mpi4py/__init__.py"
)

a2afft_install_missing() {
  local missing=() entry package
  for entry in "${A2AFFT_PACKAGES[@]}"; do
    package=${entry%%:*}
    # The file check is fast; dpkg confirms for multi-arch paths that differ by architecture.
    if [ ! -e "${entry#*:}" ] && ! dpkg -s "$package" >/dev/null 2>&1; then
      missing+=("$package")
    fi
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "== installing missing packages: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -q
  $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# Extra arguments go to cmake's configure step (run-tests --sanitize passes its options).
a2afft_build() {
  echo "== configuring and building in $A2AFFT_BUILD"
  # Debian's python3, where the python3-* packages installed above live (a python3 earlier in
  # PATH, e.g. pyenv's, would not see them).
  local python=()
  [ -x /usr/bin/python3 ] && python=(-DPython3_EXECUTABLE=/usr/bin/python3)
  # Configure's own summary (what is built, what is left out and why) is all it shows, unless
  # configure fails.
  local log
  log=$(cmake -S "$A2AFFT_ROOT" -B "$A2AFFT_BUILD" -DCMAKE_BUILD_TYPE=Release "${python[@]}" "$@" 2>&1) ||
    { echo "$log"; return 1; }
  sed -n '/^-- a2afft [0-9.]* summary /,/^-- Configuring done/p' <<<"$log" | grep -v '^-- Configuring done'
  # A2AFFT_BUILD_TARGETS (space-separated): build only these (the simulated flavour).
  local targets=()
  [ -n "${A2AFFT_BUILD_TARGETS:-}" ] && read -r -a targets <<<"--target $A2AFFT_BUILD_TARGETS"
  cmake --build "$A2AFFT_BUILD" -j "$(nproc)" "${targets[@]}"
}

# The simulated build (SimGrid's SMPI; run-tests --mpi smpi, and simulate on first use): SimGrid's
# compilers make every program a shared object that smpirun loads once per rank. FFTW-MPI and
# mpi4py are built for Open MPI, so configure leaves the fftw-mpi engine and the Python package
# out (it says why). Only what the label simulated runs is built: the command and four test
# binaries.
A2AFFT_SMPI_PACKAGE="libsimgrid-dev:/usr/bin/smpirun"
A2AFFT_SMPI_TARGETS="a2afft exchange_conformance_test variable_exchange_conformance_test pencil3d_test six_step1d_test"

# Builds the simulated flavour in A2AFFT_BUILD (the caller points it at build-smpi/ or the like).
a2afft_build_smpi() {
  CC=smpicc CXX=smpicxx A2AFFT_BUILD_TARGETS=$A2AFFT_SMPI_TARGETS a2afft_build
}

# mpirun as root needs these (containers, CI); harmless otherwise.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
