#pragma once

#include <algorithm>
#include <optional>

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

/// nonblocking's default batch under simulation (SimGrid SMPI 3.32). SimGrid's flow solver
/// (lmm::MaxMin::do_solve) crashed (SIGSEGV) at P = 256 with 16, 32 and all 255 exchanges per
/// rank in flight; 4 and 8 ran there (one run and its check: 34 s and 86 s of wall time), and
/// the cost grows faster than the batch: 4 keeps P = 1,024 affordable (docs/simulation.md).
inline constexpr int kSimulatedNonblockingBatch = 4;
/// Where SMPI 3.32 was measured to crash: on 256 ranks with batches of 16, 32 and all 255 (64
/// did not finish in 6 minutes). An explicit batch of kSimulatedCrashBatch or more is refused
/// on kSimulatedCrashRanks ranks or more; that it crashes above 256 too is an extrapolation.
inline constexpr int kSimulatedCrashRanks = 256;
inline constexpr int kSimulatedCrashBatch = 16;

/// Whether putting every message of a rank in flight at once is refused on `ranks` ranks:
/// under simulation from kSimulatedCrashRanks on, where SMPI 3.32's flow solver crashed on it
/// (MPI_Ialltoall alone, `auto` measuring its candidates, nonblocking at its full batch).
inline bool all_at_once_crashes_simulator(int ranks, bool simulated) {
  return simulated && ranks >= kSimulatedCrashRanks;
}

/// nonblocking's batch on `ranks` ranks, and how it came to be.
struct NonblockingBatch {
  int batch = 1;                       // exchanges in flight per rank, 1 .. max(1, P-1)
  bool bounded_in_simulation = false;  // the default, capped at kSimulatedNonblockingBatch
  bool crashes_simulator = false;      // an explicit batch SMPI 3.32 crashes on (see above)
};

/// `requested`: the batch a spec gives (>= 1; P-1 or more means all), or nullopt for the
/// default. Natively the default is all P-1; under simulation it is capped at
/// kSimulatedNonblockingBatch, and an explicit batch is honoured unless it is
/// kSimulatedCrashBatch or more on kSimulatedCrashRanks ranks or more (the measured crashes).
inline NonblockingBatch nonblocking_batch(int ranks, std::optional<long> requested,
                                          bool simulated) {
  const long partners = std::max(1, ranks - 1);
  NonblockingBatch result;
  if (!requested) {
    const bool bounded = simulated && partners > kSimulatedNonblockingBatch;
    result.batch = static_cast<int>(bounded ? kSimulatedNonblockingBatch : partners);
    result.bounded_in_simulation = bounded;
    return result;
  }
  result.batch = static_cast<int>(std::min(*requested, partners));
  result.crashes_simulator =
      simulated && ranks >= kSimulatedCrashRanks && result.batch >= kSimulatedCrashBatch;
  return result;
}

}  // namespace a2afft::detail::schedule
