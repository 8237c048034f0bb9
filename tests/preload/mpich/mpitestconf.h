/* What MPICH's test suite (test/mpi) would learn from its configure script, for the few of its
 * collective tests tests/mpich_coll.cmake builds: Debian, glibc, POSIX threads. */
#ifndef MPITESTCONF_H_INCLUDED
#define MPITESTCONF_H_INCLUDED
#define HAVE_STDLIB_H 1
#define HAVE_STRING_H 1
#define HAVE_STDINT_H 1
#define HAVE_INTTYPES_H 1
#define HAVE_UNISTD_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_SYS_RESOURCE_H 1
#define HAVE_GETRUSAGE 1
#define HAVE_USLEEP 1
#define HAVE_LONG_LONG 1
#define HAVE_LONG_DOUBLE 1
#define HAVE_STDARG_H 1
#define HAVE_STRDUP 1
#define HAVE_MPI_WIN_CREATE 1
#define HAVE_PTHREAD_H 1
#define THREAD_PACKAGE_NAME THREAD_PACKAGE_POSIX
#endif
