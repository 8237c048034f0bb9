# The vendor rows (mpi:alg=NAME, transpose/algorithms/vendor.cpp): a forced algorithm takes
# effect (vendor_forcing_test says how that is seen), and the forced rows pass the conformance
# suite. Open MPI's tuned module honours a forced algorithm only with
# coll_tuned_use_dynamic_rules, which it reads once at MPI_Init, so those runs set it; MPICH
# needs nothing, and its conformance.* runs above already include the rows.
add_executable(vendor_forcing_test vendor/vendor_forcing_test.cpp)
target_link_libraries(vendor_forcing_test PRIVATE a2afft_transpose a2afft_mpi_test_main
                                                  a2afft_warnings)

if(_a2afft_mpiexec_version MATCHES "Open MPI|OpenRTE")
  set(_vendor_env OMPI_MCA_coll_tuned_use_dynamic_rules=1)
  a2afft_add_mpi_test(NAME vendor.forcing TARGET vendor_forcing_test RANKS 3 4
                      ENV ${_vendor_env} LABELS conformance
                      ARGS --gtest_filter=OpenMpiForcing.two_proc*:VendorRows.*)
  a2afft_add_mpi_test(NAME vendor.refused_where_tuned_is_outranked TARGET vendor_forcing_test
                      RANKS 3 LABELS conformance
                      ENV ${_vendor_env} OMPI_MCA_coll_tuned_priority=0
                      ARGS --gtest_filter=OpenMpiForcing.outranked*)
  a2afft_add_mpi_test(NAME vendor.refused_without_dynamic_rules TARGET vendor_forcing_test
                      RANKS 2 LABELS conformance
                      ARGS --gtest_filter=OpenMpiForcing.without_dynamic_rules*)
  # Every layout of the conformance suite, the vendor rows only (Registry/Conformance.*/mpi_alg_*).
  set(_vendor_filter --gtest_filter=Registry/Conformance.*/mpi_alg_*)
  a2afft_add_mpi_test(NAME vendor.conformance.one_node TARGET exchange_conformance_test
                      RANKS 1 2 3 4 5 6 7 8 ENV ${_vendor_env} ARGS ${_vendor_filter}
                      LABELS conformance)
  a2afft_add_mpi_test(NAME vendor.conformance.nodes_of_2 TARGET exchange_conformance_test
                      RANKS 4 6 8 ENV ${_vendor_env} A2AFFT_RANKS_PER_NODE=2
                      ARGS ${_vendor_filter} LABELS conformance)
  a2afft_add_mpi_test(NAME vendor.conformance.nodes_3_1_2 TARGET exchange_conformance_test
                      RANKS 6 ENV ${_vendor_env} A2AFFT_NODE_SIZES=3,1,2
                      ARGS ${_vendor_filter} LABELS conformance)
  a2afft_add_mpi_test(NAME vendor.conformance.derived_types TARGET exchange_conformance_test
                      RANKS 3 ENV ${_vendor_env} A2AFFT_MPI_MAX_COUNT=7
                      ARGS ${_vendor_filter} LABELS conformance)
else()
  # At 2 ranks too: MPICH's ranks poll busily, and run-tests runs one rank per core by default.
  a2afft_add_mpi_test(NAME vendor.forcing TARGET vendor_forcing_test RANKS 2 3
                      LABELS conformance ARGS --gtest_filter=MpichForcing.*:VendorRows.*)
endif()

# `a2afft list` shows the vendor rows the running library offers, and `--exchange all` runs them
# (under Open MPI with the variable tuned needs; each row's name in the report names its
# algorithm).
a2afft_mpiexec_command(_vendor_launcher1 1)
add_test(NAME cli.list_offers_vendor_rows COMMAND ${_vendor_launcher1} $<TARGET_FILE:a2afft> list)
set_tests_properties(cli.list_offers_vendor_rows PROPERTIES LABELS cli TIMEOUT 60
                     ENVIRONMENT "${A2AFFT_MPI_TEST_ENV}"
                     PASS_REGULAR_EXPRESSION "Offered by this MPI library[^\n]*\n  mpi:alg=[a-z_]+\n")
a2afft_mpiexec_command(_vendor_launcher2 2)
add_test(NAME cli.all_runs_vendor_rows
         COMMAND ${_vendor_launcher2} $<TARGET_FILE:a2afft> alltoall --exchange all --sizes 16
                 --iters 2 --warmup 1 --validate)
set_tests_properties(cli.all_runs_vendor_rows PROPERTIES LABELS cli TIMEOUT 120
                     ENVIRONMENT "${A2AFFT_MPI_TEST_ENV};${_vendor_env}"
                     PASS_REGULAR_EXPRESSION " mpi\\(alg=[a-z_]+\\) +[0-9.]+ [^\n]* PASS\n")
