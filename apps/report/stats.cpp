#include "report/stats.hpp"

#include <algorithm>
#include <cstdio>

#include "mpi/comm.hpp"

namespace a2afft::report {

Summary summarize(std::vector<double> values) {
  if (values.empty()) return {};
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  const double median =
      values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
  return {median, values.front(), values.back()};
}

void max_over_ranks(std::vector<double>& values, MPI_Comm comm) {
  mpi::check(MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_DOUBLE,
                           MPI_MAX, comm),
             "MPI_Allreduce(max over ranks)");
}

std::string format(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

}  // namespace a2afft::report
