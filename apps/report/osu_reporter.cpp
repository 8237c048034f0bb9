#include "report/osu_reporter.hpp"

#include <algorithm>
#include <cstdio>

namespace a2afft::report {
namespace {

// osu_coll.h's FIELD_WIDTH and FLOAT_PRECISION, and the widths print_preamble() and
// print_stats() give the size (10, left-aligned) and the iterations (12).
constexpr int kSizeWidth = 10;
constexpr int kFieldWidth = 18;
constexpr int kFloatPrecision = 2;
constexpr int kIterationsWidth = 12;

}  // namespace

std::string osu_header_line() {
  char text[128];
  std::snprintf(text, sizeof text, "%-*s%*s%*s%*s%*s", kSizeWidth, "# Size", kFieldWidth,
                "Avg Latency(us)", kFieldWidth, "Min Latency(us)", kFieldWidth, "Max Latency(us)",
                kIterationsWidth, "Iterations");
  return text;
}

std::string osu_row_line(std::size_t block_bytes, const OsuSummary& osu) {
  char text[160];
  std::snprintf(text, sizeof text, "%-*zu%*.*f%*.*f%*.*f%*d", kSizeWidth, block_bytes, kFieldWidth,
                kFloatPrecision, osu.avg_seconds * 1e6, kFieldWidth, kFloatPrecision,
                osu.min_seconds * 1e6, kFieldWidth, kFloatPrecision, osu.max_seconds * 1e6,
                kIterationsWidth, osu.runs);
  return text;
}

void OsuReporter::report_runs(const std::vector<AlltoallRow>& rows) {
  // OSU prints one table per benchmark and sizes in rising order; a2afft's rows come size by
  // size, every exchange at each, so they are regrouped by exchange.
  std::vector<std::string> exchanges;
  for (const AlltoallRow& row : rows) {
    if (row.osu && std::find(exchanges.begin(), exchanges.end(), row.exchange) == exchanges.end())
      exchanges.push_back(row.exchange);
  }
  for (const std::string& exchange : exchanges) {
    std::vector<const AlltoallRow*> table;
    for (const AlltoallRow& row : rows) {
      if (row.osu && row.exchange == exchange) table.push_back(&row);
    }
    std::stable_sort(table.begin(), table.end(), [](const AlltoallRow* a, const AlltoallRow* b) {
      return a->block_bytes < b->block_bytes;
    });
    out_ << "\n# OSU MPI All-to-All Personalized Exchange Latency Test layout, by a2afft "
            "alltoall: exchange "
         << exchange << '\n'
         << osu_header_line() << '\n';
    for (const AlltoallRow* row : table)
      out_ << osu_row_line(row->block_bytes, *row->osu) << '\n';
  }
  for (const AlltoallRow& row : rows) {
    if (!row.failure.empty()) {
      out_ << "# FAIL " << row.exchange << " at " << row.block_bytes << " B: " << row.failure
           << '\n';
    }
    const std::string unstable =
        row.plan_only ? "" : unstable_reason(row.median_seconds, row.max_seconds, "us");
    if (!unstable.empty()) {
      out_ << "# unstable: " << row.exchange << " at " << row.block_bytes << " B: " << unstable
           << " (a2afft's max over ranks per run; " << unstable_advice() << ")\n";
    }
  }
  out_.flush();
}

}  // namespace a2afft::report
