# Real applications from Debian packages, written by others, unchanged, under the drop-in
# (label realapps; the packages are installed by scripts/run-tests): the same results to the
# last digit under several backends as without the preload, and the report showing every call
# routed (tests/realapps/realapps.sh has what the checks share). At 2 ranks, and at 4
# oversubscribed (correctness only). Debian builds pw.x and lmp for Open MPI only. Included from
# tests/CMakeLists.txt after preload.cmake, whose report_check, alltoall_user and launcher the
# checks use. Also scripts/compare-app's tests, which run applications under the drop-in too.

# scripts/compare-app (label cli): a small MPI program under two backends, two launches each;
# the table shows both rows, their calls routed (48 of 54: MPI_IN_PLACE falls back in 6 calls)
# and the output the same; the CSV, JSON and plot are written.
set(compare_app ${CMAKE_SOURCE_DIR}/scripts/compare-app)
set(compare_out ${CMAKE_CURRENT_BINARY_DIR}/compare-app)
set(compare_row "[0-9.]+ +[0-9.]+-[0-9.]+ +[0-9.]+ +[0-9.]+%")
add_test(NAME cli.compare_app
         COMMAND ${CMAKE_SOURCE_DIR}/tests/preload/expect_output.sh "" ${compare_app}
                 --backends pairwise,tra --alltoallv sparse --launches 2 --check "checks matched"
                 --preload $<TARGET_FILE:a2afft_mpi> --out ${compare_out}/user --
                 ${launcher_preload} $<TARGET_FILE:alltoall_user> --
                 "^pairwise / sparse +${compare_row} +48/54 +6 +reference$"
                 "^tra / sparse +${compare_row} +48/54 +6 +same$"
                 "^tra / sparse: ran MPI_Alltoall \\(C\\): tra\\(radix=2\\) \\(48\\)$"
                 "^tra / sparse: +fell back in 6 calls: MPI_Alltoall \\(C\\): MPI_IN_PLACE$"
                 "wrote .*/user/compare.csv, compare.json, compare.png$")
set_tests_properties(cli.compare_app PROPERTIES LABELS cli TIMEOUT 120 PROCESSORS 2
                     ENVIRONMENT "${A2AFFT_MPI_TEST_ENV}")
# Bad input: one line, exit status 2 (the drop-in's refusal of a spec is the user's input too).
foreach(case "launches@--launches 0@--launches 0: valid values are whole numbers from 1"
             "alltoallv@--alltoallv mpi,sparse,auto@--alltoallv 'mpi,sparse,auto' has 3 specs; valid: one for all backends or one per backend \\(2\\)"
             "list@--backends mpi,,tra@--backends 'mpi,,tra': an empty item"
             "check@--check (@--check '\\(': not a regular expression"
             "spec@--backends tra:radix=9@tra:radix=9: A2AFFT_ALLTOALL=tra:radix=9: tra: radix=9 is not valid")
  string(REPLACE "@" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 option)
  list(GET parts 2 expected)
  separate_arguments(option UNIX_COMMAND "${option}")
  add_test(NAME cli.compare_app.bad_${name}
           COMMAND ${CMAKE_SOURCE_DIR}/tests/cli/expect_error.sh --prefix compare-app --status 2
                   "${expected}" ${compare_app} --backends mpi,tra --launches 1 ${option}
                   --preload $<TARGET_FILE:a2afft_mpi> --out ${compare_out}/bad --
                   ${launcher_preload} $<TARGET_FILE:alltoall_user>)
  set_tests_properties(cli.compare_app.bad_${name} PROPERTIES LABELS cli TIMEOUT 60
                       ENVIRONMENT "${A2AFFT_MPI_TEST_ENV};${A2AFFT_NO_KILL_WAIT_ENV}")
endforeach()

if(NOT _a2afft_mpiexec_version MATCHES "Open MPI|OpenRTE")
  message(STATUS "realapps tests not registered: Debian's pw.x and lmp are built for Open MPI, "
                 "this build's mpiexec is ${MPIEXEC_EXECUTABLE}")
  return()
endif()
set(realapps_dir ${CMAKE_SOURCE_DIR}/tests/realapps)
file(MAKE_DIRECTORY ${compare_out})
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

# scripts/compare-app on LAMMPS (the input of lammps_input.sh, written by a fixture), two
# backends, one launch each: every call routed in both rows, the thermo output the same.
add_test(NAME realapps.lammps_input
         COMMAND ${realapps_dir}/lammps_input.sh /usr/share/lammps/examples/peptide
                 ${compare_out}/in.peptide)
set_tests_properties(realapps.lammps_input PROPERTIES LABELS realapps TIMEOUT 30
                     FIXTURES_SETUP lammps_input)
a2afft_mpiexec_command(launcher_app 2)
add_test(NAME realapps.compare_app_lammps
         COMMAND ${CMAKE_SOURCE_DIR}/tests/preload/expect_output.sh "" ${compare_app}
                 --backends none,pairwise,tra --alltoallv mpi,sparse,neighbor --launches 1
                 --check "^(TotEng|PotEng|E_dihed|E_coul) " --preload $<TARGET_FILE:a2afft_mpi>
                 --out ${compare_out}/lammps -- ${launcher_app} lmp -in ${compare_out}/in.peptide
                 -log none -echo none --
                 "^none \\(no preload\\) +[0-9.]+ +[0-9.]+-[0-9.]+ +- +- +- +- +reference$"
                 "^pairwise / sparse +${compare_row} +301/301 +0 +same$"
                 "^tra / neighbor +${compare_row} +301/301 +0 +same$")
set_tests_properties(realapps.compare_app_lammps PROPERTIES LABELS realapps TIMEOUT 300
                     PROCESSORS 2 FIXTURES_REQUIRED lammps_input ENVIRONMENT "${A2AFFT_MPI_TEST_ENV}")
