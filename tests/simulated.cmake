# The simulated build's tests (label simulated; ./scripts/run-tests --mpi smpi): the real test
# binaries run on simulated clusters through scripts/simulate (SimGrid SMPI, platform
# inputs/platforms/test-cluster.xml: 8 hosts of 16 cores). Included by tests/CMakeLists.txt in
# place of the other labels, which need a real MPI's mpiexec. Sized for CI on 2 cores: about
# 5 minutes in all (docs/simulation.md has the times).

foreach(test exchange_conformance variable_exchange_conformance pencil3d six_step1d)
  add_executable(${test}_test mpi/${test}_test.cpp)
endforeach()
target_link_libraries(exchange_conformance_test PRIVATE a2afft_transpose a2afft_checks a2afft_mpi_test_main
                                                        a2afft_warnings)
target_link_libraries(variable_exchange_conformance_test PRIVATE a2afft_transpose
                                                                 a2afft_mpi_test_main
                                                                 a2afft_warnings)
target_link_libraries(pencil3d_test PRIVATE a2afft_fft a2afft_checks a2afft_mpi_test_main
                                            a2afft_warnings)
target_link_libraries(six_step1d_test PRIVATE a2afft_fft a2afft_checks a2afft_mpi_test_main
                                              a2afft_warnings)

set(A2AFFT_SIMULATE ${CMAKE_SOURCE_DIR}/scripts/simulate)

