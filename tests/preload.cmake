# The drop-in liba2afft_mpi.so (preload/, label preload): ordinary MPI programs, C and Fortran,
# built without a2afft, under LD_PRELOAD; received bytes against the library's own call, the
# log and the report (A2AFFT_REPORT) showing calls routed, not fallen back. Included from
# tests/CMakeLists.txt; real applications under the drop-in are in realapps.cmake.

# The drop-in MPI_Alltoall (preload/): an MPI program built without a2afft, under LD_PRELOAD,
# against PMPI_Alltoall byte for byte. Only MPI_IN_PLACE may fall back: strided datatypes, also
# on some ranks only, route through the staging copy (the report counts 32 calls routed).
add_executable(alltoall_user preload/alltoall_user.c)
target_link_libraries(alltoall_user PRIVATE MPI::MPI_C)
add_executable(report_check preload/report_check.cpp)
target_link_libraries(report_check PRIVATE nlohmann_json::nlohmann_json)
set(preload_check ${CMAKE_SOURCE_DIR}/tests/preload/check_run.sh $<TARGET_FILE:a2afft_mpi>
    $<TARGET_FILE:report_check> --)
a2afft_mpiexec_command(launcher_preload 4)
foreach(case "tra@tra\\(radix=2\\)@" "node-aware@node-aware\\(inner=pairwise\\)@A2AFFT_RANKS_PER_NODE=2"
             "onmpml@onmpml\\(leaders=1\\)@A2AFFT_RANKS_PER_NODE=2" "factor-hier@factor-hier@"
             "node-aware:inner=mpi@node-aware\\(inner=mpi\\)@A2AFFT_RANKS_PER_NODE=2")
  string(REPLACE "@" ";" parts "${case}")
  list(GET parts 0 spec)
  list(GET parts 1 expected)
  list(GET parts 2 layout)
  string(REGEX REPLACE "[:=]" "_" name "${spec}")
  add_test(NAME preload.${name}
           COMMAND ${preload_check} ${launcher_preload} -- $<TARGET_FILE:alltoall_user> --
                   "36 of 36 checks matched" "blocks: ${expected}"
                   "fallback to PMPI_Alltoall: MPI_IN_PLACE" --
                   --kind "MPI_Alltoall (C)" --min 32 --fallback "^MPI_IN_PLACE$")
  set_tests_properties(preload.${name} PROPERTIES LABELS preload TIMEOUT 120 ENVIRONMENT
                       "${A2AFFT_MPI_TEST_ENV};A2AFFT_ALLTOALL=${spec};A2AFFT_ALLTOALL_LOG=1;${layout}")
endforeach()
# Without A2AFFT_ALLTOALL every call goes to the library untouched (and nothing is logged).
add_test(NAME preload.unset
         COMMAND ${CMAKE_SOURCE_DIR}/tests/preload/expect_output.sh $<TARGET_FILE:a2afft_mpi>
                 ${launcher_preload} $<TARGET_FILE:alltoall_user> -- "36 of 36 checks matched")
set_tests_properties(preload.unset PROPERTIES LABELS preload TIMEOUT 120
                     ENVIRONMENT "${A2AFFT_MPI_TEST_ENV};A2AFFT_ALLTOALL_LOG=1"
                     FAIL_REGULAR_EXPRESSION "a2afft:")
# A bad spec is an error at the first call, not a fallback.
add_test(NAME preload.bad_spec
         COMMAND ${CMAKE_SOURCE_DIR}/tests/cli/expect_error.sh
                 "A2AFFT_ALLTOALL=tra:radix=9: tra: radix=9 is not valid"
                 env LD_PRELOAD=$<TARGET_FILE:a2afft_mpi> ${launcher_preload}
                 $<TARGET_FILE:alltoall_user>)
set_tests_properties(preload.bad_spec PROPERTIES LABELS preload TIMEOUT 60
                     ENVIRONMENT "${A2AFFT_MPI_TEST_ENV};A2AFFT_ALLTOALL=tra:radix=9")

