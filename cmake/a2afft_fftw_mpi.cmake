# FFTW-MPI (libfftw3_mpi, libfftw3f_mpi): the CLI's `fftw-mpi` engine, and fftw(f)_mpi_init
# before wisdom is read (wisdom of FFTW-MPI's own plans names MPI solvers that only an
# initialized FFTW-MPI can read back). Nothing else uses it.
#
# FFTW-MPI is built against one MPI: Debian's against Open MPI (it needs libmpi.so.40). With
# another MPI (MPICH: libmpich.so.12) it would load a second MPI library into the process. So
#   A2AFFT_FFTW_MPI=AUTO  (default) on when libfftw3_mpi needs the very MPI library this build
#                         links (same SONAME: an ABI-compatible MPI counts), else off;
#   A2AFFT_FFTW_MPI=ON    the same check, and an error when it fails;
#   A2AFFT_FFTW_MPI=OFF   left out.
# Sets A2AFFT_HAVE_FFTW_MPI (ON/OFF), A2AFFT_FFTW_MPI_LIBRARIES, A2AFFT_PC_FFTW_MPI_LIBS (for
# a2afft.pc) and, when off, A2AFFT_FFTW_MPI_WHY (one clause, for configure and the CLI's error).

set(A2AFFT_FFTW_MPI AUTO CACHE STRING
    "Use FFTW-MPI: AUTO (when libfftw3_mpi was built for this build's MPI), ON or OFF")
set_property(CACHE A2AFFT_FFTW_MPI PROPERTY STRINGS AUTO ON OFF)

# The DT_<field> entries (NEEDED, SONAME) of the ELF file `file`, in out_var.
function(_a2afft_elf_entries out_var file field)
  set(entries "")
  if(CMAKE_OBJDUMP)
    execute_process(COMMAND ${CMAKE_OBJDUMP} -p ${file} OUTPUT_VARIABLE dump ERROR_QUIET)
    string(REGEX MATCHALL "  ${field} +[^\n]+" lines "${dump}")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "^  ${field} +" "" entry "${line}")
      list(APPEND entries "${entry}")
    endforeach()
  endif()
  set(${out_var} "${entries}" PARENT_SCOPE)
endfunction()

# Why `library` (a shared object, named `what` in the message) cannot share a process with this
# build's MPI (MPI_C_LIBRARIES), in why_var: "" when the MPI library it needs is this build's
# (same SONAME: an ABI-compatible MPI counts).
function(a2afft_mpi_mismatch why_var library what)
  set(mpi_sonames "")
  foreach(mpi_library IN LISTS MPI_C_LIBRARIES)
    _a2afft_elf_entries(soname "${mpi_library}" SONAME)
    list(APPEND mpi_sonames ${soname})
  endforeach()
  _a2afft_elf_entries(needs "${library}" NEEDED)
  list(FILTER needs INCLUDE REGEX "mpi")
  set(common "")
  foreach(needed IN LISTS needs)
    if(needed IN_LIST mpi_sonames)
      list(APPEND common ${needed})
    endif()
  endforeach()
  set(why "")
  if(NOT mpi_sonames OR NOT needs)
    set(why "cannot tell which MPI ${what} was built for (objdump -p found no MPI library in it "
            "or in MPI_C_LIBRARIES)")
  elseif(NOT common)
    string(REPLACE ";" ", " needs_text "${needs}")
    string(REPLACE ";" ", " mpi_text "${mpi_sonames}")
    set(why "${what} is built for another MPI: it needs ${needs_text}, this build's MPI is "
            "${mpi_text}")
  endif()
  string(REPLACE ";" "" why "${why}")
  set(${why_var} "${why}" PARENT_SCOPE)
endfunction()

set(A2AFFT_HAVE_FFTW_MPI OFF)
set(A2AFFT_FFTW_MPI_LIBRARIES "")
set(A2AFFT_PC_FFTW_MPI_LIBS "")
set(A2AFFT_FFTW_MPI_WHY "")
if(A2AFFT_FFTW_MPI STREQUAL "OFF")
  set(A2AFFT_FFTW_MPI_WHY "FFTW-MPI is turned off (-DA2AFFT_FFTW_MPI=OFF)")
elseif(A2AFFT_SMPI AND A2AFFT_FFTW_MPI STREQUAL "AUTO")
  set(A2AFFT_FFTW_MPI_WHY "FFTW-MPI is built for a real MPI (Debian's: Open MPI), and this build "
                          "is simulated with SimGrid's SMPI")
elseif(NOT A2AFFT_FFTW_MPI MATCHES "^(AUTO|ON)$")
  message(FATAL_ERROR "A2AFFT_FFTW_MPI=${A2AFFT_FFTW_MPI} is not valid; expected AUTO, ON or OFF")
else()
  find_library(FFTW3_MPI_LIBRARY NAMES fftw3_mpi HINTS ${FFTW3_LIBDIR})
  find_library(FFTW3F_MPI_LIBRARY NAMES fftw3f_mpi HINTS ${FFTW3_LIBDIR})
  find_path(FFTW3_MPI_INCLUDE_DIR fftw3-mpi.h HINTS ${FFTW3_INCLUDEDIR})
  if(NOT FFTW3_MPI_LIBRARY OR NOT FFTW3F_MPI_LIBRARY OR NOT FFTW3_MPI_INCLUDE_DIR)
    set(A2AFFT_FFTW_MPI_WHY "FFTW-MPI (libfftw3_mpi, libfftw3f_mpi, fftw3-mpi.h) was not found")
  else()
    a2afft_mpi_mismatch(A2AFFT_FFTW_MPI_WHY "${FFTW3_MPI_LIBRARY}" "FFTW-MPI (libfftw3_mpi)")
    if(NOT A2AFFT_FFTW_MPI_WHY)
      set(A2AFFT_HAVE_FFTW_MPI ON)
      set(A2AFFT_FFTW_MPI_LIBRARIES ${FFTW3_MPI_LIBRARY} ${FFTW3F_MPI_LIBRARY})
      set(A2AFFT_PC_FFTW_MPI_LIBS "-lfftw3_mpi -lfftw3f_mpi")
    endif()
  endif()
endif()
string(REPLACE ";" "" A2AFFT_FFTW_MPI_WHY "${A2AFFT_FFTW_MPI_WHY}")

if(A2AFFT_HAVE_FFTW_MPI)
  message(STATUS "FFTW-MPI: on (${FFTW3_MPI_LIBRARY}); the fftw-mpi engine is built")
elseif(A2AFFT_FFTW_MPI STREQUAL "ON")
  message(FATAL_ERROR "A2AFFT_FFTW_MPI=ON, but ${A2AFFT_FFTW_MPI_WHY}")
else()
  message(STATUS "FFTW-MPI: off: ${A2AFFT_FFTW_MPI_WHY}; the fftw-mpi engine is left out")
endif()
