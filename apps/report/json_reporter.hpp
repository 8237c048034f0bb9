#pragma once

// The one JSON writer: every JSON file a2afft writes (alltoall, fft3d and fft1d --json, the
// study results of `a2afft run`) goes through write_json_file, and the rows take their JSON form
// here. Field names are documented in docs/commands.md; tests/golden/study_shape.json pins them.

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

#include "report/reporter.hpp"

namespace a2afft::report {

nlohmann::json to_json(const Summary& summary);  // median_seconds, min_seconds, max_seconds
nlohmann::json to_json(const AlltoallRow& row);
nlohmann::json to_json(const FftRow& row);

/// A command's --json document: `context`, `settings`, `results`.
nlohmann::json results_document(const Header& header, nlohmann::json results);

/// Replaces `path` with `text` atomically: writes `path.tmp`, then renames it over `path`, so a
/// reader (or a study interrupted halfway) sees the old file or the new one, never a torn one.
/// Throws UsageError naming the path when it cannot be written.
void write_file_atomically(const std::string& path, std::string_view text);

/// Pretty-printed (two spaces), atomically; for nlohmann::json and nlohmann::ordered_json.
template <typename Json>
void write_json_file(const std::string& path, const Json& document) {
  write_file_atomically(path, document.dump(2) + '\n');
}

/// Writes the whole document when it gets the rows.
class JsonReporter final : public Reporter {
 public:
  explicit JsonReporter(std::string path) : path_(std::move(path)) {}
  void report_context(const Header& header) override { header_ = header; }
  void report_runs(const std::vector<AlltoallRow>& rows) override;
  void report_runs(const std::vector<FftRow>& rows) override;

 private:
  template <typename Row>
  void write(const std::vector<Row>& rows) const;

  std::string path_;
  Header header_;
};

}  // namespace a2afft::report
