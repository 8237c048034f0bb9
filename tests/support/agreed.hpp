#pragma once

// Collective verdicts for MPI tests: every rank asserts the same thing, so no rank leaves a
// test early while the others wait in a collective.

#include <mpi.h>

#include <string>

#include "mpi/comm.hpp"

namespace a2afft::detail::testing_support {

/// The same verdict on every rank of `comm`: the lowest failing rank's message, or "".
inline std::string agreed_failure(const std::string& local, MPI_Comm comm = MPI_COMM_WORLD) {
  const mpi::RankMessage agreed = mpi::agreed_message(local, comm);
  if (agreed.empty()) return "";
  return "rank " + std::to_string(agreed.rank) + ": " + agreed.text;
}

}  // namespace a2afft::detail::testing_support
