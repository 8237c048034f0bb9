#pragma once

// `a2afft alltoall --stats osu` on a plan with a split phase (start()/finish()): osu_ialltoall's
// two passes over the plan, as OSU Micro-Benchmarks 5.3 times MPI_Ialltoall
// (mpi/collective/osu_ialltoall.c, with osu_coll.c's dummy compute; github.com/forresti/
// osu-micro-benchmarks at 993f966). The arithmetic on the gathered means is
// report::osu_overlap, tested on its own.

#include <mpi.h>

#include <cstddef>

#include <a2afft/exchange.hpp>

#include "report/stats.hpp"

namespace a2afft::commands {

/// Works on this rank's core for `seconds` of MPI_Wtime, without MPI calls: small dense
/// float arithmetic on a 25 x 25 matrix, as OSU's host compute, repeated until the time is up.
/// Returns the seconds it took (at least `seconds`; 0 for 0).
double dummy_compute(double seconds);

/// Collective over `comm`. osu_ialltoall's passes on `plan` with `send` and `recv`: `warmup`
/// untimed and `runs` timed rounds each, a barrier after every round. The first pass times
/// start() with finish() at once (pure communication); the second puts dummy_compute() of this
/// rank's pure communication mean between them and times start(), the compute, finish() and the
/// whole. Returns this rank's means. Throws what start() throws (UsageError where the platform
/// refuses the split phase: every rank alike, before any message).
report::SplitPhaseRankSeconds time_split_phase(Exchange& plan, const std::byte* send,
                                               std::byte* recv, int warmup, int runs,
                                               MPI_Comm comm);

}  // namespace a2afft::commands