# MPI_Alltoallv against PMPI_Alltoallv byte for byte (uneven counts, empty peers, a silent
# rank, gaps, one rank alone with a new pattern, all-empty calls) on 1 to 5 ranks; the vector
# type and MPI_IN_PLACE must fall back, and nothing else may.
add_executable(alltoallv_user preload/alltoallv_user.c)
target_link_libraries(alltoallv_user PRIVATE MPI::MPI_C)
set(alltoallv_checks "168 of 168 checks matched PMPI_Alltoallv byte for byte" --
    --kind "MPI_Alltoallv (C)" --min 40 --fallback "^sendtype is not contiguous$"
    --fallback "^MPI_IN_PLACE$")
foreach(ranks 1 2 3 4 5)
  a2afft_mpiexec_command(launcher_v ${ranks})
  add_test(NAME preload.alltoallv.sparse.np${ranks}
           COMMAND ${preload_check} ${launcher_v} -- $<TARGET_FILE:alltoallv_user> --
                   "pattern [0-9]+: sparse\\(batch=" ${alltoallv_checks})
  set_tests_properties(preload.alltoallv.sparse.np${ranks} PROPERTIES LABELS preload TIMEOUT 120
                       ENVIRONMENT "${A2AFFT_MPI_TEST_ENV};A2AFFT_ALLTOALLV=sparse;A2AFFT_ALLTOALL_LOG=1")
endforeach()
a2afft_mpiexec_command(launcher_v4 4)
foreach(case "mpi@mpi@" "neighbor@neighbor@" "node-aggregate@node-aggregate@A2AFFT_RANKS_PER_NODE=2"
             "auto@auto→@")
  string(REPLACE "@" ";" parts "${case}")
  list(GET parts 0 spec)
  list(GET parts 1 expected)
  list(GET parts 2 layout)
  add_test(NAME preload.alltoallv.${spec}
           COMMAND ${preload_check} ${launcher_v4} -- $<TARGET_FILE:alltoallv_user> --
                   "pattern [0-9]+: ${expected}" ${alltoallv_checks})
  set_tests_properties(preload.alltoallv.${spec} PROPERTIES LABELS preload TIMEOUT 180 ENVIRONMENT
                       "${A2AFFT_MPI_TEST_ENV};A2AFFT_ALLTOALLV=${spec};A2AFFT_ALLTOALL_LOG=1;${layout}")
endforeach()
# A uniform spec serves the uniform calls only; the others fall back with its refusal.
add_test(NAME preload.alltoallv.pairwise
         COMMAND ${preload_check} ${launcher_v4} -- $<TARGET_FILE:alltoallv_user> --
                 "168 of 168 checks matched" "pattern [0-9]+: pairwise" --
                 --kind "MPI_Alltoallv (C)" --min 4 --fallback "not contiguous" --fallback "^MPI_IN_PLACE$"
                 --fallback "a uniform backend moves equal blocks" --fallback "every count is 0")
set_tests_properties(preload.alltoallv.pairwise PROPERTIES LABELS preload TIMEOUT 120 ENVIRONMENT
                     "${A2AFFT_MPI_TEST_ENV};A2AFFT_ALLTOALLV=pairwise;A2AFFT_ALLTOALL_LOG=1")
# The plan cache: 3 patterns in turn, 4 times. Each pattern is planned once (3 plans); with room
# for 2 plans, the least recently used one is always the one needed next (12 plans), and the
# evicted plans are freed on every rank at the same call (no hang, every byte right).
a2afft_mpiexec_command(launcher_v3 3)
foreach(case "default@3@" "bound_2@12@A2AFFT_ALLTOALLV_CACHE=2")
  string(REPLACE "@" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 plans)
  list(GET parts 2 bound)
  add_test(NAME preload.alltoallv_cache.${name}
           COMMAND ${preload_check} ${launcher_v3} -- $<TARGET_FILE:alltoallv_user> --cycle 4 --
                   "12 of 12 checks matched" -- --kind "MPI_Alltoallv (C)" --min 12 --plans ${plans})
  set_tests_properties(preload.alltoallv_cache.${name} PROPERTIES LABELS preload TIMEOUT 120
                       ENVIRONMENT "${A2AFFT_MPI_TEST_ENV};A2AFFT_ALLTOALLV=neighbor;${bound}")
