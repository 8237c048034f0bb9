#pragma once

// CSV: one header line, one line per row (RFC 4180). The headers are documented in
// docs/commands.md.

#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "report/reporter.hpp"

namespace a2afft::report {

/// `text` as one CSV field: in double quotes (inner quotes doubled) when it holds a comma, a
/// quote or a line break, as specs and describe() often do; as it is otherwise.
std::string csv_field(std::string_view text);

/// Writes a CSV file row by row, each flushed at once, so the rows written so far survive when
/// a long study is interrupted.
class CsvWriter {
 public:
  enum class Mode { replace, append };
  /// `replace` starts `path` afresh with `header`. `append` adds rows to it: the header is
  /// written only when the file is new or empty, and an existing file must have this header
  /// (else UsageError: its rows would not line up). Throws UsageError naming the path when it
  /// cannot be opened.
  /// In a simulated build every file gets a last column, `simulated`, with
  /// simulated_description() on every row; and when any reported_environment() setting is set
  /// (OMPI_MCA_coll*, ...), a column `environment` with them, "NAME=value;NAME=value", last
  /// but for `simulated`.
  CsvWriter(const std::string& path, std::vector<std::string> header, Mode mode = Mode::replace);
  /// One line; each cell is quoted as csv_field() says.
  void add_row(const std::vector<std::string>& cells);

 private:
  std::string path_;
  std::string simulated_;    // simulated_description(), "" on real hardware
  std::string environment_;  // environment_text(reported_environment()), "" when none is set
  std::ofstream out_;
};

/// Writes a fresh file per command; the FFT and alltoall headers are in docs/commands.md.
class CsvReporter final : public Reporter {
 public:
  explicit CsvReporter(std::string path) : path_(std::move(path)) {}
  void report_context(const Header&) override {}  // a CSV holds rows only
  /// block_bytes,spec,exchange,median_s,min_s,max_s, then <phase>_median_s for every phase in
  /// phase_names() order (empty where a row has none), then check; with --stats osu
  /// osu_avg_s,osu_min_s,osu_max_s, then osu_ialltoall's osu_overall_s,osu_compute_s,
  /// osu_pure_comm_s,osu_init_s,osu_wait_s,osu_overlap_percent (empty without a split phase) and
  /// osu_no_overlap_because (why not, else empty); with --roofline
  /// off_rank_bytes_per_rank,copy_bound_s; with --plan-time plan_s,plan_heap_bytes_per_rank;
  /// with --plan-only (time cells empty) run, "plan only (built and measured, not run)".
  void report_runs(const std::vector<AlltoallRow>& rows) override;
  /// engine,exchange,total_median_s,total_min_s,total_max_s,transpose_median_s,
  /// compute_median_s,gflops,round_trip_error,fftw_mpi_error,check.
  void report_runs(const std::vector<FftRow>& rows) override;

 private:
  std::string path_;
};

}  // namespace a2afft::report
