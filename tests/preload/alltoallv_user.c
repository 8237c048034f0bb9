/* An ordinary MPI program, built without a2afft: it calls MPI_Alltoallv on MPI_COMM_WORLD and on
 * a split with uneven counts, empty peers, a silent rank, all-empty calls, displacements with
 * gaps in reverse order, one rank changing its displacements alone, and several datatypes, and
 * compares every received byte (gaps included) with PMPI_Alltoallv on the same data; a rank with
 * nothing to send or receive passes NULL there, as programs do. Each call
 * runs twice with other data, so cached plans run again. The vector type and MPI_IN_PLACE must
 * fall back to the library and still be right. Exit status 0 when every call matched.
 * With --cycle N it only cycles N times through 3 patterns on MPI_COMM_WORLD (MPI_BYTE): the
 * plan cache's eviction test (A2AFFT_ALLTOALLV_CACHE=2 must re-plan every call). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum Shape { UNEVEN, ONE_SILENT, ALL_EMPTY, PACKED, GAPS, RANK0_GAPS, UNIFORM, SHAPES };
static const char* shape_names[] = {"uneven", "rank 1 silent",       "all empty", "packed",
                                    "gaps",   "gaps on rank 0 only", "uniform"};

/* Elements rank i sends rank j (j receives as many from i). */
static int count_of(enum Shape s, int i, int j) {
  switch (s) {
    case UNEVEN:
      return (3 * i + 5 * j + 1) % 4; /* 0..3: empty peers on every rank count > 1 */
    case ONE_SILENT:
      return (i == 1 || j == 1) ? 0 : 1 + (i + j) % 3;
    case ALL_EMPTY:
      return 0;
    case UNIFORM:
      return 2;
    default:
      return 1 + (i + 2 * j) % 3;
  }
}

/* Displacements (elements): packed in rank order, or in reverse rank order with a gap of one
 * element before each peer. Returns the span in elements. */
static int displs_of(enum Shape s, int rank, const int* counts, int ranks, int* displs) {
  const int gaps = s == GAPS || (s == RANK0_GAPS && rank == 0);
  int at = 0;
  for (int k = 0; k < ranks; ++k) {
    const int j = gaps ? ranks - 1 - k : k;
    at += gaps;
    displs[j] = at;
    at += counts[j];
  }
  return at;
}

static unsigned char pattern(int rank, size_t byte, int salt) {
  uint64_t x = ((uint64_t)rank << 40) ^ byte ^ ((uint64_t)salt << 60);
  x *= 0x9E3779B97F4A7C15ull;
  return (unsigned char)(x >> 56);
}

struct Case {
  const char* name;
  MPI_Datatype send_type, recv_type;
  int recv_scale; /* receive elements per send element */
  int in_place;
};

