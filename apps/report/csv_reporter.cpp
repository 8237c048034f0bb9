#include "report/csv_reporter.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include <a2afft/error.hpp>

#include "report/context.hpp"

namespace a2afft::report {
namespace {

std::string joined(const std::vector<std::string>& cells) {
  std::string line;
  for (const std::string& cell : cells)
    line += (line.empty() ? "" : ",") + csv_field(cell);
  return line;
}

// Six significant digits, as the JSON's readers would round them anyway; exact enough for
// seconds, errors and GFlop/s.
std::string number(double value) {
  return format("%.6g", value);
}

// osu_ialltoall's figures in seconds and the overlap in percent, or empty cells and why the
// row has none.
void add_osu_overlap_cells(const AlltoallRow& row, std::vector<std::string>& cells) {
  if (!row.osu_overlap) {
    cells.insert(cells.end(), 6, "");
    cells.push_back(row.osu_overlap_none);
    return;
  }
  const OsuOverlap& figures = *row.osu_overlap;
  cells.insert(cells.end(), {number(figures.overall_seconds), number(figures.compute_seconds),
                             number(figures.pure_comm_seconds), number(figures.init_seconds),
                             number(figures.wait_seconds), number(figures.overlap_percent), ""});
}

}  // namespace

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string quoted = "\"";
  for (const char c : text)
    quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + '"';
}

CsvWriter::CsvWriter(const std::string& path, std::vector<std::string> header, Mode mode)
    : path_(path),
      simulated_(simulated_description()),
      environment_(environment_text(reported_environment(process_environment()), ";")) {
  // A simulated build's files say so on every row, in a last column that only they have; as do
  // runs whose collectives were chosen through the environment, so that an `mpi` row forced to
  // one algorithm says so where its numbers are. Other runs' files keep their header.
  // `simulated` stays the last column, as readers of simulated files (and their tests) expect.
  if (!environment_.empty()) header.push_back("environment");
  if (!simulated_.empty()) header.push_back("simulated");
  const std::string header_line = joined(header);
  std::error_code ignored;
  const bool has_rows =
      mode == Mode::append && std::filesystem::file_size(path, ignored) > 0 && !ignored;
  if (has_rows) {
    std::ifstream existing(path);
    std::string first_line;
    std::getline(existing, first_line);
    if (first_line != header_line) {
      throw UsageError(path + " has the CSV header '" + first_line + "', not '" + header_line +
                       "'; appending would misalign its columns");
    }
  }
  out_.open(path, mode == Mode::append ? std::ios::app : std::ios::trunc);
  if (!out_) {
    throw UsageError(path + " could not be written (" + std::strerror(errno) + ")");
  }
  if (!has_rows) {
    out_ << header_line << '\n';
    out_.flush();
    if (!out_) throw UsageError(path + " could not be written");
  }
}

void CsvWriter::add_row(const std::vector<std::string>& cells) {
  out_ << joined(cells) << (environment_.empty() ? "" : "," + csv_field(environment_))
       << (simulated_.empty() ? "" : "," + csv_field(simulated_)) << '\n';
  out_.flush();
  if (!out_) throw UsageError(path_ + " could not be written");
}

