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

/// Collective: element-wise max over the ranks of `comm`, so each run counts its slowest rank.
void max_over_ranks(std::vector<double>& values, MPI_Comm comm);

/// printf-style formatting of one number, for table cells.
std::string format(const char* pattern, double value);

}  // namespace a2afft::report
