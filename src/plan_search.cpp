// The timed plan (plan_search.hpp). Source: dtFFT's DTFFT_MEASURE ("find best MPI grid
// decomposition") and cuDecomp's autotuning, which time the grid with its exchanges; FFTW's
// planner and wisdom for measuring once and keeping the decision [fftw-2005]; FFTW-MPI's and
// mpi4py-fft's thread counts, which a2afft times where asked instead of taking on trust.
// Steps: the caller lists the candidates (grid_candidates() x thread_candidates()); timed_plan()
//   plans each and time_round_trip() times forward() and backward(); the fastest is kept, the
//   others are freed as soon as they are beaten.
// Cost: one plan and 1 + trials forward/backward pairs per candidate; nothing at run time.

#include "plan_search.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "geometry.hpp"
#include "topology/hardware.hpp"
#include "wisdom.hpp"

namespace a2afft::detail {
namespace {

bool fits(const std::array<int, 2>& grid, const std::array<std::size_t, 3>& shape) {
  return static_cast<std::size_t>(grid[0]) <= shape[0] &&
         static_cast<std::size_t>(grid[1]) <= shape[1];
}

// Whether `a` is nearer to square than `b`: max/min of a below max/min of b, in integers (a
// logarithm would order 30 x 24 and 24 x 30 by rounding).
bool squarer(const std::array<int, 2>& a, const std::array<int, 2>& b) {
  const auto [a_low, a_high] = std::minmax(a[0], a[1]);
  const auto [b_low, b_high] = std::minmax(b[0], b[1]);
  return static_cast<long>(a_high) * b_low < static_cast<long>(b_high) * a_low;
}

std::string milliseconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g ms", seconds * 1e3);
  return text;
}

// A choice as describe() names it: its grid where grids were timed, its threads where counts
// were ("grid 4x1", "threads 2", "grid 2x1, threads 2").
std::string named(const PlanChoice& choice, const TimedParts& parts) {
  const std::string grid = "grid " + fft::ProcGrid{choice.grid[0], choice.grid[1]}.to_string();
  const std::string threads = "threads " + std::to_string(choice.threads);
  if (parts.grid && parts.threads) return grid + ", " + threads;
  return parts.threads ? threads : grid;
}

}  // namespace

std::vector<std::array<int, 2>> grid_candidates(int ranks,
                                                const std::array<std::size_t, 3>& shape) {
  std::vector<std::array<int, 2>> all;
  for (int p0 = 1; p0 <= ranks; ++p0) {
    if (ranks % p0 == 0 && fits({p0, ranks / p0}, shape)) all.push_back({p0, ranks / p0});
  }
  // Nearest to square first; of a pair, p0 >= p1 first (the rule's orientation).
  std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
    if (squarer(a, b) || squarer(b, a)) return squarer(a, b);
    return a[0] > b[0];
  });
  if (all.size() > kMostGrids) {
    std::vector<std::array<int, 2>> kept(all.begin(), all.begin() + (kMostGrids - 2));
    for (const std::array<int, 2> slab : {std::array<int, 2>{ranks, 1}, {1, ranks}}) {
      if (fits(slab, shape)) kept.push_back(slab);
    }
    all = kept;
  }
  return all;
}

std::vector<int> thread_candidates(int cores) {
  std::vector<int> counts;
  for (int threads = 1; threads < cores; threads *= 2)
    counts.push_back(threads);
  counts.push_back(std::max(1, cores));
  return counts;
}

int cores_per_rank(MPI_Comm comm) {
  MPI_Comm host = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host);
  int ranks_on_host = 1;
  MPI_Comm_size(host, &ranks_on_host);
  MPI_Comm_free(&host);
  const int share = std::max(1, probe_hardware_place().cores / ranks_on_host);
  int cores = std::min(share, probe_bound_cores());
  MPI_Allreduce(MPI_IN_PLACE, &cores, 1, MPI_INT, MPI_MIN, comm);
  return std::max(1, cores);
}

double time_round_trip(FftCore& core, int trials) {
  FftEngine& engine = *core.engine;
  const std::size_t input_bytes =
      std::max(engine.input_scalars() * core.transform.input_scalar_bytes(),
               engine.in_place_elements() * core.transform.output_scalar_bytes());
  const std::size_t output_bytes = engine.output_scalars() * core.transform.output_scalar_bytes();
  // Doubles fill any scalar type with finite numbers.
  std::vector<double> input(input_bytes / sizeof(double) + 1, 0.5);
  std::vector<double> output(output_bytes / sizeof(double) + 1, 0.0);
  const MPI_Comm comm = core.topology->comm();
  const auto round_trip = [&] {
    engine.forward(input.data(), output.data());
    engine.backward(output.data(), input.data());
  };
  round_trip();
  std::vector<double> seconds;
  for (int trial = 0; trial < trials; ++trial) {
    MPI_Barrier(comm);
    const double start = MPI_Wtime();
    round_trip();
    double mine = MPI_Wtime() - start, slowest = 0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
    seconds.push_back(slowest);
  }
  std::nth_element(seconds.begin(), seconds.begin() + seconds.size() / 2, seconds.end());
  return seconds[seconds.size() / 2];
}

