#pragma once

// Reporters in Google Benchmark's manner: the context once, then the rows. One class per format
// (console_reporter, json_reporter, csv_reporter); a command makes the ones its options ask for
// and hands them its rows.

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "report/rows.hpp"

namespace a2afft::report {

class Reporter {
 public:
  virtual ~Reporter() = default;
  /// Once, before the first run.
  virtual void report_context(const Header& header) = 0;
  /// Once, with every row of the command.
  virtual void report_runs(const std::vector<AlltoallRow>& rows) = 0;
  virtual void report_runs(const std::vector<FftRow>& rows) = 0;
};

/// Where a command's results go besides the console.
struct ReportFiles {
  std::string json_path;  // empty: no JSON
  std::string csv_path;   // empty: no CSV
};

/// The console's layout: a2afft's table, or osu_alltoall -f's (`alltoall --format osu`).
enum class ConsoleLayout { table, osu };

/// The reporters a command asked for, in order: the console, then JSON and CSV when their path
/// is set. Empty (a no-op) on ranks that do not print, so commands call it on every rank.
class Reporters final : public Reporter {
 public:
  Reporters() = default;
  Reporters(bool printing, std::ostream& console, const ReportFiles& files,
            const std::string& exchange_header = "exchange",
            ConsoleLayout layout = ConsoleLayout::table);
  /// The JSON and CSV reporters alone, for a command that rewrites its files after every row
  /// (`alltoall --plan-only`): report_context() once, then report_runs() with the rows so far.
  static Reporters files_only(bool printing, const ReportFiles& files);
  void report_context(const Header& header) override;
  void report_runs(const std::vector<AlltoallRow>& rows) override;
  void report_runs(const std::vector<FftRow>& rows) override;

 private:
  std::vector<std::unique_ptr<Reporter>> reporters_;
};

}  // namespace a2afft::report
