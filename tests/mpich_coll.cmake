# MPICH's own tests of the calls the drop-in catches (label preload), run under it with several
# backends, at 2 to 5 ranks, oversubscribed: correctness only. They come from MPICH's source
# (test/mpi/coll, with its MTest harness in test/mpi/util and include), Debian's own tarball of
# the MPICH it ships, downloaded once into the build tree at configure time and checked against
# the SHA-256 that Debian's source package lists; nothing of it is kept in this repository.
# alltoall1 (MPI_Alltoall on MTest's many communicators and types), alltoall1_nb (the same as
# MPI_Ialltoall, MPICH's USE_MTEST_NBC build), alltoallv and alltoallv0 (MPI_Alltoallv with
# empty blocks), nonblocking (every nonblocking collective, MPI_Ialltoall among them) and, where
# the MPI library has MPI 4's persistent collectives, p_alltoall and p_alltoallv. Included from
# tests/CMakeLists.txt after preload.cmake (report_check, the preload's check scripts).
set(mpich_version 4.0.2)
set(mpich_tarball mpich_${mpich_version}.orig.tar.xz)
set(mpich_url https://deb.debian.org/debian/pool/main/m/mpich/${mpich_tarball})
set(mpich_sha256 b27039f964afeb6b8a3e009c56b441cbe368c26d6d6476ad3bb7190996875860)
set(mpich_source ${CMAKE_BINARY_DIR}/_deps/mpich-${mpich_version}/test/mpi)
if(NOT EXISTS ${mpich_source}/coll/alltoall1.c)
  file(DOWNLOAD ${mpich_url} ${CMAKE_BINARY_DIR}/_deps/${mpich_tarball}
       EXPECTED_HASH SHA256=${mpich_sha256} STATUS mpich_download)
  list(GET mpich_download 0 mpich_download_code)
  if(mpich_download_code EQUAL 0)
    file(ARCHIVE_EXTRACT INPUT ${CMAKE_BINARY_DIR}/_deps/${mpich_tarball}
         DESTINATION ${CMAKE_BINARY_DIR}/_deps
         PATTERNS mpich-${mpich_version}/test/mpi/coll mpich-${mpich_version}/test/mpi/util
                  mpich-${mpich_version}/test/mpi/include)
    file(REMOVE ${CMAKE_BINARY_DIR}/_deps/${mpich_tarball})
  else()
    list(GET mpich_download 1 mpich_download_error)
    set(mpich_missing "could not download ${mpich_url}: ${mpich_download_error}")
  endif()
endif()

if(mpich_missing)
  # A test that cannot run here fails and says why, never skips.
  message(STATUS "MPICH's collective tests: ${mpich_missing}")
  add_test(NAME preload.mpich_coll.sources
           COMMAND ${CMAKE_COMMAND} -E echo "FAILED: MPICH's tests are missing: ${mpich_missing}")
  set_tests_properties(preload.mpich_coll.sources PROPERTIES LABELS preload WILL_FAIL FALSE
                       FAIL_REGULAR_EXPRESSION "FAILED")
  return()
endif()

add_library(mpich_mtest STATIC ${mpich_source}/util/mtest.c ${mpich_source}/util/mtest_common.c
                               ${mpich_source}/util/dtypes.c ${mpich_source}/util/mtest_single.c)
target_include_directories(mpich_mtest PUBLIC ${mpich_source}/include
                                              ${CMAKE_CURRENT_SOURCE_DIR}/preload/mpich)
target_link_libraries(mpich_mtest PUBLIC MPI::MPI_C)
set(mpich_programs alltoall1 alltoall1_nb alltoallv alltoallv0 nonblocking)
if(A2AFFT_HAVE_ALLTOALL_INIT)
  list(APPEND mpich_programs p_alltoall)
endif()
if(A2AFFT_HAVE_ALLTOALLV_INIT)
  list(APPEND mpich_programs p_alltoallv)
endif()
foreach(program IN LISTS mpich_programs)
  string(REGEX REPLACE "_nb$" "" source "${program}")
  add_executable(mpich_${program} ${mpich_source}/coll/${source}.c)
  target_link_libraries(mpich_${program} PRIVATE mpich_mtest)
  set_target_properties(mpich_${program} PROPERTIES OUTPUT_NAME ${program}
                        RUNTIME_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/mpich-coll)
endforeach()
target_compile_definitions(mpich_alltoall1_nb PRIVATE USE_MTEST_NBC)

# A2AFFT_ALLTOALL:A2AFFT_ALLTOALLV pairs (and nodes of 2 where a backend needs nodes), each backend
# once, the rank counts 2 to 5 among them: 1.5 to 3 s a test here (the np2 ones also run under
# MPICH). alltoallv0 and p_alltoallv use communicators of 3 ranks or more only, so at 2 ranks
# they would call nothing (with p_alltoallv, the np3 test took 77 s under MPICH, oversubscribed
# on 2 cores). Not auto: MTest makes dozens of communicators and block sizes, and auto plans each
# one by measuring (or, estimating, by measuring the links): 73 to 149 s a test; auto is run
# under the drop-in by preload.alltoallv.auto and the realapps.
set(mpich_pairs_np2 mpi@mpi@ nonblocking@neighbor@ pairwise@sparse@)
set(mpich_pairs_np3 tra@neighbor@)
set(mpich_pairs_np4 onmpml@node-aggregate@2)
set(mpich_pairs_np5 bruck@sparse@)
foreach(ranks 2 3 4 5)
  a2afft_mpiexec_command(launcher_mpich ${ranks})
  set(programs ${mpich_programs})
  if(ranks EQUAL 2)
    list(REMOVE_ITEM programs alltoallv0 p_alltoallv)
  endif()
  list(JOIN programs "," program_list)
  foreach(case IN LISTS mpich_pairs_np${ranks})
    string(REPLACE "@" ";" parts "${case}")
    list(GET parts 0 spec)
    list(GET parts 1 vspec)
    list(GET parts 2 per_node)
    set(layout "")
    if(per_node)
      set(layout "A2AFFT_RANKS_PER_NODE=${per_node}")
    endif()
    add_test(NAME preload.mpich_coll.${spec}.np${ranks}
             COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/preload/mpich_coll.sh $<TARGET_FILE:a2afft_mpi>
                     $<TARGET_FILE:report_check> ${CMAKE_CURRENT_BINARY_DIR}/mpich-coll
                     ${program_list} -- ${launcher_mpich})
    set_tests_properties(preload.mpich_coll.${spec}.np${ranks} PROPERTIES LABELS preload
                         TIMEOUT 180 ENVIRONMENT
                         "${A2AFFT_MPI_TEST_ENV};A2AFFT_ALLTOALL=${spec};A2AFFT_ALLTOALLV=${vspec};${layout}")
  endforeach()
endforeach()
