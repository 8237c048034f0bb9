#pragma once
// The timed process grid of a pencil plan (Fft3dOptions::grid = timed_grid): which grids are
// tried (pure), how one planned grid is timed, and what describe() says of the choice. The
// search itself is make_pencil_core's (fft3d.cpp), which plans each candidate.
#include <mpi.h>

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "fft_core.hpp"

namespace a2afft::detail {

/// The grids a timed plan tries on `ranks` ranks, the rule's grid first (it wins ties): every
/// p0 x p1 = ranks when there are at most kMostGrids; otherwise the kMostGrids - 2 nearest to
/// square (by max/min of p0 and p1, p0 >= p1 first) and the two slab grids, ranks x 1 and 1 x
/// ranks. A grid with more parts than points along the dimension it splits first is left out (p0 >
/// n0 or p1 > n1). Pure.
inline constexpr std::size_t kMostGrids = 8;
std::vector<std::array<int, 2>> grid_candidates(int ranks, const std::array<std::size_t, 3>& shape);

/// One candidate's outcome: its median time, or why it could not be planned.
struct GridTrial {
  std::array<int, 2> grid{0, 0};
  double seconds = 0;   // forward and backward, the slowest rank's, median of the trials
  std::string refusal;  // non-empty: the plan's UsageError, and seconds is unset
};

/// Seconds of one forward() and backward() of `core`'s engine on arrays of its own sizes: one
/// warm-up pair, then `trials` timed pairs after a barrier, each the slowest rank's (so every
/// rank gets the same numbers); the median. Collective over the core's communicator.
double time_round_trip(FftCore& core, int trials);

/// The index of the fastest trial that was planned (the first on ties), or -1 when none was.
/// Pure, and the same on every rank because the times are.
int fastest_trial(const std::vector<GridTrial>& trials);

/// What describe() adds for a timed grid, e.g. "grid 4x1 timed: 1.23x faster than the rule's
/// 2x2 (2x2 14.9 ms, 4x1 12.1 ms, 1x4 refused: ...)"; trials.front() is the rule's. Pure.
std::string describe_grid_choice(const std::vector<GridTrial>& trials, int chosen);

/// The A2AFFT_WISDOM key of a timed grid: the MPI library, the layout, the plan's `arguments`
/// (shape, kind, precision, batch, exchanges, ... as the caller gave them).
std::string grid_wisdom_key(const std::string& layout, const std::string& arguments);

}  // namespace a2afft::detail