void CsvReporter::report_runs(const std::vector<AlltoallRow>& rows) {
  const std::vector<std::string> phases = phase_names(rows);
  std::vector<std::string> header = {"block_bytes", "spec",  "exchange", "median_s",
                                     "min_s",       "max_s", "spread",   "unstable"};
  for (const std::string& name : phases)
    header.push_back(name + "_median_s");
  header.push_back("check");
  // OSU's figures only when asked for (--stats osu), so other runs' files keep their header.
  const bool osu = any_osu(rows);
  if (osu) header.insert(header.end(), {"osu_avg_s", "osu_min_s", "osu_max_s"});
  // osu_ialltoall's figures beside them, and why a row without a split phase has none.
  const bool osu_overlap = any_osu_overlap(rows);
  if (osu_overlap) {
    header.insert(header.end(), {"osu_overall_s", "osu_compute_s", "osu_pure_comm_s", "osu_init_s",
                                 "osu_wait_s", "osu_overlap_percent", "osu_no_overlap_because"});
  }
  // The roofline's columns only when the run measured one, as for the FFTs.
  const bool roofline = any_copy_bound(rows);
  if (roofline) header.insert(header.end(), {"off_rank_bytes_per_rank", "copy_bound_s"});
  // Likewise the plan time's, only when asked for (--plan-time).
  const bool plan_time = any_plan_time(rows);
  if (plan_time) header.insert(header.end(), {"plan_s", "plan_heap_bytes_per_rank"});
  // And a plan-only run's (--plan-only) `run` column, which says so on every row; its time
  // cells are empty, never zeros.
  const bool plan_only = any_plan_only(rows);
  if (plan_only) header.push_back("run");
  CsvWriter csv(path_, header);
  for (const AlltoallRow& row : rows) {
    const auto time = [&](double seconds) { return row.plan_only ? "" : number(seconds); };
    std::vector<std::string> cells = {
        std::to_string(row.block_bytes),
        row.spec,
        row.exchange,
        time(row.median_seconds),
        time(row.min_seconds),
        time(row.max_seconds),
        row.plan_only ? "" : number(spread(row.median_seconds, row.max_seconds)),
        row.plan_only ? "" : unstable_reason(row.median_seconds, row.max_seconds, "us")};
    for (const std::string& name : phases) {
      const auto it = row.phase_median_seconds.find(name);
      cells.push_back(it == row.phase_median_seconds.end() ? "" : number(it->second));
    }
    cells.push_back(row.check);
    if (row.osu) {
      cells.insert(cells.end(), {number(row.osu->avg_seconds), number(row.osu->min_seconds),
                                 number(row.osu->max_seconds)});
    } else if (osu) {
      cells.insert(cells.end(), 3, "");
    }
    if (osu_overlap) add_osu_overlap_cells(row, cells);
    if (row.copy_bound) {
      cells.insert(cells.end(), {std::to_string(row.copy_bound->off_rank_bytes),
                                 number(row.copy_bound->bound_seconds)});
    } else if (roofline) {
      cells.insert(cells.end(), 2, "");
    }
    if (row.plan) {
      cells.insert(cells.end(), {number(row.plan->seconds), number(row.plan->heap_bytes_per_rank)});
    } else if (plan_time) {
      cells.insert(cells.end(), 2, "");
    }
    if (plan_only) cells.push_back(row.plan_only ? "plan only (built and measured, not run)" : "");
    csv.add_row(cells);
  }
}

void CsvReporter::report_runs(const std::vector<FftRow>& rows) {
  // The roofline's columns only when the run measured one, so other runs' files keep their
  // header (and can still be appended to).
  const bool roofline =
      std::any_of(rows.begin(), rows.end(), [](const FftRow& row) { return row.roofline; });
  // Likewise the reshape's, only when a plan reshaped.
  const bool reshape = std::any_of(rows.begin(), rows.end(),
                                   [](const FftRow& row) { return row.reshape.has_value(); });
  std::vector<std::string> header = {"engine",      "exchange",           "total_median_s",
                                     "total_min_s", "total_max_s",        "spread",
                                     "unstable",    "transpose_median_s", "compute_median_s",
                                     "gflops",      "round_trip_error",   "fftw_mpi_error",
                                     "check"};
  if (roofline) {
    header.insert(header.end(), {"memory_passes", "bytes_moved_per_rank", "flops_per_rank",
                                 "bound_s", "measured_over_bound"});
  }
  if (reshape) header.push_back("reshape_median_s");
  // And the bytes exchanged, only for padded transforms.
  const bool exchanged = std::any_of(
      rows.begin(), rows.end(), [](const FftRow& row) { return row.exchanged_bytes.has_value(); });
  if (exchanged) header.push_back("exchanged_bytes_forward_backward_per_rank");
  // And the split of ranks and threads, only when the run asked for threads.
  const bool split = std::any_of(rows.begin(), rows.end(),
                                 [](const FftRow& row) { return !row.ranks_x_threads.empty(); });
  if (split) header.push_back("ranks_x_threads");
  CsvWriter csv(path_, header);
  for (const FftRow& row : rows) {
    std::vector<std::string> cells = {row.engine,
                                      row.exchange,
                                      number(row.total.median),
                                      number(row.total.min),
                                      number(row.total.max),
                                      number(spread(row.total.median, row.total.max)),
                                      unstable_reason(row.total.median, row.total.max, "ms"),
                                      number(row.transpose.median),
                                      number(row.compute.median),
                                      number(row.gflops),
                                      number(row.round_trip_error),
                                      row.fftw_mpi_error ? number(*row.fftw_mpi_error) : "",
                                      row.passed ? "PASS" : "FAIL"};
    if (roofline && row.bound) {
      cells.insert(cells.end(), {number(row.bound->memory_passes), number(row.bound->bytes_moved),
                                 number(row.bound->flops), number(row.bound->bound_seconds),
                                 number(row.total.median / row.bound->bound_seconds)});
    } else if (roofline) {
      cells.insert(cells.end(), 5, "");
    }
    if (reshape) cells.push_back(row.reshape ? number(row.reshape->median) : "");
    if (exchanged) cells.push_back(row.exchanged_bytes ? number(*row.exchanged_bytes) : "");
    if (split) cells.push_back(row.ranks_x_threads);
    csv.add_row(cells);
  }
}

}  // namespace a2afft::report
