// The tools' trials (include/a2afft/tools/timing.hpp): the engine's own (transpose/timing/
// trials), which `auto` times its candidates with, behind the tools' types.

#include <a2afft/tools/timing.hpp>

#include "timing/trials.hpp"

namespace a2afft::timing {

void run_trials(std::size_t candidates, TrialOrder order, const TrialRounds& rounds,
                const TrialCallbacks& callbacks) {
  const detail::timing::TrialOrder engine_order = order == TrialOrder::interleaved
                                                      ? detail::timing::TrialOrder::interleaved
                                                      : detail::timing::TrialOrder::sequential;
  detail::timing::run_trials(candidates, engine_order,
                             {.warmup = rounds.warmup,
                              .fewest = rounds.fewest,
                              .most = rounds.most,
                              .budget_seconds = rounds.budget_seconds},
                             {callbacks.prepare, callbacks.run, callbacks.finish});
}

double timed_run(MPI_Comm comm, const std::function<void()>& work) {
  return detail::timing::timed_run(comm, work);
}

double median(std::vector<double> values) {
  return detail::timing::median(std::move(values));
}

}  // namespace a2afft::timing
