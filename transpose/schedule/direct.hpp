#pragma once

#include <algorithm>
#include <optional>

#include "simulator/smpi_rules.hpp"

// Shifted-partner schedule of the direct algorithms ([node-aware-2025] §2, Alg. 1-2), and how
// many of its exchanges nonblocking keeps in flight. Pure math, no MPI.
namespace a2afft::detail::schedule {

/// In step s (1 <= s < P) rank p sends to p+s and receives from p-s (mod P), so every step is
/// a permutation and each pair of ranks meets once per direction.
inline int shifted_destination(int step, int rank, int ranks) {
  return (rank + step) % ranks;
}
inline int shifted_source(int step, int rank, int ranks) {
  return (rank - step % ranks + ranks) % ranks;
}

/// nonblocking's batch on `ranks` ranks, and how it came to be.
struct NonblockingBatch {
  int batch = 1;                       // exchanges in flight per rank, 1 .. max(1, P-1)
  bool bounded_in_simulation = false;  // the default, capped at simulator::kNonblockingBatch
  bool crashes_simulator = false;      // an explicit batch SMPI 3.32 crashes on
};

/// `requested`: the batch a spec gives (>= 1; P-1 or more means all), or nullopt for the
/// default. Natively the default is all P-1; under simulation it is capped at
/// simulator::kNonblockingBatch, and an explicit batch is honoured unless SMPI 3.32 was measured
/// to crash on it (simulator::batch_crashes).
inline NonblockingBatch nonblocking_batch(int ranks, std::optional<long> requested,
                                          bool simulated) {
  const long partners = std::max(1, ranks - 1);
  NonblockingBatch result;
  if (!requested) {
    const bool bounded = simulated && partners > simulator::kNonblockingBatch;
    result.batch = static_cast<int>(bounded ? simulator::kNonblockingBatch : partners);
    result.bounded_in_simulation = bounded;
    return result;
  }
  result.batch = static_cast<int>(std::min(*requested, partners));
  result.crashes_simulator = simulator::batch_crashes(ranks, result.batch, simulated);
  return result;
}

}  // namespace a2afft::detail::schedule
