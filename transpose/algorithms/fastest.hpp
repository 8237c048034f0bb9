#pragma once

#include <mpi.h>

#include <cstddef>
#include <functional>

// The timed choice that `auto` makes, for the uniform and the variable exchanges alike.
namespace a2afft::detail::algorithms {

/// Builds candidate k (its plan and buffers) and returns one run of it; dropping the returned
/// function frees the candidate.
using CandidateMaker = std::function<std::function<void()>(std::size_t k)>;

/// The index of the candidate with the lowest median run time, the same on every rank of
/// `comm` (each run's time is its max over ranks). Collective. Candidates take turns, one timed
/// run each per round after an untimed one that brings their buffers back into cache, so a slow
/// spell of the machine hits them alike; rounds continue until `budget_seconds` is spent (at
/// least 3, at most 200), after one warm-up run each. When all candidates' buffers
/// (`buffer_bytes` each) would not fit in 1 GiB, they run one after the other instead, each
/// with an equal share of the budget, and only one is alive at a time.
std::size_t fastest_candidate(std::size_t candidates, MPI_Comm comm, double budget_seconds,
                              std::size_t buffer_bytes, const CandidateMaker& make);

}  // namespace a2afft::detail::algorithms
