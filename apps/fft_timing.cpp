#include "fft_timing.hpp"

#include <algorithm>

#include <a2afft/tools/fft_tools.hpp>
#include <a2afft/tools/timing.hpp>

namespace a2afft::commands {

FftTrial prepare_trial(std::unique_ptr<FftCandidate> plan,
                       const std::array<std::size_t, 3>& global) {
  FftTrial trial{std::move(plan), {}, {}, {}, {}, {}, {}};
  const Box3 box = trial.plan->input_box();
  trial.input.resize(box.elements());
  // A padded plan's input is a part of the padded grid.
  fill_test_signal(trial.input.data(), box, trial.plan->transform().padded_shape(global));
  return trial;
}

void run_trial_once(FftTrial& trial, bool timed, bool backward, MPI_Comm comm) {
  FftCandidate& plan = *trial.plan;
  plan.load(trial.input);
  const double seconds = timing::timed_run(comm, [&] { plan.forward(); });
  const FftTimes split = plan.last_times();
  const double backward_start = MPI_Wtime();
  if (backward) plan.backward();
  const double backward_seconds = MPI_Wtime() - backward_start;
  if (!timed) return;
  trial.total.push_back(seconds);
  trial.backward.push_back(backward_seconds);
  // The split is reported for forward-only runs.
  trial.transpose.push_back(backward ? 0.0 : split.transpose_seconds);
  trial.compute.push_back(backward ? 0.0 : split.compute_seconds);
  trial.reshape.push_back(backward ? 0.0 : split.reshape_seconds);
}

}  // namespace a2afft::commands
