# Test helpers. MPI tests run under mpiexec with one ctest per rank count, oversubscribed with
# yield-when-idle (this is how 8 ranks fit on 2 cores), and always with a TIMEOUT so that a
# deadlock fails the test instead of hanging CI.

set(A2AFFT_TEST_TIMEOUT 120 CACHE STRING "Default TIMEOUT in seconds of each MPI test")

execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE _a2afft_mpiexec_version
                ERROR_QUIET)
# Open MPI needs flags and variables to oversubscribe, yield and run as root; MPICH's hydra
# oversubscribes by default and runs as root as it is, but its ranks poll busily unless told to
# yield (at 4 ranks on 2 loaded cores the conformance tests took about half as long with it).
if(_a2afft_mpiexec_version MATCHES "Open MPI|OpenRTE")
  set(A2AFFT_MPIEXEC_OVERSUBSCRIBE --oversubscribe --bind-to none --mca mpi_yield_when_idle 1)
  set(A2AFFT_MPI_TEST_ENV OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
                          OMPI_MCA_rmaps_base_oversubscribe=1)
else()
  set(A2AFFT_MPIEXEC_OVERSUBSCRIBE "")
  set(A2AFFT_MPI_TEST_ENV MPIR_CVAR_POLLS_BEFORE_YIELD=1)
endif()
# The command keeps FFTW's wisdom in a per-machine cache by default (--wisdom cache): tests keep
# theirs in the build tree, never in the home directory of whoever runs them.
list(APPEND A2AFFT_MPI_TEST_ENV A2AFFT_WISDOM_DIR=${CMAKE_BINARY_DIR}/wisdom-cache)
string(REPLACE ";" " " A2AFFT_MPIEXEC_OVERSUBSCRIBE_TEXT "${A2AFFT_MPIEXEC_OVERSUBSCRIBE}")
# Sanitized runs: every finding fails the test. Open MPI's own leaks (buffers it keeps until
# exit) are suppressed by library in tests/sanitize/lsan.supp, not by turning leak checks off;
# the slow unwinder records their stacks through libraries built without frame pointers, so
# the suppressions can see which library allocated. use_tls=0: clang 14's LeakSanitizer, at
# its exit-time scan under glibc 2.36, read a bogus dynamic-TLS range (a DTV entry of one of
# the MPI library's loaded modules: "DTLS 5 at 0xd18-0x400001e1a") and crashed in its tracer
# after every test had passed (conformance at 5 and 6 ranks, with no test run at all); threads'
# TLS is then not a root of the scan, and no leak report appeared without it.
set(A2AFFT_SANITIZER_ENV
    "ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:fast_unwind_on_malloc=0"
    "LSAN_OPTIONS=suppressions=${CMAKE_SOURCE_DIR}/tests/sanitize/lsan.supp:print_suppressions=0:use_tls=0"
    "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
if(A2AFFT_SANITIZE)
  # Built without sanitizers: mpirun (not instrumented) loads it too.
  add_library(a2afft_keep_modules SHARED ${CMAKE_SOURCE_DIR}/tests/sanitize/keep_modules.c)
  target_compile_options(a2afft_keep_modules PRIVATE -fno-sanitize=all)
  target_link_options(a2afft_keep_modules PRIVATE -fno-sanitize=all)
  list(APPEND A2AFFT_MPI_TEST_ENV ${A2AFFT_SANITIZER_ENV}
       "LD_PRELOAD=$<TARGET_FILE:a2afft_keep_modules>")
endif()

# The mpiexec prefix for `ranks` ranks, in OUT_VAR.
function(a2afft_mpiexec_command out_var ranks)
  set(${out_var} ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks}
      ${A2AFFT_MPIEXEC_OVERSUBSCRIBE} ${MPIEXEC_PREFLAGS} PARENT_SCOPE)
endfunction()

# a2afft_add_mpi_test(NAME name TARGET target RANKS 1 2 3 [ARGS ...] [ENV VAR=value ...]
#                     [LABELS ...] [TIMEOUT seconds])
# registers name.np<N> for every N in RANKS.
function(a2afft_add_mpi_test)
  cmake_parse_arguments(T "" "NAME;TARGET;TIMEOUT" "RANKS;ARGS;ENV;LABELS" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT ${A2AFFT_TEST_TIMEOUT})
  endif()
  foreach(ranks IN LISTS T_RANKS)
    a2afft_mpiexec_command(launcher ${ranks})
    set(test_name ${T_NAME}.np${ranks})
    add_test(NAME ${test_name} COMMAND ${launcher} $<TARGET_FILE:${T_TARGET}> ${T_ARGS})
    # 7 and 8 ranks (4 a core here, correctness only) also carry the label `wide`, which
    # ./scripts/run-tests leaves to its own step (-L wide) to stay within 12 minutes.
    set(width_label "")
    if(ranks GREATER_EQUAL 7)
      set(width_label ";wide")
    endif()
    set_tests_properties(${test_name} PROPERTIES
      TIMEOUT ${T_TIMEOUT}
      LABELS "mpi;${T_LABELS}${width_label}"
      ENVIRONMENT "${A2AFFT_MPI_TEST_ENV};${T_ENV}"
      PROCESSORS 2)
  endforeach()
endfunction()

# Open MPI's mpirun waits 2 s after any non-zero exit before it returns (SIGCONT, 1 s, SIGTERM,
# 1 s, SIGKILL, even to processes that have already exited); tests that expect a refusal set
# this so they take as long as the command itself.
if(_a2afft_mpiexec_version MATCHES "Open MPI|OpenRTE")
  set(A2AFFT_NO_KILL_WAIT_ENV OMPI_MCA_odls_base_sigkill_timeout=0)
else()
  set(A2AFFT_NO_KILL_WAIT_ENV "")
endif()

# a2afft_add_error_test(NAME name RANKS n REGEX regex [ENV VAR=value ...] COMMAND args...)
# passes when `mpirun a2afft args...` exits with code 2 and prints exactly one `a2afft: error:`
# line, matching REGEX. Most error cases run in process instead (tests/cli/error_cases_test.cpp).
function(a2afft_add_error_test)
  cmake_parse_arguments(T "" "NAME;RANKS;REGEX" "ENV;COMMAND" ${ARGN})
  if(NOT T_RANKS)
    set(T_RANKS 1)
  endif()
  a2afft_mpiexec_command(launcher ${T_RANKS})
  add_test(NAME cli.error.${T_NAME}
           COMMAND ${CMAKE_SOURCE_DIR}/tests/cli/expect_error.sh --status 2 "${T_REGEX}"
                   ${launcher} $<TARGET_FILE:a2afft> ${T_COMMAND})
  set_tests_properties(cli.error.${T_NAME} PROPERTIES
    TIMEOUT 60 LABELS "cli"
    ENVIRONMENT "${A2AFFT_MPI_TEST_ENV};${A2AFFT_NO_KILL_WAIT_ENV};${T_ENV}")
endfunction()
