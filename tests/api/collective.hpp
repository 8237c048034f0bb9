#pragma once

// What the API tests assert with: facts reduced over the ranks first, so that every rank asserts
// the same and none leaves a test while others wait in a collective. MPI only, like the
// application code the tests stand for.

#include <mpi.h>

#include <string>

namespace a2afft::api_test {

inline int rank_in(MPI_Comm comm = MPI_COMM_WORLD) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

inline int size_of(MPI_Comm comm = MPI_COMM_WORLD) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  return size;
}

inline long sum_over(long value, MPI_Comm comm = MPI_COMM_WORLD) {
  MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_LONG, MPI_SUM, comm);
  return value;
}

inline double max_over(double value, MPI_Comm comm = MPI_COMM_WORLD) {
  MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_DOUBLE, MPI_MAX, comm);
  return value;
}

// Whether every rank of `comm` holds the same `text` as rank 0.
inline bool same_on_every_rank(const std::string& text, MPI_Comm comm = MPI_COMM_WORLD) {
  int length = static_cast<int>(text.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, comm);
  std::string first(static_cast<std::size_t>(length), '\0');
  if (rank_in(comm) == 0) first = text;
  MPI_Bcast(first.data(), length, MPI_CHAR, 0, comm);
  return sum_over(first == text ? 0 : 1, comm) == 0;
}

}  // namespace a2afft::api_test
