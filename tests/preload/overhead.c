/* The drop-in's cost per call: MPI_Alltoall through liba2afft_mpi.so (run this program under
 * LD_PRELOAD with A2AFFT_ALLTOALL=<spec>) against the same backend called through the library
 * (a2afft_exchange_run, C API) and against the vendor's PMPI_Alltoall, in one launch.
 *
 * usage: preload_overhead [REPEATS]   (A2AFFT_ALLTOALL names the backend; default repeats 101)
 *
 * For each block size from 16 B to 1 MiB (powers of 4), REPEATS rounds; each round times a batch
 * of calls of each of the three, in a rotating order, after a barrier; a batch's time per call is
 * the slowest rank's. Printed: the median over rounds, and the drop-in's overhead over the
 * library, (drop-in - library) / library. Both run the same plan code; the difference is what
 * the drop-in adds (argument checks, its cache, the report's counting when asked for). Not a
 * timed test: a measuring tool (docs/results/preload-overhead.md). */
#include <a2afft/a2afft.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kVendor, kLibrary, kDropIn, kWays };
static const char* const kWayNames[kWays] = {"PMPI_Alltoall", "library", "drop-in"};

static int compare_doubles(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

/* Seconds per call of `calls` calls of one way, the slowest rank's. */
static double time_batch(int way, a2afft_exchange exchange, const char* send, char* recv,
                         int block_bytes, int calls) {
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (int i = 0; i < calls; ++i) {
    if (way == kVendor) {
      PMPI_Alltoall(send, block_bytes, MPI_BYTE, recv, block_bytes, MPI_BYTE, MPI_COMM_WORLD);
    } else if (way == kLibrary) {
      a2afft_exchange_run(exchange, send, recv);
    } else {
      MPI_Alltoall(send, block_bytes, MPI_BYTE, recv, block_bytes, MPI_BYTE, MPI_COMM_WORLD);
    }
  }
  double mine = (MPI_Wtime() - start) / calls, slowest = 0;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

/* Medians over `repeats` rounds of each way at one block size, in `medians`. */
static int measure_size(const char* spec, int block_bytes, int repeats, double* medians) {
  int ranks;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  a2afft_exchange exchange = NULL;
  if (a2afft_exchange_create(MPI_COMM_WORLD, (size_t)block_bytes, spec, &exchange) !=
      A2AFFT_SUCCESS) {
    fprintf(stderr, "preload_overhead: %s\n", a2afft_error_message());
    return 1;
  }
  const size_t bytes = (size_t)block_bytes * ranks;
  char* send = malloc(bytes);
  char* recv = malloc(bytes);
  memset(send, 1, bytes);
  /* About 2 ms of work per batch, at least one call. */
  const int calls = block_bytes >= 65536 ? 1 : block_bytes >= 4096 ? 8 : 64;
  double* samples = malloc(sizeof(double) * kWays * repeats);
  for (int way = 0; way < kWays; ++way) /* warm up: plans made, pages touched */
    time_batch(way, exchange, send, recv, block_bytes, calls);
  for (int round = 0; round < repeats; ++round) {
    for (int k = 0; k < kWays; ++k) {
      const int way = (round + k) % kWays;
      samples[way * repeats + round] = time_batch(way, exchange, send, recv, block_bytes, calls);
    }
  }
  for (int way = 0; way < kWays; ++way) {
    qsort(samples + way * repeats, repeats, sizeof(double), compare_doubles);
    medians[way] = samples[way * repeats + repeats / 2];
  }
  free(samples);
  free(send);
  free(recv);
  a2afft_exchange_destroy(&exchange);
  return 0;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, ranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const char* spec = getenv("A2AFFT_ALLTOALL");
  const int repeats = argc > 1 ? atoi(argv[1]) : 101;
  if (spec == NULL || *spec == '\0' || repeats < 1) {
    if (rank == 0)
      fprintf(stderr,
              "usage: A2AFFT_ALLTOALL=<spec> LD_PRELOAD=liba2afft_mpi.so "
              "preload_overhead [REPEATS >= 1]\n");
    MPI_Finalize();
    return 2;
  }
  if (rank == 0) {
    printf("# drop-in overhead: %s on %d ranks, %d rounds, medians [us per call]\n", spec, ranks,
           repeats);
    printf("%12s %14s %14s %14s %10s\n", "block_bytes", kWayNames[0], kWayNames[1], kWayNames[2],
           "overhead");
  }
  int failed = 0;
  for (int block_bytes = 16; block_bytes <= (1 << 20) && !failed; block_bytes *= 4) {
    double medians[kWays];
    failed = measure_size(spec, block_bytes, repeats, medians);
    if (!failed && rank == 0)
      printf("%12d %14.2f %14.2f %14.2f %9.1f%%\n", block_bytes, medians[kVendor] * 1e6,
             medians[kLibrary] * 1e6, medians[kDropIn] * 1e6,
             100.0 * (medians[kDropIn] - medians[kLibrary]) / medians[kLibrary]);
  }
  MPI_Finalize();
  return failed;
}
