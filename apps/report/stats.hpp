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
