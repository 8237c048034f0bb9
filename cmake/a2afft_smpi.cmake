# The simulated flavour: SimGrid's SMPI (CC=smpicc CXX=smpicxx; ./scripts/run-tests --mpi smpi).
# SMPI runs every rank of a job as a thread-like actor inside one process: smpicxx links
# programs as shared objects and smpirun loads one copy of the program per rank
# (smpi/privatization:dlopen), so each rank has its own globals. Sets A2AFFT_SMPI (ON/OFF) and,
# when on, A2AFFT_SIMGRID_VERSION ("3.32").
include(CheckCXXSourceCompiles)
set(CMAKE_REQUIRED_QUIET ON)
check_cxx_source_compiles([=[
#include <mpi.h>
#ifndef SMPI_SAMPLE_LOCAL
#error not SimGrid's mpi.h
#endif
int main() { return 0; }
]=] A2AFFT_SMPI)
unset(CMAKE_REQUIRED_QUIET)
if(A2AFFT_SMPI)
  set(A2AFFT_SMPI ON)
  file(STRINGS /usr/include/simgrid/version.h _a2afft_simgrid_version
       REGEX "define SIMGRID_VERSION_(MAJOR|MINOR|PATCH) ")
  string(REGEX REPLACE ".*MAJOR ([0-9]+).*MINOR ([0-9]+).*PATCH ([0-9]+).*" "\\1.\\2.\\3"
         A2AFFT_SIMGRID_VERSION "${_a2afft_simgrid_version}")
  # The copies are private only if the dynamic linker does not merge them: GCC marks the static
  # locals of inline functions and templates STB_GNU_UNIQUE, which ld.so binds to one object
  # across every loaded copy (ranks then shared them: the first rank to initialize one made the
  # next one fail with __gnu_cxx::recursive_init_error).
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fno-gnu-unique>)
  endif()
  # smpicxx force-includes smpi_helpers.h, whose malloc/free macros rename every `free` (FFTW's
  # fftw_free behind FftwApi<T>::free as well). Buffers are folded explicitly where a timing-only
  # run allows it, never by intercepting every malloc.
  add_compile_definitions(SMPI_NO_OVERRIDE_MALLOC=1)
  add_compile_options("SHELL:-include ${CMAKE_CURRENT_LIST_DIR}/a2afft_smpi_helpers.h")
  message(STATUS "SimGrid SMPI ${A2AFFT_SIMGRID_VERSION}: a simulated build (run it with "
                 "scripts/simulate; ctest label simulated)")
else()
  set(A2AFFT_SMPI OFF)
  set(A2AFFT_SIMGRID_VERSION "")
endif()
# Compile-time facts, so that no simulated run can forget to say so (reports, the shared-window
# shims that transpose/simulator/ holds).
add_compile_definitions(A2AFFT_SMPI=$<BOOL:${A2AFFT_SMPI}>
                        "A2AFFT_SIMGRID_VERSION=\"${A2AFFT_SIMGRID_VERSION}\"")