endforeach()

# Fortran: mpif.h, use mpi and use mpi_f08 programs (built at test time with the build MPI's
# mpifort), whose MPI_ALLTOALL(V) must reach the backends and whose MPI_IN_PLACE and MPI_BOTTOM
# (Fortran's own constants) must be recognised.
string(REGEX REPLACE "mpicc([^/]*)$" "mpifort\\1" preload_mpifort "${MPI_C_COMPILER}")
a2afft_mpiexec_command(launcher_f3 3)
foreach(case "mpif_h@1@tra@sparse@" "use_mpi@2@tra@sparse@" "mpi_f08@3@tra@sparse@"
             "mpif_h.nodes@1@node-aware@node-aggregate@A2AFFT_RANKS_PER_NODE=2")
  string(REPLACE "@" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 binding)
  list(GET parts 2 spec)
  list(GET parts 3 vspec)
  list(GET parts 4 layout)
  set(launcher_f ${launcher_f3})
  if(layout)
    a2afft_mpiexec_command(launcher_f 4)
  endif()
  # MPI_IN_PLACE falls back, the report's only fallback; MPI_ALLTOALL from MPI_BOTTOM (a type at
  # an absolute address) routes through the staging copy, so its values prove the recognition.
  add_test(NAME preload.fortran.${name}
           COMMAND ${CMAKE_SOURCE_DIR}/tests/preload/fortran_check.sh ${preload_mpifort}
                   ${CMAKE_SOURCE_DIR}/tests/preload/alltoall_fortran.F90 ${binding}
                   $<TARGET_FILE:a2afft_mpi> $<TARGET_FILE:report_check> -- ${launcher_f} --
                   "24 of 24 checks matched" "MPI_Alltoall on .* B blocks: "
                   "MPI_Alltoallv on .*, pattern [0-9]+: "
                   "MPI_Alltoall \\({caught}\\): fallback to PMPI_Alltoall: MPI_IN_PLACE"
                   "MPI_Alltoallv \\({caught}\\): fallback to PMPI_Alltoallv: MPI_IN_PLACE" --
                   --kind "MPI_Alltoall ({caught})" --min 12 --fallback "^MPI_IN_PLACE$"
                   --kind "MPI_Alltoallv ({caught})" --min 4 --fallback "^MPI_IN_PLACE$")
  set_tests_properties(preload.fortran.${name} PROPERTIES LABELS preload TIMEOUT 180 ENVIRONMENT
                       "${A2AFFT_MPI_TEST_ENV};A2AFFT_ALLTOALL=${spec};A2AFFT_ALLTOALLV=${vspec};A2AFFT_ALLTOALL_LOG=1;${layout}")
endforeach()

