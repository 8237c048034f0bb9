# Real applications from Debian packages, written by others, unchanged, under the drop-in
# (label realapps; the packages are installed by scripts/run-tests): the same results to the
# last digit under several backends as without the preload, and the report showing every call
# routed (tests/realapps/realapps.sh has what the checks share). At 2 ranks, and at 4
# oversubscribed (correctness only). Debian builds pw.x and lmp for Open MPI only. Included from
# tests/CMakeLists.txt after preload.cmake, whose report_check the checks use.
if(NOT _a2afft_mpiexec_version MATCHES "Open MPI|OpenRTE")
  message(STATUS "realapps tests not registered: Debian's pw.x and lmp are built for Open MPI, "
                 "this build's mpiexec is ${MPIEXEC_EXECUTABLE}")
  return()
endif()
set(realapps_dir ${CMAKE_SOURCE_DIR}/tests/realapps)
# NAME@CHECK@INPUT: Quantum ESPRESSO's pw.x (Fortran: mpi_alltoall_ and mpi_alltoallv_), an
# 8-atom silicon SCF; LAMMPS's lmp (C++: MPI_Alltoallv in its PPPM's FFT remaps, with
# `kspace_modify collective yes`), its own peptide example.
foreach(app "qe_pw_si8@qe_check.sh@${realapps_dir}/qe_si8.in"
            "lammps_peptide@lammps_check.sh@/usr/share/lammps/examples/peptide")
  string(REPLACE "@" ";" parts "${app}")
  list(GET parts 0 name)
  list(GET parts 1 check)
  list(GET parts 2 input)
  foreach(ranks 2 4)
    a2afft_mpiexec_command(launcher_app ${ranks})
    set(test_name realapps.${name})
    if(ranks GREATER 2)
      set(test_name ${test_name}.np${ranks})
    endif()
    add_test(NAME ${test_name}
             COMMAND ${realapps_dir}/${check} $<TARGET_FILE:a2afft_mpi> $<TARGET_FILE:report_check>
                     ${input} -- ${launcher_app})
    set_tests_properties(${test_name} PROPERTIES LABELS realapps TIMEOUT 300 PROCESSORS 2
                         ENVIRONMENT "${A2AFFT_MPI_TEST_ENV}")
  endforeach()
endforeach()
