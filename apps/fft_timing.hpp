#pragma once

// The FFT benchmark's timing loop, on its own so that a shared timed-trials helper can take its
// place: warm-up rounds, then timed rounds, each run on a fresh copy of the input.

#include <mpi.h>

#include <memory>
#include <span>
#include <vector>

#include "fft_candidate.hpp"
#include "geometry.hpp"
#include "timing/phase_timer.hpp"

namespace a2afft::commands {

/// One candidate, its input and the times of its timed runs on this rank, in seconds.
struct FftTrial {
  std::unique_ptr<FftCandidate> plan;
  std::vector<fft::Complex> input;  // the reproducible test signal of the global array
  PhaseTimer timer;
  std::vector<double> total, transpose, compute, backward;
};

FftTrial prepare_trial(std::unique_ptr<FftCandidate> plan, const fft::Shape3& global);

/// `warmup` untimed rounds, then `iterations` timed ones; each round runs every trial once, so
/// several trials run interleaved and one runs alone. A run copies the input in (untimed), waits
/// at a barrier and times forward() (with `backward`, then backward() apart) with MPI_Wtime;
/// transpose and compute come from the plan's phase timer (forward only, so 0 with
/// `backward`). Collective over `comm`.
void time_trials(std::span<FftTrial> trials, int warmup, int iterations, bool backward,
                 MPI_Comm comm);

}  // namespace a2afft::commands
