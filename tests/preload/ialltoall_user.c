/* An ordinary MPI program, built without a2afft: MPI_Ialltoall (and, with MPI 4, the persistent
 * MPI_Alltoall_init and MPI_Alltoallv_init / MPI_Start) on MPI_COMM_WORLD and on a split,
 * completed through every call of the MPI_Wait/Test family, also mixed with point-to-point
 * requests in one array, two calls in flight on one plan, and a strided type on some ranks only.
 * Every received byte is compared with PMPI_Alltoall(v) on the same data. Run under
 * LD_PRELOAD=liba2afft_mpi.so with A2AFFT_ALLTOALL=<spec> (and A2AFFT_ALLTOALLV=<variable spec>).
 * Prints "N of N checks matched"; exit status 0 when all did. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum Completion {
  kWait,
  kTestLoop,
  kWaitall,
  kTestall,
  kWaitany,
  kTestany,
  kWaitsome,
  kTestsome,
  kCompletions
};
static const char* const kCompletionNames[kCompletions] = {
    "MPI_Wait",    "MPI_Test",    "MPI_Waitall",  "MPI_Testall",
    "MPI_Waitany", "MPI_Testany", "MPI_Waitsome", "MPI_Testsome"};

static unsigned char pattern(int source, int destination, size_t byte, int salt) {
  uint64_t x =
      ((uint64_t)source << 40) ^ ((uint64_t)destination << 20) ^ byte ^ ((uint64_t)salt << 56);
  x *= 0x9E3779B97F4A7C15ull;
  return (unsigned char)(x >> 56);
}

/* Buffers of one call: send, got (through the drop-in), expected (PMPI_Alltoall). */
struct Buffers {
  unsigned char *send, *got, *expected;
  size_t bytes;
};

static struct Buffers make_buffers(MPI_Datatype type, int count, MPI_Comm comm, int salt) {
  int rank, ranks;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  MPI_Aint lb, extent;
  MPI_Type_get_extent(type, &lb, &extent);
  struct Buffers b;
  b.bytes = (size_t)extent * count * ranks;
  b.send = malloc(b.bytes);
  b.got = malloc(b.bytes);
  b.expected = malloc(b.bytes);
  const size_t block = b.bytes / ranks;
  for (int d = 0; d < ranks; ++d)
    for (size_t i = 0; i < block; ++i)
      b.send[d * block + i] = pattern(rank, d, i, salt);
  memset(b.got, 0xa5, b.bytes);
  memset(b.expected, 0xa5, b.bytes);
  PMPI_Alltoall(b.send, count, type, b.expected, count, type, comm);
  return b;
}