# Fortran MPI_IALLTOALL (tests/preload/ialltoall_fortran.F90) in each binding, completed through
# each of the Fortran MPI_WAIT/TEST family beside point-to-point requests, two in flight, from
# MPI_BOTTOM: nonblocking and mpi have a split phase and must route all 22 calls on world and the
# split, with the library's MPI_IN_PLACE the only fallback; tra has none and must leave each to
# the library, saying why. 3 ranks: the split has a communicator of 2 and one of 1.
foreach(case "mpif_h@1@nonblocking@MPI_Ialltoall on .* B blocks: nonblocking"
             "use_mpi@2@nonblocking@MPI_Ialltoall on .* B blocks: nonblocking"
             "mpi_f08@3@nonblocking@MPI_Ialltoall on .* B blocks: nonblocking"
             "mpi_f08.mpi@3@mpi@MPI_Ialltoall on .* B blocks: mpi"
             "mpif_h.tra@1@tra@fallback to PMPI_Ialltoall: tra\\(radix=2\\) has no split phase")
  string(REPLACE "@" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 binding)
  list(GET parts 2 spec)
  list(GET parts 3 expected)
  set(report --kind "MPI_Ialltoall ({caught})" --min 22 --fallback "^MPI_IN_PLACE$")
  set(persistent --kind "MPI_Alltoall_init ({caught})" --min 2 --kind "MPI_Start (C)" --min 12)
  if(spec STREQUAL "tra")
    set(report --kind "MPI_Ialltoall ({caught})" --min 0 --fallback "^MPI_IN_PLACE$"
               --fallback "has no split phase")
    set(persistent --kind "MPI_Alltoall_init ({caught})" --min 0 --fallback "has no split phase"
                   --kind "MPI_Start (C)" --min 6)
  endif()
  # MPI 4 libraries (MPICH here): MPI_ALLTOALL_INIT and MPI_ALLTOALLV_INIT too, 3 starts each.
  set(flags "")
  if(A2AFFT_HAVE_ALLTOALL_INIT AND A2AFFT_HAVE_ALLTOALLV_INIT)
    set(flags -DPERSISTENT)
    list(APPEND report ${persistent} --kind "MPI_Alltoallv_init ({caught})" --min 2)
  endif()
  add_test(NAME preload.fortran_nb.${name}
           COMMAND ${CMAKE_SOURCE_DIR}/tests/preload/fortran_check.sh ${preload_mpifort}
                   ${CMAKE_SOURCE_DIR}/tests/preload/ialltoall_fortran.F90 ${binding}
                   $<TARGET_FILE:a2afft_mpi> $<TARGET_FILE:report_check> ${flags} -- ${launcher_f3} --
                   "ialltoall_fortran \\(.*\\): ([0-9]+) of \\1 checks matched" "${expected}"
                   "MPI_Ialltoall \\({caught}\\): fallback to PMPI_Ialltoall: MPI_IN_PLACE"
                   -- ${report})
  set_tests_properties(preload.fortran_nb.${name} PROPERTIES LABELS preload TIMEOUT 180 ENVIRONMENT
                       "${A2AFFT_MPI_TEST_ENV};A2AFFT_ALLTOALL=${spec};A2AFFT_ALLTOALLV=sparse;A2AFFT_ALLTOALL_LOG=1${library_testall}")
endforeach()

# MPI_Ialltoall (and MPI_Alltoall_init and MPI_Alltoallv_init where the MPI library has them,
# MPICH here; the latter through A2AFFT_ALLTOALLV=sparse) completed
# through every call of the MPI_Wait/Test family, mixed with point-to-point requests, two in
# flight on one plan, a strided type on some ranks: byte for byte against PMPI_Alltoall
# (tests/preload/ialltoall_user.c). nonblocking and mpi have a split phase and must route every
# call; tra has none and must leave each to the library, saying why.
add_executable(ialltoall_user preload/ialltoall_user.c)
target_link_libraries(ialltoall_user PRIVATE MPI::MPI_C)
foreach(case "nonblocking@4@MPI_Ialltoall on .* B blocks: nonblocking"
             "nonblocking.np3@3@MPI_Ialltoall on .* B blocks: nonblocking"
             "nonblocking.np2@2@MPI_Ialltoall on .* B blocks: nonblocking"
             "mpi@2@MPI_Ialltoall on .* B blocks: mpi"
             "tra@4@fallback to PMPI_Ialltoall: tra\\(radix=2\\) has no split phase")
  string(REPLACE "@" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 ranks)
  list(GET parts 2 expected)
  string(REGEX REPLACE "\\..*" "" spec "${name}")
  set(report --kind "MPI_Ialltoall (C)" --min 36)  # 18 calls on world and on the split
  set(starts 0)
  if(A2AFFT_HAVE_ALLTOALL_INIT)  # 1 call and 3 starts on world and on the split
    list(APPEND report --kind "MPI_Alltoall_init (C)" --min 2)
    math(EXPR starts "${starts} + 6")
  endif()
  if(A2AFFT_HAVE_ALLTOALLV_INIT)  # as many of MPI_Alltoallv_init, through sparse
    list(APPEND report --kind "MPI_Alltoallv_init (C)" --min 2)
    math(EXPR starts "${starts} + 6")
  endif()
  if(starts GREATER 0)
    list(APPEND report --kind "MPI_Start (C)" --min ${starts})
  endif()
  set(library_testall "")
  if(spec STREQUAL "tra")
    set(report --kind "MPI_Ialltoall (C)" --min 0 --fallback "has no split phase")
    # MPICH 4.0.2's MPI_Testall aborts on its own persistent collectives, which tra leaves to it.
    if(_a2afft_mpiexec_version MATCHES "HYDRA")
      set(library_testall ";IALLTOALL_USER_LIBRARY_TESTALL_BROKEN=1")
    endif()
  endif()
  a2afft_mpiexec_command(launcher_i ${ranks})
  add_test(NAME preload.ialltoall.${name}
           COMMAND ${preload_check} ${launcher_i} -- $<TARGET_FILE:ialltoall_user> --
                   "ialltoall_user: ([0-9]+) of \\1 checks matched" "${expected}" -- ${report})
  set_tests_properties(preload.ialltoall.${name} PROPERTIES LABELS preload TIMEOUT 120 ENVIRONMENT
                       "${A2AFFT_MPI_TEST_ENV};A2AFFT_ALLTOALL=${spec};A2AFFT_ALLTOALLV=sparse;A2AFFT_ALLTOALL_LOG=1${library_testall}")
