#pragma once

#include <mpi.h>

#include <cstddef>
#include <functional>
#include <vector>

// Timed comparisons of several candidates (exchange plans, FFT plans): which run comes when, and
// when to stop. Knows nothing of what a candidate is; the caller's callbacks build, run and
// report it. run_trials itself makes no MPI call. The one copy: `auto` times its candidates with
// it (the engine includes these very types), and so do the a2afft command's benchmarks.
namespace a2afft::timing {

/// Which candidate's round runs when.
enum class TrialOrder {
  interleaved,  // round i of every candidate before round i + 1: slow spells hit all alike
  sequential,   // one candidate's rounds after another's: only one needs to live at a time
};

/// How many rounds. Each candidate first runs `warmup` untimed rounds, then at least `fewest`
/// timed ones and at most `most`; between the two, rounds go on while the timed seconds stay
/// under `budget_seconds` (interleaved: all candidates' together; sequential: each candidate's
/// equal share). With a budget, `run` must return the same seconds on every rank (e.g. the max
/// over ranks), or ranks would stop after different rounds.
struct TrialRounds {
  int warmup = 0;             ///< untimed rounds first
  int fewest = 1;             ///< timed rounds at least
  int most = 1;               ///< timed rounds at most
  double budget_seconds = 0;  ///< the timed seconds within which rounds go on past `fewest`
};

/// What the caller does for candidate k. `prepare` and `finish` may be empty.
struct TrialCallbacks {
  /// Before its first run.
  std::function<void(std::size_t k)> prepare;
  /// One run; `round` < 0 is a warm-up. Returns the seconds the run counts for.
  std::function<double(std::size_t k, int round)> run;
  /// After its last run, with the timed rounds' seconds in order.
  std::function<void(std::size_t k, std::vector<double>& seconds)> finish;
};

/// Runs `candidates` candidates in `order` for `rounds`.
void run_trials(std::size_t candidates, TrialOrder order, const TrialRounds& rounds,
                const TrialCallbacks& callbacks);

/// Seconds of `work` on this rank, from after a barrier over `comm` (so every rank starts
/// together) to its end. Collective.
double timed_run(MPI_Comm comm, const std::function<void()>& work);

/// The median; the mean of the middle two for an even count. `values` must not be empty.
double median(std::vector<double> values);

}  // namespace a2afft::timing