/* Mismatching bytes, summed over MPI_COMM_WORLD; frees the buffers. */
static long check_buffers(struct Buffers* b) {
  long bad = 0, total = 0;
  for (size_t i = 0; i < b->bytes; ++i)
    bad += b->got[i] != b->expected[i];
  free(b->send);
  free(b->got);
  free(b->expected);
  MPI_Allreduce(&bad, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

/* Completes requests[0] (ours) together with a point-to-point pair in requests[1..2] through
 * `how`; returns 0 when each request completed exactly once. */
static int complete(enum Completion how, MPI_Request requests[3]) {
  int flag = 0, index = 0, outcount = 0, seen = 0, indices[3];
  switch (how) {
    case kWait:
      for (int i = 0; i < 3; ++i)
        MPI_Wait(&requests[i], MPI_STATUS_IGNORE);
      return 0;
    case kTestLoop:
      for (int i = 0; i < 3; ++i) {
        do
          MPI_Test(&requests[i], &flag, MPI_STATUS_IGNORE);
        while (!flag);
      }
      return 0;
    case kWaitall:
      return MPI_Waitall(3, requests, MPI_STATUSES_IGNORE) != MPI_SUCCESS;
    case kTestall:
      do
        MPI_Testall(3, requests, &flag, MPI_STATUSES_IGNORE);
      while (!flag);
      return 0;
    case kWaitany:
    case kTestany:
      for (int done = 0; done < 3;) {
        if (how == kWaitany) {
          MPI_Waitany(3, requests, &index, MPI_STATUS_IGNORE);
          flag = 1;
        } else {
          MPI_Testany(3, requests, &index, &flag, MPI_STATUS_IGNORE);
        }
        if (!flag) continue;
        if (index == MPI_UNDEFINED || (seen & (1 << index))) return 1;
        seen |= 1 << index;
        ++done;
      }
      return 0;
    default:
      for (int done = 0; done < 3;) {
        if (how == kWaitsome) {
          MPI_Waitsome(3, requests, &outcount, indices, MPI_STATUSES_IGNORE);
        } else {
          MPI_Testsome(3, requests, &outcount, indices, MPI_STATUSES_IGNORE);
        }
        if (outcount == MPI_UNDEFINED) return 1;
        for (int k = 0; k < outcount; ++k) {
          if (seen & (1 << indices[k])) return 1;
          seen |= 1 << indices[k];
          ++done;
        }
      }
      return 0;
  }
}

/* A point-to-point ring pair posted beside the all-to-all. */
static void post_ring(MPI_Comm comm, int* out, int* in, MPI_Request requests[2]) {
  int rank, ranks;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  *out = rank;
  MPI_Irecv(in, 1, MPI_INT, (rank + ranks - 1) % ranks, 7, comm, &requests[0]);
  MPI_Isend(out, 1, MPI_INT, (rank + 1) % ranks, 7, comm, &requests[1]);
}

#if MPI_VERSION >= 4
/* Persistent MPI_Alltoallv: rank i sends rank j 8 * ((3i + 5j + 1) mod 4) bytes (empty peers
 * among them), started three times with new data (MPI_Start, then MPI_Startall), completed by
 * MPI_Wait, MPI_Waitany and MPI_Test (MPICH 4.0.2's own MPI_Testall fails on it), each time
 * against PMPI_Alltoallv on the same data; then freed. Returns the bytes (and requests) that
 * differ, summed over MPI_COMM_WORLD. */
static long persistent_alltoallv(MPI_Comm comm) {
  int rank, ranks;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  int *sc = malloc(4 * ranks * sizeof(int)), *sd = sc + ranks, *rc = sd + ranks, *rd = rc + ranks;
  int sent = 0, received = 0;
  for (int j = 0; j < ranks; ++j) {
    sc[j] = 8 * ((3 * rank + 5 * j + 1) % 4);
    rc[j] = 8 * ((3 * j + 5 * rank + 1) % 4);
    sd[j] = sent;
    rd[j] = received;
    sent += sc[j];
    received += rc[j];
  }
  unsigned char *send = malloc(sent + 1), *got = malloc(received + 1),
                *expected = malloc(received + 1);
  MPI_Request request;
  MPI_Alltoallv_init(send, sc, sd, MPI_BYTE, got, rc, rd, MPI_BYTE, comm, MPI_INFO_NULL, &request);
  long bad = 0, total = 0;
  for (int round = 0; round < 3; ++round) {
    for (int j = 0; j < ranks; ++j)
      for (int i = 0; i < sc[j]; ++i)
        send[sd[j] + i] = pattern(rank, j, (size_t)i, 30 + round);
    memset(got, 0xa5, received + 1);
    memset(expected, 0xa5, received + 1);
    PMPI_Alltoallv(send, sc, sd, MPI_BYTE, expected, rc, rd, MPI_BYTE, comm);
    MPI_Request started[1] = {request};
    if (round == 0) {
      MPI_Start(&request);
    } else {
      MPI_Startall(1, started);
    }
    int index = -1, flag = 0;
    if (round == 0) MPI_Wait(&request, MPI_STATUS_IGNORE);
    if (round == 1) {
      MPI_Waitany(1, started, &index, MPI_STATUS_IGNORE);
      bad += index != 0;
    }
    while (round == 2 && !flag)
      MPI_Test(&started[0], &flag, MPI_STATUS_IGNORE);
    for (int i = 0; i <= received; ++i)
      bad += got[i] != expected[i];
  }
  MPI_Request_free(&request);
  bad += request != MPI_REQUEST_NULL;
  free(sc);
  free(send);
  free(got);
  free(expected);
  MPI_Allreduce(&bad, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  return total;
}
#endif

static long failures = 0;
static int checks = 0;

static void record(long bad, const char* what, const char* on, int world_rank) {
  ++checks;
  if (bad == 0) return;
  ++failures;
  if (world_rank == 0)
    printf("FAIL %s on %s: %ld bytes differ from PMPI_Alltoall\n", what, on, bad);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int world_rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm halves;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, world_rank, &halves);
  MPI_Datatype strided, six_doubles;
  MPI_Type_vector(3, 2, 4, MPI_DOUBLE, &strided);
  MPI_Type_commit(&strided);
  MPI_Type_contiguous(6, MPI_DOUBLE, &six_doubles);
  MPI_Type_commit(&six_doubles);
  const MPI_Datatype mixed = world_rank % 2 ? six_doubles : strided;
  const MPI_Comm comms[] = {MPI_COMM_WORLD, halves};
  const char* names[] = {"world", "split"};
  for (int k = 0; k < 2; ++k) {
    for (int how = 0; how < kCompletions; ++how) {
      /* MPI_BYTE, then the strided type on even ranks only */
      for (int typed = 0; typed < 2; ++typed) {
        const MPI_Datatype type = typed ? mixed : MPI_BYTE;
        const int count = typed ? 2 : 40;
        struct Buffers b = make_buffers(type, count, comms[k], how);
        MPI_Request requests[3];
        int out, in = -1;
        MPI_Ialltoall(b.send, count, type, b.got, count, type, comms[k], &requests[0]);
        post_ring(comms[k], &out, &in, &requests[1]);
        const int wrong = complete(how, requests);
        char what[96];
        snprintf(what, sizeof what, "MPI_Ialltoall with %s%s", kCompletionNames[how],
                 typed ? ", mixed types" : "");
        record(check_buffers(&b) + wrong + (requests[0] != MPI_REQUEST_NULL), what, names[k],
               world_rank);
      }
    }
    /* Two in flight on one plan (the same block size): the second completes the first. */
    struct Buffers first = make_buffers(MPI_BYTE, 64, comms[k], 11),
                   second = make_buffers(MPI_BYTE, 64, comms[k], 12);
    MPI_Request pair[2];
    MPI_Ialltoall(first.send, 64, MPI_BYTE, first.got, 64, MPI_BYTE, comms[k], &pair[0]);
    MPI_Ialltoall(second.send, 64, MPI_BYTE, second.got, 64, MPI_BYTE, comms[k], &pair[1]);
    MPI_Waitall(2, pair, MPI_STATUSES_IGNORE);
    record(check_buffers(&first) + check_buffers(&second), "two MPI_Ialltoall in flight", names[k],
           world_rank);
#if MPI_VERSION >= 4
    /* Persistent: three starts of one request, new data each time, then freed. */
    struct Buffers p = make_buffers(MPI_BYTE, 48, comms[k], 20);
    MPI_Request persistent;
    MPI_Alltoall_init(p.send, 48, MPI_BYTE, p.got, 48, MPI_BYTE, comms[k], MPI_INFO_NULL,
                      &persistent);
    for (int round = 0; round < 3; ++round) {
      struct Buffers again = make_buffers(MPI_BYTE, 48, comms[k], 21 + round);
      memcpy(p.send, again.send, p.bytes);
      memcpy(p.expected, again.expected, p.bytes);
      memset(p.got, 0xa5, p.bytes);
      MPI_Request requests[3] = {persistent};
      int out, in = -1;
      post_ring(comms[k], &out, &in, &requests[1]);
      if (round == 0) {
        MPI_Start(&requests[0]);
      } else {
        MPI_Request started[1] = {requests[0]};
        MPI_Startall(1, started);
      }
      /* MPICH 4.0.2's own MPI_Testall aborts on its persistent collective requests ("Fatal error
       * in internal_Testall", reproduced without the drop-in): where the library keeps the
       * request (a backend without a split phase leaves MPI_Alltoall_init to it), the test
       * registration sets IALLTOALL_USER_LIBRARY_TESTALL_BROKEN and that round uses
       * MPI_Waitall instead. */
      const enum Completion second =
          getenv("IALLTOALL_USER_LIBRARY_TESTALL_BROKEN") ? kWaitall : kTestall;
      const int wrong = complete(round == 2 ? kWaitany : round == 1 ? second : kWait, requests);
      long bad = wrong;
      for (size_t i = 0; i < p.bytes; ++i)
        bad += p.got[i] != p.expected[i];
      long total = 0;
      MPI_Allreduce(&bad, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
      record(total, "MPI_Alltoall_init and MPI_Start", names[k], world_rank);
      free(again.send);
      free(again.got);
      free(again.expected);
    }
    MPI_Request_free(&persistent);
    free(p.send);
    free(p.got);
    free(p.expected);
    record(persistent_alltoallv(comms[k]), "MPI_Alltoallv_init and MPI_Start", names[k],
           world_rank);
#endif
  }
  if (world_rank == 0)
    printf("ialltoall_user: %d of %d checks matched PMPI_Alltoall byte for byte\n",
           checks - (int)failures, checks);
  MPI_Type_free(&strided);
  MPI_Type_free(&six_doubles);
  MPI_Comm_free(&halves);
  MPI_Finalize();
  return failures == 0 ? 0 : 1;
}
