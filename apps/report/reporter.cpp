#include "report/reporter.hpp"

#include "report/console_reporter.hpp"
#include "report/csv_reporter.hpp"
#include "report/json_reporter.hpp"
#include "report/osu_reporter.hpp"

namespace a2afft::report {

Reporters::Reporters(bool printing, std::ostream& console, const ReportFiles& files,
                     const std::string& exchange_header, ConsoleLayout layout) {
  if (!printing) return;
  if (layout == ConsoleLayout::osu) {
    reporters_.push_back(std::make_unique<OsuReporter>(console));
  } else {
    reporters_.push_back(std::make_unique<ConsoleReporter>(console, exchange_header));
  }
  if (!files.json_path.empty())
    reporters_.push_back(std::make_unique<JsonReporter>(files.json_path));
  if (!files.csv_path.empty()) reporters_.push_back(std::make_unique<CsvReporter>(files.csv_path));
}

Reporters Reporters::files_only(bool printing, const ReportFiles& files) {
  Reporters reporters;
  if (!printing) return reporters;
  if (!files.json_path.empty())
    reporters.reporters_.push_back(std::make_unique<JsonReporter>(files.json_path));
  if (!files.csv_path.empty())
    reporters.reporters_.push_back(std::make_unique<CsvReporter>(files.csv_path));
  return reporters;
}

void Reporters::report_context(const Header& header) {
  for (const auto& reporter : reporters_)
    reporter->report_context(header);
}

void Reporters::report_runs(const std::vector<AlltoallRow>& rows) {
  for (const auto& reporter : reporters_)
    reporter->report_runs(rows);
}

void Reporters::report_runs(const std::vector<FftRow>& rows) {
  for (const auto& reporter : reporters_)
    reporter->report_runs(rows);
}

}  // namespace a2afft::report