/* Runs one case and shape on `comm`; returns the number of mismatching bytes. */
static long run_case(const struct Case* c, enum Shape s, MPI_Comm comm, int salt) {
  int rank, ranks;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  int* sc = malloc(4 * sizeof(int) * ranks);
  int *sd = sc + ranks, *rc = sd + ranks, *rd = rc + ranks;
  for (int j = 0; j < ranks; ++j) {
    sc[j] = count_of(s, rank, j);
    rc[j] = count_of(s, j, rank) * c->recv_scale;
  }
  const int send_span = displs_of(s, rank, sc, ranks, sd);
  const int recv_span = displs_of(s, rank, rc, ranks, rd);
  MPI_Aint lb, send_extent, recv_extent;
  MPI_Type_get_extent(c->send_type, &lb, &send_extent);
  MPI_Type_get_extent(c->recv_type, &lb, &recv_extent);
  const size_t send_bytes = (size_t)send_extent * send_span + 1;
  const size_t recv_bytes = (size_t)recv_extent * recv_span + 1;
  unsigned char* send = malloc(send_bytes);
  unsigned char* got = malloc(recv_bytes);
  unsigned char* expected = malloc(recv_bytes);
  for (size_t b = 0; b < send_bytes; ++b)
    send[b] = pattern(rank, b, salt);
  for (size_t b = 0; b < recv_bytes; ++b)
    got[b] = expected[b] = c->in_place ? pattern(rank, b, salt) : 0xa5;
  /* A rank that sends or receives nothing passes NULL there, as programs do: still routed. */
  const void* from = c->in_place ? MPI_IN_PLACE : send_span == 0 ? NULL : send;
  MPI_Alltoallv(from, sc, sd, c->send_type, recv_span == 0 ? NULL : got, rc, rd, c->recv_type,
                comm);
  PMPI_Alltoallv(from, sc, sd, c->send_type, recv_span == 0 ? NULL : expected, rc, rd, c->recv_type,
                 comm);
  long bad = 0;
  for (size_t b = 0; b < recv_bytes; ++b)
    bad += got[b] != expected[b];
  free(send);
  free(got);
  free(expected);
  free(sc);
  return bad;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int cycles = argc > 2 && strcmp(argv[1], "--cycle") == 0 ? atoi(argv[2]) : 0;
  int world_rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm halves;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, world_rank, &halves);
  MPI_Datatype three_ints, strided;
  MPI_Type_contiguous(3, MPI_INT, &three_ints);
  MPI_Type_commit(&three_ints);
  MPI_Type_vector(3, 2, 4, MPI_DOUBLE, &strided); /* holes: must fall back */
  MPI_Type_commit(&strided);
  const struct Case cases[] = {
      {"MPI_BYTE", MPI_BYTE, MPI_BYTE, 1, 0},
      {"MPI_DOUBLE", MPI_DOUBLE, MPI_DOUBLE, 1, 0},
      {"contiguous(3, MPI_INT)", three_ints, three_ints, 1, 0},
      {"MPI_DOUBLE to MPI_BYTE", MPI_DOUBLE, MPI_BYTE, 8, 0},
      {"vector(3, 2, 4, MPI_DOUBLE)", strided, strided, 1, 0},
      {"MPI_IN_PLACE", MPI_INT, MPI_INT, 1, 1},
  };
  /* PACKED, then RANK0_GAPS (rank 0 alone has a new pattern), then PACKED again (the ranks
   * remember different plans for it): the ranks must still agree on one plan. */
  const enum Shape shapes[] = {UNEVEN, ONE_SILENT, ALL_EMPTY, PACKED,
                               GAPS,   RANK0_GAPS, PACKED,    UNIFORM};
  const enum Shape cycle[] = {UNEVEN, GAPS, ONE_SILENT};
  const MPI_Comm comms[] = {MPI_COMM_WORLD, halves};
  const char* comm_names[] = {"world", "split"};
  long failures = 0;
  int checks = 0;
  for (int k = 0; k < (cycles ? 1 : 2); ++k) {
    for (size_t i = 0; i < (cycles ? 1 : sizeof cases / sizeof cases[0]); ++i) {
      const size_t count = cycles ? 3 * (size_t)cycles : sizeof shapes / sizeof shapes[0];
      for (size_t n = 0; n < count; ++n) {
        const enum Shape s = cycles ? cycle[n % 3] : shapes[n];
        if (cases[i].in_place && s != UNIFORM && s != ALL_EMPTY) continue; /* needs symmetry */
        for (int salt = 0; salt < (cycles ? 1 : 2); ++salt) { /* the cached plan, other data */
          long bad = run_case(&cases[i], s, comms[k], salt), total = 0;
          MPI_Allreduce(&bad, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
          ++checks;
          if (total != 0) {
            ++failures;
            if (world_rank == 0)
              printf("FAIL %s, %s on %s: %ld bytes differ from PMPI_Alltoallv\n", cases[i].name,
                     shape_names[s], comm_names[k], total);
          }
        }
      }
    }
  }
  if (world_rank == 0)
    printf("alltoallv_user: %d of %d checks matched PMPI_Alltoallv byte for byte\n",
           checks - (int)failures, checks);
  MPI_Type_free(&three_ints);
  MPI_Type_free(&strided);
  MPI_Comm_free(&halves);
  MPI_Finalize();
  return failures == 0 ? 0 : 1;
}
