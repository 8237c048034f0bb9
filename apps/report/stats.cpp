#include "report/stats.hpp"

#include <algorithm>
#include <cstdio>
#include <string_view>

#include <a2afft/error.hpp>
#include <a2afft/tools/timing.hpp>

namespace a2afft::report {

Summary summarize(std::vector<double> values) {
  if (values.empty()) return {};
  const auto [min, max] = std::minmax_element(values.begin(), values.end());
  return {timing::median(values), *min, *max};
}

double mean(const std::vector<double>& values) {
  if (values.empty()) return 0;
  double sum = 0;
  for (const double value : values)
    sum += value;
  return sum / static_cast<double>(values.size());
}

OsuSummary osu_summary(const std::vector<double>& rank_mean_seconds, int runs) {
  if (rank_mean_seconds.empty()) return {};
  const auto [min, max] = std::minmax_element(rank_mean_seconds.begin(), rank_mean_seconds.end());
  return {mean(rank_mean_seconds), *min, *max, runs};
}

OsuOverlap osu_overlap(const std::vector<SplitPhaseRankSeconds>& ranks, int runs) {
  if (ranks.empty()) return {};
  OsuOverlap figures;
  for (const SplitPhaseRankSeconds& rank : ranks) {
    figures.overall_seconds += rank.overall_seconds;
    figures.compute_seconds += rank.compute_seconds;
    figures.pure_comm_seconds += rank.pure_comm_seconds;
    figures.init_seconds += rank.init_seconds;
    figures.wait_seconds += rank.wait_seconds;
  }
  const auto count = static_cast<double>(ranks.size());
  for (double* sum : {&figures.overall_seconds, &figures.compute_seconds,
                      &figures.pure_comm_seconds, &figures.init_seconds, &figures.wait_seconds})
    *sum /= count;
  // The communication time the compute did not hide, as a share of the exchange's own time.
  const double exposed_seconds = figures.overall_seconds - figures.compute_seconds;
  figures.overlap_percent =
      figures.pure_comm_seconds > 0
          ? std::max(0.0, 100.0 - exposed_seconds / figures.pure_comm_seconds * 100.0)
          : 0.0;
  figures.runs = runs;
  return figures;
}

double spread(double median_seconds, double max_seconds) {
  return median_seconds > 0 ? max_seconds / median_seconds : 0;
}

std::string unstable_reason(double median_seconds, double max_seconds, const char* unit) {
  const double ratio = spread(median_seconds, max_seconds);
  if (ratio <= kUnstableSpread) return {};
  const double scale = std::string_view(unit) == "ms" ? 1e3 : 1e6;
  return "max " + format("%.2f", max_seconds * scale) + " " + unit + " is " +
         format("%.1f", ratio) + "x the median (over " + format("%g", kUnstableSpread) + "x)";
}

std::string unstable_advice() {
  return "a run over " + format("%g", kUnstableSpread) +
         "x the median: a slow spell or an outlier hit the row, so its median may not be "
         "typical; rerun on a quieter machine or with more --iters";
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
