# The cost model's tests (issue 47). Included by tests/CMakeLists.txt (native builds: the terms
# against hand computation and the model's speed at P = 10^6, in the unit binary, label unit)
# and by tests/simulated.cmake (the simulated build: `model --measure` recovers the platform
# file's parameters, label simulated).
if(A2AFFT_SMPI)
  add_test(NAME simulated.model_measure_recovers_platform
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/simulated/model_measure.sh ${A2AFFT_SIMULATE}
                   ${CMAKE_SOURCE_DIR})
  set_tests_properties(simulated.model_measure_recovers_platform PROPERTIES TIMEOUT 300
                       LABELS simulated ENVIRONMENT A2AFFT_SMPI_BUILD=${CMAKE_BINARY_DIR})
  return()
endif()
target_sources(unit_tests PRIVATE unit/max_rate_model_test.cpp)

# A platform's published parameters as the model's machine (--parameters), its node terms in the
# header and each term's share in the table.
add_test(NAME cli.model_parameters_file
         COMMAND a2afft model -P 512 -Q 64 --block-bytes 16 --exchange tra:radix=2
                 --parameters ${CMAKE_SOURCE_DIR}/inputs/platforms/theta-like.json)
set_tests_properties(cli.model_parameters_file PROPERTIES LABELS cli TIMEOUT 60
  ENVIRONMENT "${A2AFFT_MPI_TEST_ENV}"
  PASS_REGULAR_EXPRESSION "intra-node 1.00 us \\+ 0.005 ns/B, inter-node 1.20 us \\+ 0.190 ns/B.*node terms \\(max-rate\\): injection 5.25 GB/s, copy unlimited per node.*latency % +overhead % +bandwidth % +injection % +copy %.*tra\\(radix=2\\) +9 +2304 ")
# Every backend at P = 10^6 answers in seconds (the unit test times each row's cost).
add_test(NAME cli.model_million_ranks
         COMMAND a2afft model -P 1000000 -Q 100 --block-bytes 1K
                 --parameters ${CMAKE_SOURCE_DIR}/inputs/platforms/dane-like.json)
set_tests_properties(cli.model_million_ranks PROPERTIES LABELS cli TIMEOUT 30
  ENVIRONMENT "${A2AFFT_MPI_TEST_ENV}" PASS_REGULAR_EXPRESSION "onmpml\\(leaders=1\\) +[0-9]+")
# A parameters file that is not JSON, or lacks a key, is one error naming the file and the key.
add_test(NAME cli.error.model_parameters_not_json
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/expect_error.sh --status 2
                 "--parameters=.*model.cmake is not JSON"
                 $<TARGET_FILE:a2afft> model -P 8 --parameters ${CMAKE_CURRENT_SOURCE_DIR}/model.cmake)
add_test(NAME cli.error.model_parameters_without_a_key
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/expect_error.sh --status 2
                 "--parameters=.*theta-tra-512.json has no number \"alpha_intra_seconds\"; expected the keys model --measure --json writes"
                 $<TARGET_FILE:a2afft> model -P 8 --parameters
                 ${CMAKE_SOURCE_DIR}/docs/results/simulated/theta-tra-512.json)
# A size factor not in SMPI's threshold:factor form is one error naming the file, key and entry.
add_test(NAME cli.error.model_parameters_bad_factor
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/expect_error.sh --status 2
                 "--parameters=.*model_bad_factors.json \"latency_factors\" has \"1426-1.61\"; expected threshold:factor entries"
                 $<TARGET_FILE:a2afft> model -P 8 --parameters
                 ${CMAKE_CURRENT_SOURCE_DIR}/cli/model_bad_factors.json)
add_test(NAME cli.error.model_measure_with_parameters
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/expect_error.sh --status 2
                 "--measure excludes --parameters"
                 $<TARGET_FILE:a2afft> model --measure --parameters x.json)
set_tests_properties(cli.error.model_parameters_not_json cli.error.model_parameters_without_a_key
                     cli.error.model_parameters_bad_factor
                     cli.error.model_measure_with_parameters
                     PROPERTIES LABELS cli TIMEOUT 60 ENVIRONMENT "${A2AFFT_MPI_TEST_ENV}")
# scripts/model-measure keeps each parameter's median over launches (stand-in launches whose
# parameters are known by hand); launches that disagree on P, or fail, are one error.
add_test(NAME cli.model_measure_median
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/cli/model_measure_median_test.py
                 ${CMAKE_SOURCE_DIR}/scripts/model-measure)
set_tests_properties(cli.model_measure_median PROPERTIES LABELS cli TIMEOUT 60)
