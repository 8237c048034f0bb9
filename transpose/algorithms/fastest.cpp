#include "algorithms/fastest.hpp"

#include <a2afft/tools/timing.hpp>

#include <algorithm>
#include <vector>

#include "mpi/comm.hpp"

namespace a2afft::detail::algorithms {

std::size_t fastest_candidate(std::size_t candidates, MPI_Comm comm, double budget_seconds,
                              std::size_t buffer_bytes, const CandidateMaker& make) {
  constexpr std::size_t kInterleavedBytes = std::size_t{1} << 30;
  const bool interleaved = buffer_bytes * candidates <= kInterleavedBytes;
  std::vector<std::function<void()>> runs(candidates);
  std::vector<double> medians(candidates);
  timing::TrialCallbacks callbacks;
  callbacks.prepare = [&](std::size_t k) { runs[k] = make(k); };
  callbacks.run = [&](std::size_t k, int round) {
    const std::function<void()>& run = runs[k];
    if (round < 0) {  // warm-up: pages, caches, protocols
      run();
      return 0.0;
    }
    // Interleaved, an untimed run first brings this candidate's buffers back into cache, as
    // repeated use of one plan has them.
    if (interleaved) run();
    // The same number on every rank, so all stop after the same round.
    double seconds = timing::timed_run(comm, run);
    mpi::check(MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, comm),
               "MPI_Allreduce(max)");
    return seconds;
  };
  callbacks.finish = [&](std::size_t k, std::vector<double>& seconds) {
    medians[k] = timing::median(seconds);
    runs[k] = nullptr;  // one after the other, only one candidate's buffers live at a time
  };
  timing::run_trials(candidates,
                     interleaved ? timing::TrialOrder::interleaved : timing::TrialOrder::sequential,
                     {.warmup = 1,
                      .fewest = 3,
                      .most = 200,
                      // Interleaved, each timed run's untimed twin costs as much again.
                      .budget_seconds = interleaved ? budget_seconds / 2 : budget_seconds},
                     callbacks);
  return static_cast<std::size_t>(std::min_element(medians.begin(), medians.end()) -
                                  medians.begin());
}

}  // namespace a2afft::detail::algorithms
