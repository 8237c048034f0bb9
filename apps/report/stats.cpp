#include "report/stats.hpp"

#include <algorithm>
#include <cstdio>

#include <a2afft/error.hpp>
#include <a2afft/tools/timing.hpp>

namespace a2afft::report {

Summary summarize(std::vector<double> values) {
  if (values.empty()) return {};
  const auto [min, max] = std::minmax_element(values.begin(), values.end());
  return {timing::median(values), *min, *max};
}

void max_over_ranks(std::vector<double>& values, MPI_Comm comm) {
  if (MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_DOUBLE,
                    MPI_MAX, comm) != MPI_SUCCESS) {
    throw MpiError("MPI_Allreduce(max over ranks) failed");
  }
}

std::string format(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

}  // namespace a2afft::report