int fastest_trial(const std::vector<PlanTrial>& trials) {
  int best = -1;
  for (std::size_t i = 0; i < trials.size(); ++i) {
    if (!trials[i].refusal.empty()) continue;
    if (best < 0 || trials[i].seconds < trials[static_cast<std::size_t>(best)].seconds) {
      best = static_cast<int>(i);
    }
  }
  return best;
}

std::string describe_plan_choice(const std::vector<PlanTrial>& trials, int chosen,
                                 const TimedParts& parts) {
  const PlanTrial& winner = trials[static_cast<std::size_t>(chosen)];
  const PlanTrial& rule = trials.front();
  // Within the parentheses the grid's "grid " is left out: "2x2 14.9 ms, 4x1 12.1 ms".
  const auto short_name = [&](const PlanChoice& choice) {
    const std::string name = named(choice, parts);
    return parts.grid ? name.substr(5) : name;
  };
  std::string text = named(winner.choice, parts) + " timed: ";
  if (chosen == 0) {
    text += "the rule's choice was fastest";
  } else if (rule.refusal.empty()) {
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.2fx", rule.seconds / winner.seconds);
    text += std::string(ratio) + " faster than the rule's " + short_name(rule.choice);
  } else {
    text += "the rule's " + short_name(rule.choice) + " could not be planned";
  }
  text += " (";
  for (std::size_t i = 0; i < trials.size(); ++i) {
    text += (i == 0 ? "" : "; ") + short_name(trials[i].choice) + " " +
            (trials[i].refusal.empty() ? milliseconds(trials[i].seconds)
                                       : "refused: " + trials[i].refusal);
  }
  return text + ")";
}

std::string choice_to_string(const PlanChoice& choice, const TimedParts& parts) {
  const std::string grid = fft::ProcGrid{choice.grid[0], choice.grid[1]}.to_string();
  return parts.threads ? grid + " threads " + std::to_string(choice.threads) : grid;
}

PlanChoice choice_from_string(const std::string& kept, const std::string& key, int threads) {
  PlanChoice choice{{0, 0}, threads};
  char x = 0;
  int consumed = 0;
  const char* text = kept.c_str();
  const bool grid =
      std::sscanf(text, "%d%c%d%n", &choice.grid[0], &x, &choice.grid[1], &consumed) == 3 &&
      x == 'x';
  int more = 0;
  const bool whole =
      grid && (text[consumed] == '\0' ||
               (std::sscanf(text + consumed, " threads %d%n", &choice.threads, &more) == 1 &&
                text[consumed + more] == '\0'));
  if (!whole || choice.grid[0] < 1 || choice.grid[1] < 1 || choice.threads < 1) {
    throw UsageError("A2AFFT_WISDOM keeps the timed plan '" + kept + "' under '" + key +
                     "', which is not p0xp1 or p0xp1 threads t; remove that entry (or the file) "
                     "to time again");
  }
  return choice;
}

std::unique_ptr<FftCore> timed_plan(MPI_Comm comm, const PlanChoice& rule, const TimedParts& parts,
                                    const PlanMaker& plan, const CandidateList& candidates,
                                    const std::string& arguments) {
  constexpr int kTrials = 3;
  // The caller's communicator, not a plan's own (a beaten plan frees its copy).
  std::unique_ptr<FftCore> best = plan(rule);  // checks the communicator and every argument
  if (parts.threads) library::check_threads(timed_threads, comm, best->who);
  const PlanChoice planned{best->grid, best->threads};
  const std::string key = "grid:timed | " + wisdom::mpi_library() + " | " +
                          best->topology->describe_layout() + " | " + arguments;
  if (const std::string kept = wisdom::recall(key, comm); !kept.empty()) {
    const PlanChoice choice = choice_from_string(kept, key, planned.threads);
    if (!(choice == planned)) best = plan(choice);
    best->plan_note = named(choice, parts) + " timed earlier (kept in A2AFFT_WISDOM)";
    return best;
  }
  std::vector<PlanTrial> trials{{planned, time_round_trip(*best, kTrials), ""}};
  for (const PlanChoice& choice : candidates(*best)) {
    if (choice == planned) continue;
    try {
      std::unique_ptr<FftCore> candidate = plan(choice);
      trials.push_back({choice, time_round_trip(*candidate, kTrials), ""});
      if (fastest_trial(trials) + 1 == static_cast<int>(trials.size())) best = std::move(candidate);
    } catch (const UsageError& refused) {
      trials.push_back({choice, 0, refused.what()});
    }
  }
  const int chosen = fastest_trial(trials);
  best->plan_note = describe_plan_choice(trials, chosen, parts);
  wisdom::remember(key, choice_to_string(trials[static_cast<std::size_t>(chosen)].choice, parts),
                   comm);
  return best;
}

}  // namespace a2afft::detail