# a2afft_add_simulated_test(NAME name RANKS P PLACE --ranks-per-node Q | --node-sizes A,B,...
#                           TARGET target [ARGS ...] [ENV VAR=value ...] [TIMEOUT seconds])
# registers simulated.NAME.npP: the target on P simulated ranks of test-cluster.
function(a2afft_add_simulated_test)
  cmake_parse_arguments(T "" "NAME;TARGET;RANKS;TIMEOUT" "PLACE;ARGS;ENV" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  set(test_name simulated.${T_NAME}.np${T_RANKS})
  add_test(NAME ${test_name}
           COMMAND ${A2AFFT_SIMULATE} --platform test-cluster --ranks ${T_RANKS} ${T_PLACE}
                   -- $<TARGET_FILE:${T_TARGET}> ${T_ARGS})
  set_tests_properties(${test_name} PROPERTIES TIMEOUT ${T_TIMEOUT} LABELS simulated
                       ENVIRONMENT "A2AFFT_SMPI_BUILD=${CMAKE_BINARY_DIR};${T_ENV}")
endfunction()

# Every backend and example spec against SMPI's MPI_Alltoall (pair) at P = 64 on 4 hosts of 16,
# the shared-window shim, the shared-leader buffers, and auto's one choice on every rank. Blocks
# of 1, 3, 16 and 1000 bytes: 64 KiB blocks tripled the time and add no path (the native
# conformance tests run them). Auto.wisdom_round_trips (47 s here) is left to the native tests.
# SharedLeaders' buffers (86 s here) and auto's choice run apart, so that each stays in its budget.
a2afft_add_simulated_test(NAME conformance.nodes_of_16 RANKS 64 PLACE --ranks-per-node 16
  TIMEOUT 600 TARGET exchange_conformance_test
  ARGS "--gtest_filter=Registry/*:SharedWindow.*"
  ENV A2AFFT_TEST_BLOCK_BYTES=1,3,16,1000)
a2afft_add_simulated_test(NAME conformance.shared_leaders_and_auto RANKS 64
  PLACE --ranks-per-node 16 TIMEOUT 600 TARGET exchange_conformance_test
  ARGS "--gtest_filter=Auto.every_rank_makes_the_same_choice:SharedLeaders.*"
  ENV A2AFFT_TEST_BLOCK_BYTES=1,3,16,1000)
# Uneven hosts (20 on a 16-core host, 4, 16, 12, 12): every spec but auto's (timed above).
a2afft_add_simulated_test(NAME conformance.nodes_20_4_16_12_12 RANKS 64
  PLACE --node-sizes 20,4,16,12,12 TARGET exchange_conformance_test
  ARGS "--gtest_filter=Registry/*:SharedWindow.*:-*auto*"
  ENV A2AFFT_TEST_BLOCK_BYTES=1,3,1000)
# Every backend's split phase on 256 ranks of theta-like (4 hosts of 64), where SMPI 3.32 crashes
# on MPI_Ialltoall: mpi's start() must be one error on every rank, the others must run.
add_test(NAME simulated.split_phase.np256
         COMMAND ${A2AFFT_SIMULATE} --platform theta-like --ranks 256 --
                 $<TARGET_FILE:exchange_conformance_test> --gtest_filter=SplitPhase.*)
set_tests_properties(simulated.split_phase.np256 PROPERTIES TIMEOUT 600 LABELS simulated
                     ENVIRONMENT "A2AFFT_SMPI_BUILD=${CMAKE_BINARY_DIR}")
# The whole conformance binary (every radix, every group size, parameter errors, all block sizes)
# at 16 ranks on hosts of 4, but wisdom's round trip.
a2afft_add_simulated_test(NAME conformance.nodes_of_4 RANKS 16 PLACE --ranks-per-node 4
  TARGET exchange_conformance_test ARGS "--gtest_filter=-Auto.wisdom_round_trips")
# The variable-size exchanges (issue 34) at 16 ranks on hosts of 4: SMPI's MPI_Alltoallv and
# MPI_Alltoallw, the sparse and node-aggregated ones; neighbor is refused there with the reason
# (SMPI 3.32 aborts in MPI_Dist_graph_create_adjacent).
a2afft_add_simulated_test(NAME variable_conformance.nodes_of_4 RANKS 16 PLACE --ranks-per-node 4
  TARGET variable_exchange_conformance_test)
# The FFTs on every backend at 16 ranks on hosts of 4 (the 4x2-grid case needs exactly 8 ranks).
a2afft_add_simulated_test(NAME fft3d.nodes_of_4 RANKS 16 PLACE --ranks-per-node 4
  TARGET pencil3d_test
  ARGS "--gtest_filter=-Pencil3d.blocks_stay_at_least_one_element_where_a_row_holds_nothing")
a2afft_add_simulated_test(NAME fft1d.nodes_of_4 RANKS 16 PLACE --ranks-per-node 4
  TARGET six_step1d_test)

# The cost model's parameters measured inside a simulated platform (issue 47): tests/model.cmake.
include(${CMAKE_CURRENT_SOURCE_DIR}/model.cmake)

# The command in simulation: its reports say so everywhere, and bad input is one error, exit 2.
add_test(NAME simulated.reports_say_simulated
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/simulated/reports_say_simulated.sh ${A2AFFT_SIMULATE})
# Memory folding (alltoall --fold-memory): a folded run fits where its buffers would not and says
# so everywhere; with --validate it is one error naming both options.
add_test(NAME simulated.fold_memory
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/simulated/fold_memory.sh ${A2AFFT_SIMULATE})
# Plan only (alltoall --plan-only), folded, as the planning study at scale runs it: every row has
# a plan time and heap and no run time, and every report says plan only and simulated.
add_test(NAME simulated.plan_only
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/alltoall_plan_only.sh 2 ${A2AFFT_SIMULATE}
                 --platform test-cluster --ranks 16 --ranks-per-node 4 -- a2afft alltoall
                 --plan-only --fold-memory -x tra,node-aware --sizes 1KiB)
# nonblocking in simulation: its default batch is bounded (4) and every report says so and why;
# an explicit batch runs as given, but 16 or more on 256 ranks, where SMPI 3.32 crashed, is one
# error naming the value, what is valid and why (4 hosts of 64 on theta-like; refused while
# planning, before any exchange: 5 s).
add_test(NAME simulated.nonblocking_bounded
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/simulated/nonblocking_bounded.sh ${A2AFFT_SIMULATE})
add_test(NAME simulated.cli.error.nonblocking_batch_that_crashes_np256
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/expect_error.sh --status 2
                 "nonblocking:batch=all cannot run on .*batch=all puts 255 exchanges of every rank in flight at once, and SimGrid SMPI 3\\.32's flow solver crashed \\(SIGSEGV\\) on 256 ranks .*give batch=1 to 15, or none \\(the simulated default is 4\\)"
                 ${A2AFFT_SIMULATE} --platform theta-like --ranks 256 -- a2afft alltoall
                 --exchange nonblocking:batch=all --sizes 1 --iters 1 --warmup 0)
# auto from 256 simulated ranks: measuring crashed SMPI 3.32's flow solver, so mode=measure is
# one error naming the value, why and what to give instead (refused while planning: seconds).
add_test(NAME simulated.cli.error.auto_measure_np256
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/expect_error.sh --status 2
                 "auto:mode=measure cannot run on .*mode=measure times candidates that put every message of a rank in flight at once .*SimGrid SMPI 3\\.32's flow solver crashed \\(SIGSEGV\\) on auto's measuring at 256 ranks; in simulation from 256 ranks on give mode=estimate \\(the default there\\)"
                 ${A2AFFT_SIMULATE} --platform theta-like --ranks 256 -- a2afft alltoall
                 --exchange auto:mode=measure --sizes 1 --iters 1 --warmup 0)
add_test(NAME simulated.cli.error.fold_memory_with_validate
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/expect_error.sh --status 2
                 "--validate and --fold-memory cannot be combined" ${A2AFFT_SIMULATE}
                 --platform test-cluster --ranks 4 -- a2afft alltoall --fold-memory --validate)
# All simulated ranks share this machine's memory: the FFT commands' memory check counts all P of
# them (16 on 4 simulated hosts: 2048^3 needs about 640 GiB in all, 160 GiB per simulated host),
# and fft1d --hpcc picks N from the machine's memory over all P.
add_test(NAME simulated.cli.error.memory_counts_every_simulated_rank
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/expect_error.sh --status 2
                 "for the 16 simulated ranks \\(all in this one process: SMPI\\)"
                 ${A2AFFT_SIMULATE} --platform test-cluster --ranks 16 --ranks-per-node 4 --
                 a2afft fft3d --size 2048 --exchange pairwise)
# The vendor rows in simulation (issue 46): SMPI's own algorithms, listed from SimGrid; the one
# the simulation was launched with (--alltoall) runs and passes --validate, another is one error
# saying to relaunch with --alltoall NAME.
add_test(NAME simulated.vendor_rows
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/simulated/vendor_rows.sh ${A2AFFT_SIMULATE})
# --stats osu where the platform refuses mpi's split phase (MPI_Ialltoall from 256 simulated
# ranks): the row keeps osu_alltoall's figures and says why it has no osu_ialltoall ones (5 s).
add_test(NAME simulated.osu_split_phase_refused_np256
         COMMAND ${A2AFFT_SIMULATE} --platform theta-like --ranks 256 -- a2afft alltoall -x mpi
                 --sizes 1 --iters 1 --warmup 0 --stats osu)
set_tests_properties(simulated.osu_split_phase_refused_np256 PROPERTIES PASS_REGULAR_EXPRESSION
  " +1 +mpi +[0-9.]+ [^\n]* +[0-9.]+ +[0-9.]+ +[0-9.]+ +- +- +- +-\nno osu_ialltoall figures: mpi: mpi's split phase \\(start\\(\\)/finish\\(\\): MPI_Ialltoall\\) cannot run in simulation on 256 ranks: ")
add_test(NAME simulated.hpcc_length
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/simulated/hpcc_length.sh ${A2AFFT_SIMULATE})
add_test(NAME simulated.cli.error.unknown_exchange
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/expect_error.sh --status 2
                 "unknown exchange 'bogus'; valid: mpi" ${A2AFFT_SIMULATE} --platform test-cluster
                 --ranks 4 -- a2afft alltoall --exchange bogus)
add_test(NAME simulated.simulate.bad_input
         COMMAND sh -c "${A2AFFT_SIMULATE} --platform test-cluster --ranks 200 -- a2afft list; echo exit=$?")
# SMPI's `pair` allgather calls MPI_Abort when P is not a power of two (a2afft plans with
# MPI_Allgather), and smpirun exits 0 all the same: scripts/simulate must fail the run. (Its
# `pair` alltoall is refused before the simulation: simulated.simulate.alltoall_pair_np96.)
add_test(NAME simulated.simulate.abort_fails
         COMMAND sh -c "${A2AFFT_SIMULATE} --platform test-cluster --ranks 3 --cfg=smpi/allgather:pair -- a2afft alltoall --exchange mpi --sizes 1KiB; echo exit=$?")
set_tests_properties(simulated.simulate.abort_fails PROPERTIES PASS_REGULAR_EXPRESSION
  "MPI_Abort was called.*smpirun exited 0 all the same, so this run fails\nexit=1")
# A rank count that is not a power of two (issue 43): 96 ranks on 2 nodes of 48
# (supermuc-ng-like). The default baseline there is ring (SMPI's pair needs a power of two), the
# reports say so, and mpi and tra pass --validate.
add_test(NAME simulated.simulate.default_alltoall_np96
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/simulated/default_alltoall_np96.sh ${A2AFFT_SIMULATE})
# A baseline the user names that cannot run on P ranks is one error line and exit 2 before the
# simulation (not SMPI's abort on every rank), naming the value and what is valid; so is an
# unknown name, listing SMPI's.
add_test(NAME simulated.simulate.alltoall_pair_np96
         COMMAND sh -c "${A2AFFT_SIMULATE} --platform supermuc-ng-like --ranks 96 --alltoall pair -- a2afft alltoall --exchange mpi --sizes 1KiB 2>&1; echo exit=$?")
set_tests_properties(simulated.simulate.alltoall_pair_np96 PROPERTIES PASS_REGULAR_EXPRESSION
  "^simulate: --alltoall pair cannot run on 96 ranks: pair exchanges with partner rank XOR step, so it needs a power of two; valid for 96 ranks: ring [a-z0-9_ ]*bruck[a-z0-9_ ]*\nexit=2")
add_test(NAME simulated.simulate.alltoall_2dmesh_np7
         COMMAND sh -c "${A2AFFT_SIMULATE} --platform test-cluster --ranks 7 --alltoall 2dmesh -- a2afft alltoall --exchange mpi --sizes 1KiB 2>&1; echo exit=$?")
set_tests_properties(simulated.simulate.alltoall_2dmesh_np7 PROPERTIES PASS_REGULAR_EXPRESSION
  "^simulate: --alltoall 2dmesh cannot run on 7 ranks: 2dmesh needs a factor of P from sqrt\\(P\\) to P/2; valid for 7 ranks: ring [a-z0-9_ ]*\nexit=2")
add_test(NAME simulated.simulate.alltoall_unknown
         COMMAND sh -c "${A2AFFT_SIMULATE} --platform test-cluster --ranks 6 --alltoall pairwise -- a2afft alltoall --exchange mpi --sizes 1KiB 2>&1; echo exit=$?")
set_tests_properties(simulated.simulate.alltoall_unknown PROPERTIES PASS_REGULAR_EXPRESSION
  "^simulate: unknown --alltoall 'pairwise'; SMPI 3\\.32's MPI_Alltoall algorithms are: pair [a-z0-9_ ]*ring[a-z0-9_ ]*\nexit=2")
set_tests_properties(simulated.reports_say_simulated simulated.fold_memory simulated.plan_only
                     simulated.vendor_rows simulated.osu_split_phase_refused_np256
                     simulated.nonblocking_bounded simulated.cli.error.nonblocking_batch_that_crashes_np256
                     simulated.cli.error.auto_measure_np256
                     simulated.cli.error.fold_memory_with_validate simulated.cli.error.unknown_exchange
                     simulated.cli.error.memory_counts_every_simulated_rank simulated.hpcc_length
                     simulated.simulate.bad_input simulated.simulate.abort_fails
                     simulated.simulate.default_alltoall_np96 simulated.simulate.alltoall_pair_np96
                     simulated.simulate.alltoall_2dmesh_np7 simulated.simulate.alltoall_unknown
                     PROPERTIES
                     TIMEOUT 120 LABELS simulated ENVIRONMENT A2AFFT_SMPI_BUILD=${CMAKE_BINARY_DIR})
set_tests_properties(simulated.simulate.bad_input PROPERTIES PASS_REGULAR_EXPRESSION
  "simulate: 200 ranks need 13 hosts; platform test-cluster has 8\nexit=2")
