# The Python package (python/): a pybind11 module over liba2afft, taking mpi4py communicators
# and NumPy arrays. Like FFTW-MPI, mpi4py is built against one MPI (Debian's: Open MPI), and
# the sanitizers' runtime cannot be loaded into an unsanitized python3, so
#   A2AFFT_PYTHON=AUTO  (default) on when pybind11, Python 3 with NumPy and mpi4py are found,
#                       mpi4py is built for this build's MPI and the build is not sanitized;
#   A2AFFT_PYTHON=ON    the same checks, and an error when one fails;
#   A2AFFT_PYTHON=OFF   left out.
# Python3_EXECUTABLE picks the interpreter (the scripts pass Debian's /usr/bin/python3, where
# the python3-* packages they install live). Sets A2AFFT_HAVE_PYTHON and A2AFFT_PYTHON_WHY.

set(A2AFFT_PYTHON AUTO CACHE STRING
    "Build the Python package: AUTO (when pybind11, NumPy and mpi4py for this MPI are found), ON or OFF")
set_property(CACHE A2AFFT_PYTHON PROPERTY STRINGS AUTO ON OFF)

set(A2AFFT_HAVE_PYTHON OFF)
set(A2AFFT_PYTHON_WHY "")
if(A2AFFT_PYTHON STREQUAL "OFF")
  set(A2AFFT_PYTHON_WHY "turned off (-DA2AFFT_PYTHON=OFF)")
elseif(NOT A2AFFT_PYTHON MATCHES "^(AUTO|ON)$")
  message(FATAL_ERROR "A2AFFT_PYTHON=${A2AFFT_PYTHON} is not valid; expected AUTO, ON or OFF")
elseif(A2AFFT_SMPI AND A2AFFT_PYTHON STREQUAL "AUTO")
  set(A2AFFT_PYTHON_WHY "mpi4py is built for a real MPI, and SimGrid's SMPI runs programs that "
                        "smpirun loads, not python3")
elseif(A2AFFT_SANITIZE)
  set(A2AFFT_PYTHON_WHY "the sanitized build's runtime cannot be loaded into python3")
else()
  find_package(Python3 COMPONENTS Interpreter Development.Module)
  find_package(pybind11 CONFIG QUIET)
  if(NOT Python3_FOUND)
    set(A2AFFT_PYTHON_WHY "no Python 3 with its headers (apt-get install python3-dev)")
  elseif(NOT pybind11_FOUND)
    set(A2AFFT_PYTHON_WHY "pybind11 was not found (apt-get install pybind11-dev)")
  else()
    # Where mpi4py's headers and its MPI extension are, without importing mpi4py.MPI (that
    # would initialize MPI).
    execute_process(
      COMMAND ${Python3_EXECUTABLE} -c
              "import importlib.util, mpi4py, numpy; print(mpi4py.get_include()); print(importlib.util.find_spec('mpi4py.MPI').origin)"
      OUTPUT_VARIABLE found RESULT_VARIABLE failed ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(failed)
      set(A2AFFT_PYTHON_WHY "${Python3_EXECUTABLE} cannot import numpy and mpi4py (apt-get install "
                            "python3-numpy python3-mpi4py, and configure with "
                            "-DPython3_EXECUTABLE=/usr/bin/python3)")
    else()
      string(REPLACE "\n" ";" found "${found}")
      list(GET found 0 A2AFFT_MPI4PY_INCLUDE_DIR)
      list(GET found 1 mpi4py_extension)
      a2afft_mpi_mismatch(A2AFFT_PYTHON_WHY "${mpi4py_extension}" "mpi4py (${mpi4py_extension})")
      if(NOT A2AFFT_PYTHON_WHY)
        set(A2AFFT_HAVE_PYTHON ON)
      endif()
    endif()
  endif()
endif()
string(REPLACE ";" "" A2AFFT_PYTHON_WHY "${A2AFFT_PYTHON_WHY}")

if(A2AFFT_HAVE_PYTHON)
  message(STATUS "Python package: on (${Python3_EXECUTABLE}, mpi4py ${A2AFFT_MPI4PY_INCLUDE_DIR})")
elseif(A2AFFT_PYTHON STREQUAL "ON")
  message(FATAL_ERROR "A2AFFT_PYTHON=ON, but ${A2AFFT_PYTHON_WHY}")
else()
  message(STATUS "Python package: off: ${A2AFFT_PYTHON_WHY}")
endif()
