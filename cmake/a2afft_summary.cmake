# The last lines of configure: what this build makes and what it leaves out, and why, so that a
# part left out (the Python package, when the python3 first on PATH lacks NumPy) is not one
# line among many. The scripts print these lines too (scripts/lib/common.sh).
include(CheckLanguage)
check_language(Fortran)

# One line: `label` and `on_text` when `on` (ON or OFF), else "left out: " and `why`.
function(a2afft_summary_line label on on_text why)
  if(${on})
    message(STATUS "  ${label}${on_text}")
  else()
    message(STATUS "  ${label}left out: ${why}")
  endif()
endfunction()

set(A2AFFT_SUMMARY_PARTS "liba2afft, the a2afft command, the MPI_Alltoall preload")
if(A2AFFT_BUILD_TESTS)
  string(APPEND A2AFFT_SUMMARY_PARTS ", the tests")
endif()
message(STATUS "a2afft ${PROJECT_VERSION} summary (${CMAKE_BUILD_TYPE}, MPI: ${MPI_C_COMPILER})")
message(STATUS "  builds:             ${A2AFFT_SUMMARY_PARTS}")
a2afft_summary_line("Python package:     " ${A2AFFT_HAVE_PYTHON} "${Python3_EXECUTABLE}"
                    "${A2AFFT_PYTHON_WHY}")
a2afft_summary_line("FFTW-MPI reference: " ${A2AFFT_HAVE_FFTW_MPI} "the fftw-mpi engine"
                    "${A2AFFT_FFTW_MPI_WHY}")
set(A2AFFT_HAVE_FORTRAN OFF)
if(CMAKE_Fortran_COMPILER)
  set(A2AFFT_HAVE_FORTRAN ON)
endif()
a2afft_summary_line("Fortran module:     " ${A2AFFT_HAVE_FORTRAN}
                    "installed; the install test compiles it with ${CMAKE_Fortran_COMPILER}"
                    "installed as source, but no Fortran compiler to test it with (apt-get install gfortran)")
if(A2AFFT_SANITIZE)
  message(STATUS "  sanitizers:         ASan and UBSan")
else()
  message(STATUS "  sanitizers:         off (./scripts/run-tests --sanitize builds with them)")
endif()