endforeach()

# The drop-in's cost per call against the same backend through the library (a measuring tool,
# tests/preload/overhead.c; numbers in docs/results/preload-overhead.md): here only that it runs every
# block size and its MPI_Alltoall calls are routed (the report: none falls back).
add_executable(preload_overhead preload/overhead.c)
target_link_libraries(preload_overhead PRIVATE a2afft::a2afft MPI::MPI_C)
# Linked as C++: the sanitized build's liba2afft needs UBSan's C++ runtime, which a C link omits.
set_target_properties(preload_overhead PROPERTIES LINKER_LANGUAGE CXX)
a2afft_mpiexec_command(launcher_overhead 2)
add_test(NAME preload.overhead_tool
         COMMAND ${preload_check} ${launcher_overhead} -- $<TARGET_FILE:preload_overhead> 3 --
                 "drop-in overhead: pairwise on 2 ranks" "^ +1048576 +[0-9.]+ +[0-9.]+ +[0-9.]+ +-?[0-9.]+%$" --
                 --kind "MPI_Alltoall (C)" --min 27)
set_tests_properties(preload.overhead_tool PROPERTIES LABELS preload TIMEOUT 120 ENVIRONMENT
                     "${A2AFFT_MPI_TEST_ENV};A2AFFT_ALLTOALL=pairwise")

# Bad input: one clear line naming the variable and what is valid, never a fallback or a hang.
foreach(case "bad_alltoallv_spec@A2AFFT_ALLTOALLV=sparse:batch=1,width=2@A2AFFT_ALLTOALLV=sparse:batch=1,width=2: sparse has no parameter 'width'; valid: batch"
             "unknown_alltoallv_spec@A2AFFT_ALLTOALLV=sparce@A2AFFT_ALLTOALLV=sparce: unknown exchange 'sparce'.*variable-size exchanges also take mpi, neighbor, sparse, node-aggregate, auto"
             "bad_report_path@A2AFFT_REPORT=/nonexistent/dir/report.json@A2AFFT_REPORT=/nonexistent/dir/report.json: cannot write it: No such file or directory"
             "bad_log_value@A2AFFT_ALLTOALL_LOG=yes@A2AFFT_ALLTOALL_LOG=yes: valid values are 0 and 1"
             "bad_cache_bound@A2AFFT_ALLTOALLV_CACHE=0@A2AFFT_ALLTOALLV_CACHE=0: valid values are whole numbers from 1 to 4096")
  string(REPLACE "@" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 setting)
  list(GET parts 2 expected)
  add_test(NAME preload.${name}
           COMMAND ${CMAKE_SOURCE_DIR}/tests/cli/expect_error.sh "${expected}"
                   ${launcher_v3} env LD_PRELOAD=$<TARGET_FILE:a2afft_mpi> ${setting}
                   $<TARGET_FILE:alltoallv_user>)
  set_tests_properties(preload.${name} PROPERTIES LABELS preload TIMEOUT 60
                       ENVIRONMENT "${A2AFFT_MPI_TEST_ENV};A2AFFT_ALLTOALLV=neighbor")
endforeach()
