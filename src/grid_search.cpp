// The timed grid (grid_search.hpp). Source: dtFFT's DTFFT_MEASURE ("find best MPI grid
// decomposition") and cuDecomp's autotuning, which time the grid with its exchanges; FFTW's
// planner and wisdom for measuring once and keeping the decision [fftw-2005].
// Steps: grid_candidates() lists the grids; make_pencil_core plans each (its exchanges as the
//   options ask, an `auto` one timed on that grid) and time_round_trip() times forward() and
//   backward(); the fastest is kept, the others are freed as soon as they are beaten.
// Cost: one plan and 1 + trials forward/backward pairs per candidate; nothing at run time.

#include "grid_search.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "geometry.hpp"
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

std::string grid_text(const std::array<int, 2>& grid) {
  return fft::ProcGrid{grid[0], grid[1]}.to_string();
}

std::string milliseconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g ms", seconds * 1e3);
  return text;
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

int fastest_trial(const std::vector<GridTrial>& trials) {
  int best = -1;
  for (std::size_t i = 0; i < trials.size(); ++i) {
    if (!trials[i].refusal.empty()) continue;
    if (best < 0 || trials[i].seconds < trials[static_cast<std::size_t>(best)].seconds) {
      best = static_cast<int>(i);
    }
  }
  return best;
}

std::string describe_grid_choice(const std::vector<GridTrial>& trials, int chosen) {
  const GridTrial& winner = trials[static_cast<std::size_t>(chosen)];
  const GridTrial& rule = trials.front();
  std::string text = "grid " + grid_text(winner.grid) + " timed: ";
  if (chosen == 0) {
    text += "the rule's grid was fastest";
  } else if (rule.refusal.empty()) {
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.2fx", rule.seconds / winner.seconds);
    text += std::string(ratio) + " faster than the rule's " + grid_text(rule.grid);
  } else {
    text += "the rule's " + grid_text(rule.grid) + " could not be planned";
  }
  text += " (";
  for (std::size_t i = 0; i < trials.size(); ++i) {
    text += (i == 0 ? "" : ", ") + grid_text(trials[i].grid) + " " +
            (trials[i].refusal.empty() ? milliseconds(trials[i].seconds)
                                       : "refused: " + trials[i].refusal);
  }
  return text + ")";
}

std::string grid_wisdom_key(const std::string& layout, const std::string& arguments) {
  return "grid:timed | " + wisdom::mpi_library() + " | " + layout + " | " + arguments;
}

}  // namespace a2afft::detail
