/* A PMPI shim for tests of the benchmarks' `unstable` mark (issue 43): an injected delay, the
 * kind of outlier a slow spell on a shared machine makes. Loaded with LD_PRELOAD, it passes every
 * MPI_Alltoall to PMPI_Alltoall, and on rank 0 of MPI_COMM_WORLD it first sleeps
 * A2AFFT_TEST_SLOW_MS milliseconds in call number A2AFFT_TEST_SLOW_CALL (counted from 1; both
 * required, so a test that forgot them fails instead of passing on a machine's own noise). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long required(const char* name) {
  const char* text = getenv(name);
  char* end = NULL;
  const long value = text != NULL ? strtol(text, &end, 10) : 0;
  if (text == NULL || *end != '\0' || value <= 0) {
    fprintf(stderr, "slow_alltoall: %s must be a positive whole number, not '%s'\n", name,
            text != NULL ? text : "(unset)");
    exit(2);
  }
  return value;
}

int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  static long calls = 0;
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (++calls == required("A2AFFT_TEST_SLOW_CALL") && rank == 0) {
    const long milliseconds = required("A2AFFT_TEST_SLOW_MS");
    const struct timespec pause = {milliseconds / 1000, (milliseconds % 1000) * 1000000L};
    nanosleep(&pause, NULL);
  }
  return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}
