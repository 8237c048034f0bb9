#pragma once

#include <mpi.h>

#include <string>
#include <vector>

namespace a2afft::report {

/// Median, minimum and maximum of a series of timed runs.
struct Summary {
  double median = 0;
  double min = 0;
  double max = 0;
};
Summary summarize(std::vector<double> values);

/// osu_alltoall -f's figures for one exchange at one block size: each rank's mean latency over
/// the timed runs, then the average, min and max of those means over the ranks.
struct OsuSummary {
  double avg_seconds = 0;  // the mean over ranks of each rank's mean
  double min_seconds = 0;  // the fastest rank's mean
  double max_seconds = 0;  // the slowest rank's mean
  int runs = 0;            // the timed runs each mean is over (OSU's Iterations column)
};

/// The mean of `values`; 0 when empty.
double mean(const std::vector<double>& values);

/// OSU's figures from every rank's mean seconds (in rank order), `runs` timed runs each; all 0
/// when there are no ranks. Pure: the command gathers the means (one MPI_Allgather).
///
/// As osu_alltoall defines them (OSU Micro-Benchmarks, mpi/collective/osu_alltoall.c, e.g.
/// github.com/Martin-Lndbl/osu-micro-benchmarks at dd49f94): every rank adds up the
/// MPI_Wtime() differences around its calls past the warm-up ones and divides by the
/// iterations (its latency in us); rank 0 then gets the MPI_MIN, MPI_MAX and MPI_SUM of those
/// latencies by MPI_Reduce and divides the sum by the number of ranks for "Avg Latency(us)".
/// a2afft's own figure differs: the max over ranks of each run first, then the median over runs.
OsuSummary osu_summary(const std::vector<double>& rank_mean_seconds, int runs);

/// One rank's means over the timed runs of osu_ialltoall's two passes, in seconds.
struct SplitPhaseRankSeconds {
  double pure_comm_seconds = 0;  // first pass: start() then finish() at once, nothing between
  double overall_seconds = 0;    // second pass: start(), the dummy compute, finish(), together
  double compute_seconds = 0;    // second pass: the dummy compute alone
  double init_seconds = 0;       // second pass: start() alone (OSU's "Coll. Init")
  double wait_seconds = 0;       // second pass: finish() alone (OSU's "MPI_Wait")
};

/// osu_ialltoall's figures for one split-phase exchange at one block size: each of
/// SplitPhaseRankSeconds's means averaged over the ranks, and the overlap.
struct OsuOverlap {
  double overall_seconds = 0;
  double compute_seconds = 0;
  double pure_comm_seconds = 0;
  double init_seconds = 0;
  double wait_seconds = 0;
  double overlap_percent = 0;  // max(0, 100 - (overall - compute) / pure comm x 100)
  int runs = 0;                // timed runs per pass
};

/// OSU's split-phase figures from every rank's means (rank order), `runs` timed runs a pass.
/// Pure: the command gathers the means. As osu_ialltoall defines them (OSU Micro-Benchmarks
/// 5.3, mpi/collective/osu_ialltoall.c and osu_coll.c's calculate_and_print_stats and
/// print_stats_nbc, github.com/forresti/osu-micro-benchmarks at 993f966): every figure is the
/// sum over ranks of each rank's mean, divided by the ranks; the overlap is computed from those
/// averages as max(0, 100 - ((overall - (compute - test)) / pure comm) x 100). a2afft never
/// calls test() between start() and finish() (OSU's default, no -t probes), so test is 0. A pure
/// communication time of 0 leaves nothing to overlap: the overlap is then 0, where OSU would
/// divide by zero. All 0 when there are no ranks.
OsuOverlap osu_overlap(const std::vector<SplitPhaseRankSeconds>& ranks, int runs);

/// A row's spread: its slowest timed run over its median, 1 when every run took alike (0 for a
/// median of 0). The max, not an interquartile ratio, because one slow run is what hides: a
/// median over 20 runs does not move when one of them took 33 times as long (issue 43).
double spread(double median_seconds, double max_seconds);
/// Above this spread a row is marked unstable: a run at least 3 times its median means a slow
/// spell or an outlier hit the row, so the median may not be what the plan usually takes.
inline constexpr double kUnstableSpread = 3.0;
/// What an unstable mark means, said once under a table that has one.
std::string unstable_advice();
/// Why a row of that median and max is unstable ("max 322886.00 us is 33.1x the median (over
/// 3x)"), or empty when it is not; unstable_advice() says what it means. `unit` is "us" or "ms", as
/// the row's table prints it.
std::string unstable_reason(double median_seconds, double max_seconds, const char* unit);

/// Collective: element-wise max over the ranks of `comm`, so each run counts its slowest rank.
void max_over_ranks(std::vector<double>& values, MPI_Comm comm);

/// printf-style formatting of one number, for table cells.
std::string format(const char* pattern, double value);

}  // namespace a2afft::report
