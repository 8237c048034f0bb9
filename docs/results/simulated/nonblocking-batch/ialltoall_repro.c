/* The smallest reproducer of SMPI 3.32's crash on all-at-once exchanges (issue 31): one
 * MPI_Ialltoall of 1000-byte blocks on 256 simulated ranks (theta-like, 4 hosts of 64) dies with
 * SIGSEGV in SimGrid's flow solver (lmm::MaxMin::do_solve) after 52 s of wall time here; with
 * --cfg=maxmin/precision:1e-4 it ran 300 s without crashing or finishing (stopped). No a2afft
 * code is involved. Built and run as:
 *   smpicc -O2 -o ia ialltoall_repro.c
 *   (hostfile: theta-0 .. theta-3, 64 lines each)
 *   smpirun -np 256 -platform inputs/platforms/theta-like.xml -hostfile hosts256 \
 *       --cfg=smpi/host-speed:1Gf ./ia 1000
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* One MPI_Ialltoall of B-byte blocks, then MPI_Wait; checks every byte. */
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int block = argc > 1 ? atoi(argv[1]) : 1000;
  unsigned char* send = malloc((size_t)size * block);
  unsigned char* recv = malloc((size_t)size * block);
  for (int d = 0; d < size; ++d)
    for (int b = 0; b < block; ++b) send[(size_t)d * block + b] = (unsigned char)(rank * 7 + d * 3 + b);
  MPI_Request request;
  MPI_Ialltoall(send, block, MPI_BYTE, recv, block, MPI_BYTE, MPI_COMM_WORLD, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  long bad = 0;
  for (int s = 0; s < size; ++s)
    for (int b = 0; b < block; ++b) bad += recv[(size_t)s * block + b] != (unsigned char)(s * 7 + rank * 3 + b);
  long total = 0;
  MPI_Reduce(&bad, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("ialltoall P=%d block=%d wrong bytes=%ld\n", size, block, total);
  free(send); free(recv);
  MPI_Finalize();
  return 0;
}
