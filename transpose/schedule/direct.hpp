#pragma once

// Shifted-partner schedule of the direct algorithms ([node-aware-2025] §2, Alg. 1-2).
// Pure math, no MPI.
namespace a2afft::detail::schedule {

/// In step s (1 <= s < P) rank p sends to p+s and receives from p-s (mod P), so every step is
/// a permutation and each pair of ranks meets once per direction.
inline int shifted_destination(int step, int rank, int ranks) {
  return (rank + step) % ranks;
}
inline int shifted_source(int step, int rank, int ranks) {
  return (rank - step % ranks + ranks) % ranks;
}

}  // namespace a2afft::detail::schedule
