/* An ordinary MPI program, built without a2afft: it calls MPI_Alltoall on MPI_COMM_WORLD and on
 * a split, with several datatypes, and compares every received byte with PMPI_Alltoall on the
 * same data. Run under LD_PRELOAD=liba2afft_mpi.so with A2AFFT_ALLTOALL=<spec>, it checks the
 * drop-in: MPI_IN_PLACE must fall back to the library; the vector type routes through a staging
 * copy, also where only some ranks use it (the same type signature as a contiguous type on the
 * others), and the holes it skips must stay untouched.
 * Exit status 0 when every call matched. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct Case {
  const char* name;
  MPI_Datatype send_type, recv_type;
  int send_count, recv_count;
  int in_place;
};

static unsigned char pattern(int source, int destination, size_t byte, int salt) {
  uint64_t x =
      ((uint64_t)source << 40) ^ ((uint64_t)destination << 20) ^ byte ^ ((uint64_t)salt << 60);
  x *= 0x9E3779B97F4A7C15ull;
  return (unsigned char)(x >> 56);
}

/* Runs one case on `comm`; returns the number of mismatching bytes. */
static long run_case(const struct Case* c, MPI_Comm comm, int salt) {
  int rank, ranks;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  MPI_Aint lb, send_extent, recv_extent;
  MPI_Type_get_extent(c->recv_type, &lb, &recv_extent);
  if (c->in_place) {
    send_extent = recv_extent;
  } else {
    MPI_Type_get_extent(c->send_type, &lb, &send_extent);
  }
  const size_t send_bytes =
      (size_t)send_extent * (c->in_place ? c->recv_count : c->send_count) * ranks;
  const size_t recv_bytes = (size_t)recv_extent * c->recv_count * ranks;
  unsigned char* send = malloc(send_bytes);
  unsigned char* got = malloc(recv_bytes);
  unsigned char* expected = malloc(recv_bytes);
  const size_t block = send_bytes / ranks;
  for (int destination = 0; destination < ranks; ++destination) {
    for (size_t byte = 0; byte < block; ++byte)
      send[destination * block + byte] = pattern(rank, destination, byte, salt);
  }
  memset(got, 0xa5, recv_bytes); /* gaps of a vector type must match too */
  memset(expected, 0xa5, recv_bytes);
  if (c->in_place) {
    memcpy(got, send, recv_bytes);
    memcpy(expected, send, recv_bytes);
    MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, got, c->recv_count, c->recv_type, comm);
    PMPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, expected, c->recv_count, c->recv_type, comm);
  } else {
    MPI_Alltoall(send, c->send_count, c->send_type, got, c->recv_count, c->recv_type, comm);
    PMPI_Alltoall(send, c->send_count, c->send_type, expected, c->recv_count, c->recv_type, comm);
  }
  long bad = 0;
  for (size_t i = 0; i < recv_bytes; ++i)
    bad += got[i] != expected[i];
  free(send);
  free(got);
  free(expected);
  return bad;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int world_rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm halves;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, world_rank, &halves);

  MPI_Datatype seven_ints, strided;
  MPI_Type_contiguous(7, MPI_INT, &seven_ints);
  MPI_Type_commit(&seven_ints);
  MPI_Type_vector(3, 2, 4, MPI_DOUBLE, &strided); /* holes: staged */
  MPI_Type_commit(&strided);
  MPI_Datatype six_doubles;
  MPI_Type_contiguous(6, MPI_DOUBLE, &six_doubles);
  MPI_Type_commit(&six_doubles);
  /* On MPI_COMM_WORLD, odd ranks use a contiguous type and even ranks a strided one of the same
   * signature: the ranks cannot know each other's choice (on the split each half is alike). */
  const MPI_Datatype mixed = world_rank % 2 ? six_doubles : strided;
  const struct Case cases[] = {
      {"MPI_BYTE", MPI_BYTE, MPI_BYTE, 24, 24, 0},
      {"MPI_DOUBLE", MPI_DOUBLE, MPI_DOUBLE, 5, 5, 0},
      {"MPI_C_DOUBLE_COMPLEX", MPI_C_DOUBLE_COMPLEX, MPI_C_DOUBLE_COMPLEX, 3, 3, 0},
      {"contiguous(7, MPI_INT)", seven_ints, seven_ints, 2, 2, 0},
      {"MPI_DOUBLE to MPI_BYTE", MPI_DOUBLE, MPI_BYTE, 4, 32, 0},
      {"vector(3, 2, 4, MPI_DOUBLE)", strided, strided, 1, 1, 0},
      {"vector on even ranks, contiguous on odd", mixed, mixed, 2, 2, 0},
      {"contiguous to vector", six_doubles, strided, 3, 3, 0},
      {"MPI_IN_PLACE", MPI_DATATYPE_NULL, MPI_INT, 0, 6, 1},
  };
  const MPI_Comm comms[] = {MPI_COMM_WORLD, halves};
  const char* comm_names[] = {"world", "split"};
  long failures = 0;
  int checks = 0;
  for (int k = 0; k < 2; ++k) {
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
      for (int salt = 0; salt < 2; ++salt) { /* twice: the cached plan again, other data */
        long bad = run_case(&cases[i], comms[k], salt);
        long total = 0;
        MPI_Allreduce(&bad, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
        ++checks;
        if (total != 0) {
          ++failures;
          if (world_rank == 0)
            printf("FAIL %s on %s: %ld bytes differ from PMPI_Alltoall\n", cases[i].name,
                   comm_names[k], total);
        }
      }
    }
  }
  if (world_rank == 0)
    printf("alltoall_user: %d of %d checks matched PMPI_Alltoall byte for byte\n",
           checks - (int)failures, checks);
  MPI_Type_free(&seven_ints);
  MPI_Type_free(&strided);
  MPI_Type_free(&six_doubles);
  MPI_Comm_free(&halves);
  MPI_Finalize();
  return failures == 0 ? 0 : 1;
}
