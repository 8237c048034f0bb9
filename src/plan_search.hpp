#pragma once
// The timed plan (Fft3dOptions::grid = timed_grid, PlanOptions::threads = timed_threads): which
// process grids and thread counts are tried (pure), how one planned candidate is timed, how the
// fastest is chosen, kept in A2AFFT_WISDOM and described. timed_plan() runs the search; the
// plans themselves are made by the caller (fft3d.cpp, fft1d.cpp), which knows their dimension.
#include <mpi.h>

#include <array>
#include <cstddef>
#include <functional>
#include <memory>
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

/// The thread counts a timed plan tries when a rank has `cores` cores of its own: 1, 2, 4, ...
/// below `cores`, and `cores` itself (1 first: the default, which wins ties). Pure.
std::vector<int> thread_candidates(int cores);

/// The cores each rank of `comm` may give its threads, the same on every rank: the fewest over
/// the ranks of the physical cores in its CPU binding (hwloc), and of its machine's cores shared
/// among the ranks on that machine. At least 1. Collective.
int cores_per_rank(MPI_Comm comm);

/// One candidate of a timed plan: a process grid ({1, P} for Fft2d and Fft1d) and a thread count.
struct PlanChoice {
  std::array<int, 2> grid{0, 0};
  int threads = 1;
  bool operator==(const PlanChoice&) const = default;
};

/// Which parts of the plan are timed: what describe() and the wisdom name.
struct TimedParts {
  bool grid = false;
  bool threads = false;
};

/// One candidate's outcome: its median time, or why it could not be planned.
struct PlanTrial {
  PlanChoice choice;
  double seconds = 0;   // forward and backward, the slowest rank's, median of the trials
  std::string refusal;  // non-empty: the plan's UsageError, and seconds is unset
};

/// Seconds of one forward() and backward() of `core`'s engine on arrays of its own sizes: one
/// warm-up pair, then `trials` timed pairs after a barrier, each the slowest rank's (so every
/// rank gets the same numbers); the median. Collective over the core's communicator.
double time_round_trip(FftCore& core, int trials);

/// The index of the fastest trial that was planned (the first on ties), or -1 when none was.
/// Pure, and the same on every rank because the times are.
int fastest_trial(const std::vector<PlanTrial>& trials);

/// What describe() adds for a timed plan; trials.front() is the rule's (the default grid, one
/// thread or the options' count). Only what was timed is named: "grid 4x1 timed: 1.23x faster
/// than the rule's 2x2 (2x2 14.9 ms; 4x1 12.1 ms; 1x4 refused: ...)", "threads 2 timed: ...",
/// "grid 2x1, threads 2 timed: ...". Pure.
std::string describe_plan_choice(const std::vector<PlanTrial>& trials, int chosen,
                                 const TimedParts& parts);

/// A kept choice as A2AFFT_WISDOM holds it: "p0xp1" where threads are not timed (as earlier
/// versions wrote it), else "p0xp1 threads t". Pure.
std::string choice_to_string(const PlanChoice& choice, const TimedParts& parts);
/// Parses choice_to_string's text; a grid alone keeps `threads`. Throws UsageError naming the
/// entry and `key` for anything else.
PlanChoice choice_from_string(const std::string& kept, const std::string& key, int threads);

/// Plans `choice` (collective; throws UsageError when that choice cannot be planned).
using PlanMaker = std::function<std::unique_ptr<FftCore>(const PlanChoice&)>;
/// The candidates to time once the rule's plan exists (it knows the ranks), rule's first.
using CandidateList = std::function<std::vector<PlanChoice>(const FftCore& rule)>;

/// The timed search over `comm` (the caller's). plan(rule) is made first: it checks every argument
/// as any plan does, and wins ties. A choice kept in A2AFFT_WISDOM under the key of the rule's
/// layout and `arguments` (what changes which candidate is fastest: shape, transform, exchanges,
/// rigor, ...) is planned alone. Otherwise each candidate is planned and timed, a slower one freed
/// as soon as it is beaten, and the fastest kept in the wisdom. The returned core's plan_note says
/// what won.
std::unique_ptr<FftCore> timed_plan(MPI_Comm comm, const PlanChoice& rule, const TimedParts& parts,
                                    const PlanMaker& plan, const CandidateList& candidates,
                                    const std::string& arguments);

}  // namespace a2afft::detail
