#pragma once

// One run of an FFT candidate for the benchmark, whose rounds timing::run_trials orders: each run
// on a fresh copy of the input, timed from a barrier.

#include <mpi.h>

#include <memory>
#include <vector>

#include "fft_candidate.hpp"

namespace a2afft::commands {

/// One candidate, its input and the times of its timed runs on this rank, in seconds.
struct FftTrial {
  std::unique_ptr<FftCandidate> plan;
  std::vector<Complex> input;  // the reproducible test signal of the global array
  std::vector<double> total, transpose, compute, backward;
  std::vector<double> reshape;  // between the application's boxes and the plan's (0 without)
};

FftTrial prepare_trial(std::unique_ptr<FftCandidate> plan,
                       const std::array<std::size_t, 3>& global);

/// One run: copies the input in (untimed), then times forward() from a barrier over `comm` (with
/// `backward`, then backward() apart). A `timed` run appends its seconds on this rank; transpose
/// compute and reshape are the plan's last_times() of forward (0 with `backward`). Collective.
void run_trial_once(FftTrial& trial, bool timed, bool backward, MPI_Comm comm);

}  // namespace a2afft::commands
