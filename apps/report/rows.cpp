#include "report/rows.hpp"

#include <algorithm>
#include <set>

namespace a2afft::report {

std::vector<std::string> phase_names(const std::vector<AlltoallRow>& rows) {
  std::vector<std::string> names = {"gather", "inter", "intra", "scatter", "repack"};
  std::set<std::string> seen;
  for (const AlltoallRow& row : rows) {
    for (const auto& [name, seconds] : row.phase_median_seconds)
      seen.insert(name);
  }
  std::erase_if(names, [&](const std::string& name) { return !seen.contains(name); });
  for (const std::string& name : seen) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  return names;
}

bool any_copy_bound(const std::vector<AlltoallRow>& rows) {
  return std::any_of(rows.begin(), rows.end(),
                     [](const AlltoallRow& row) { return row.copy_bound.has_value(); });
}

bool any_plan_time(const std::vector<AlltoallRow>& rows) {
  return std::any_of(rows.begin(), rows.end(),
                     [](const AlltoallRow& row) { return row.plan.has_value(); });
}

bool any_osu(const std::vector<AlltoallRow>& rows) {
  return std::any_of(rows.begin(), rows.end(),
                     [](const AlltoallRow& row) { return row.osu.has_value(); });
}

bool any_osu_overlap(const std::vector<AlltoallRow>& rows) {
  return std::any_of(rows.begin(), rows.end(), [](const AlltoallRow& row) {
    return row.osu_overlap.has_value() || !row.osu_overlap_none.empty();
  });
}

bool any_plan_only(const std::vector<AlltoallRow>& rows) {
  return std::any_of(rows.begin(), rows.end(),
                     [](const AlltoallRow& row) { return row.plan_only; });
}

bool any_timed(const std::vector<AlltoallRow>& rows) {
  return !std::all_of(rows.begin(), rows.end(),
                      [](const AlltoallRow& row) { return row.plan_only; });
}

double vendor_median_seconds(const std::vector<AlltoallRow>& rows, std::size_t block_bytes) {
  for (const AlltoallRow& row : rows) {
    if (row.block_bytes == block_bytes && row.exchange == "mpi" && !row.plan_only)
      return row.median_seconds;
  }
  return 0.0;
}

}  // namespace a2afft::report
