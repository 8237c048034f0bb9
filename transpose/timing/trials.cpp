// The trials of include/a2afft/tools/timing.hpp, defined here, in the engine, since `auto` times
// its candidates with them; the tools and the command use the same code through the public header.

#include <a2afft/tools/timing.hpp>

#include <algorithm>

#include "mpi/comm.hpp"

namespace a2afft::timing {
namespace {

// Whether another timed round is due after `done` of them with `spent` of `budget` seconds.
bool more_rounds(const TrialRounds& rounds, int done, double spent, double budget) {
  if (done >= rounds.most) return false;
  return done < rounds.fewest || spent < budget;
}

}  // namespace

void run_trials(std::size_t candidates, TrialOrder order, const TrialRounds& rounds,
                const TrialCallbacks& callbacks) {
  std::vector<std::vector<double>> seconds(candidates);
  const auto prepare = [&](std::size_t k) {
    if (callbacks.prepare) callbacks.prepare(k);
  };
  const auto finish = [&](std::size_t k) {
    if (callbacks.finish) callbacks.finish(k, seconds[k]);
  };
  if (order == TrialOrder::interleaved) {
    for (std::size_t k = 0; k < candidates; ++k)
      prepare(k);
    for (int round = -rounds.warmup; round < 0; ++round) {
      for (std::size_t k = 0; k < candidates; ++k)
        callbacks.run(k, round);
    }
    double spent = 0;
    for (int round = 0; candidates > 0 && more_rounds(rounds, round, spent, rounds.budget_seconds);
         ++round) {
      for (std::size_t k = 0; k < candidates; ++k) {
        seconds[k].push_back(callbacks.run(k, round));
        spent += seconds[k].back();
      }
    }
    for (std::size_t k = 0; k < candidates; ++k)
      finish(k);
    return;
  }
  const double share =
      rounds.budget_seconds / static_cast<double>(std::max<std::size_t>(1, candidates));
  for (std::size_t k = 0; k < candidates; ++k) {
    prepare(k);
    for (int round = -rounds.warmup; round < 0; ++round)
      callbacks.run(k, round);
    double spent = 0;
    for (int round = 0; more_rounds(rounds, round, spent, share); ++round) {
      seconds[k].push_back(callbacks.run(k, round));
      spent += seconds[k].back();
    }
    finish(k);
  }
}

double timed_run(MPI_Comm comm, const std::function<void()>& work) {
  detail::mpi::check(MPI_Barrier(comm), "MPI_Barrier");
  const double start = MPI_Wtime();
  work();
  return MPI_Wtime() - start;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

}  // namespace a2afft::timing
