#pragma once

// Collective verdicts for MPI tests: every rank asserts the same thing, so no rank leaves a
// test early while the others wait in a collective.

#include <mpi.h>

#include <climits>
#include <string>

namespace a2afft::testing_support {

/// The same verdict on every rank of `comm`: the lowest failing rank's message, or "".
inline std::string agreed_failure(const std::string& local, MPI_Comm comm = MPI_COMM_WORLD) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const int mine = local.empty() ? INT_MAX : rank;
  int lowest = INT_MAX;
  MPI_Allreduce(&mine, &lowest, 1, MPI_INT, MPI_MIN, comm);
  if (lowest == INT_MAX) return "";
  int length = static_cast<int>(local.size());
  MPI_Bcast(&length, 1, MPI_INT, lowest, comm);
  std::string text = local;
  text.resize(static_cast<std::size_t>(length));
  MPI_Bcast(text.data(), length, MPI_CHAR, lowest, comm);
  return "rank " + std::to_string(lowest) + ": " + text;
}

}  // namespace a2afft::testing_support
