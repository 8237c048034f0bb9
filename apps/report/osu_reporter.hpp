#pragma once

// `a2afft alltoall --format osu`: the console in osu_alltoall -f's layout, so that a script
// written for OSU's output reads a2afft's. The context lines stay (they start with `#`, as OSU's
// comment lines do); the JSON and CSV files are a2afft's as always.

#include <cstddef>
#include <ostream>
#include <string>

#include "report/console_reporter.hpp"
#include "report/reporter.hpp"

namespace a2afft::report {

/// OSU's column header line with its -f columns: "# Size", then "Avg Latency(us)", "Min
/// Latency(us)", "Max Latency(us)" and "Iterations", each padded as osu_coll.c's
/// print_preamble() pads them.
std::string osu_header_line();

/// One block size's line as osu_coll.c's print_stats() writes it with -f: the size left-aligned
/// in 10 characters, the three latencies in microseconds right-aligned in 18 with 2 decimals
/// (its FIELD_WIDTH and FLOAT_PRECISION), the iterations right-aligned in 12.
std::string osu_row_line(std::size_t block_bytes, const OsuSummary& osu);

class OsuReporter final : public Reporter {
 public:
  explicit OsuReporter(std::ostream& out) : out_(out), console_(out) {}
  /// a2afft's `# ` lines, as the table's console prints them.
  void report_context(const Header& header) override { console_.report_context(header); }
  /// Per exchange (in the order they first appear): a blank line, a title line naming a2afft and
  /// the exchange's describe(), osu_header_line(), then one osu_row_line() per block size. Rows
  /// without OSU's figures (plan only) are left out; FAIL and unstable rows are said after the
  /// tables on `# ` lines, so that OSU's readers skip them as comments.
  void report_runs(const std::vector<AlltoallRow>& rows) override;
  /// The FFT commands have no OSU layout: their table.
  void report_runs(const std::vector<FftRow>& rows) override { console_.report_runs(rows); }

 private:
  std::ostream& out_;
  ConsoleReporter console_;
};

}  // namespace a2afft::report
