#include "fft_timing.hpp"

#include <algorithm>

#include <a2afft/timing.hpp>

#include "test_signal.hpp"

namespace a2afft::commands {

FftTrial prepare_trial(std::unique_ptr<FftCandidate> plan, const fft::Shape3& global) {
  FftTrial trial{std::move(plan), {}, {}, {}, {}, {}, {}};
  const fft::Box3 box = trial.plan->input_box();
  trial.input.resize(box.elements());
  fft::fill_test_signal(trial.input.data(), box, global);
  return trial;
}

void run_trial_once(FftTrial& trial, bool timed, bool backward, MPI_Comm comm) {
  FftCandidate& plan = *trial.plan;
  std::copy(trial.input.begin(), trial.input.end(), plan.data());
  trial.timer.clear();
  plan.attach_timer(&trial.timer);
  const double seconds = timing::timed_run(comm, [&] { plan.forward(); });
  const double backward_start = MPI_Wtime();
  if (backward) plan.backward();
  const double backward_seconds = MPI_Wtime() - backward_start;
  plan.attach_timer(nullptr);
  if (!timed) return;
  const auto& phases = trial.timer.seconds();
  const auto phase = [&](const char* name) {
    const auto it = phases.find(name);
    return it == phases.end() ? 0.0 : it->second;
  };
  trial.total.push_back(seconds);
  trial.backward.push_back(backward_seconds);
  // With backward the timer holds both directions; the split is for forward only.
  trial.transpose.push_back(backward ? 0.0 : phase("transpose"));
  trial.compute.push_back(backward ? 0.0 : phase("compute"));
}

}  // namespace a2afft::commands
