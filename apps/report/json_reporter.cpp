#include "report/json_reporter.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include <a2afft/error.hpp>

namespace a2afft::report {

nlohmann::json to_json(const Summary& summary) {
  return {{"median_seconds", summary.median},
          {"min_seconds", summary.min},
          {"max_seconds", summary.max}};
}

namespace {

// A timed row's "spread" (max over median), "unstable" mark and "unstable_reason" (empty when
// stable: every row has the same keys, so a results schema does not depend on the machine's noise).
void add_spread(nlohmann::json& item, double median_seconds, double max_seconds, const char* unit) {
  item["spread"] = spread(median_seconds, max_seconds);
  const std::string reason = unstable_reason(median_seconds, max_seconds, unit);
  item["unstable"] = !reason.empty();
  item["unstable_reason"] = reason;
}

}  // namespace

nlohmann::json to_json(const AlltoallRow& row) {
  nlohmann::json item = {
      {"block_bytes", row.block_bytes}, {"spec", row.spec}, {"exchange", row.exchange}};
  // A plan-only row was never run: no times at all, rather than zeros.
  if (row.plan_only) {
    item["plan_only"] = true;
  } else {
    item["median_seconds"] = row.median_seconds;
    item["min_seconds"] = row.min_seconds;
    item["max_seconds"] = row.max_seconds;
    add_spread(item, row.median_seconds, row.max_seconds, "us");
  }
  item["check"] = row.check;
  if (!row.phase_median_seconds.empty()) item["phase_median_seconds"] = row.phase_median_seconds;
  if (row.plan) {
    item["plan_seconds"] = row.plan->seconds;
    item["plan_heap_bytes_per_rank"] = row.plan->heap_bytes_per_rank;
  }
  if (row.osu) {
    item["osu"] = {{"avg_seconds", row.osu->avg_seconds},
                   {"min_seconds", row.osu->min_seconds},
                   {"max_seconds", row.osu->max_seconds},
                   {"iterations", row.osu->runs}};
  }
  if (row.osu_overlap) {
    const OsuOverlap& figures = *row.osu_overlap;
    item["osu_ialltoall"] = {{"overall_seconds", figures.overall_seconds},
                             {"compute_seconds", figures.compute_seconds},
                             {"pure_comm_seconds", figures.pure_comm_seconds},
                             {"init_seconds", figures.init_seconds},
                             {"wait_seconds", figures.wait_seconds},
                             {"overlap_percent", figures.overlap_percent},
                             {"iterations", figures.runs}};
  } else if (!row.osu_overlap_none.empty()) {
    item["osu_ialltoall_none"] = row.osu_overlap_none;
  }
  if (row.copy_bound) {
    item["copy_bound"] = {{"off_rank_bytes_per_rank", row.copy_bound->off_rank_bytes},
                          {"bound_seconds", row.copy_bound->bound_seconds}};
  }
  return item;
}

nlohmann::json to_json(const FftRow& row) {
  nlohmann::json item = {{"engine", row.engine},
                         {"exchange", row.exchange},
                         {"total", to_json(row.total)},
                         {"transpose", to_json(row.transpose)},
                         {"compute", to_json(row.compute)},
                         {"gflops", row.gflops},
                         {"round_trip_error", row.round_trip_error},
                         {"round_trip_absolute_error", row.round_trip_absolute_error},
                         {"check", row.passed ? "PASS" : "FAIL"}};
  add_spread(item, row.total.median, row.total.max, "ms");
  if (row.fftw_mpi_error) item["fftw_mpi_error"] = *row.fftw_mpi_error;
  if (row.backward_total) item["backward"] = to_json(*row.backward_total);
  if (row.reshape) item["reshape"] = to_json(*row.reshape);
  if (row.exchanged_bytes) item["exchanged_bytes_forward_backward_per_rank"] = *row.exchanged_bytes;
  if (!row.ranks_x_threads.empty()) item["ranks_x_threads"] = row.ranks_x_threads;
  if (row.bound) {
    item["roofline"] = {{"memory_passes", row.bound->memory_passes},
                        {"bytes_moved_per_rank", row.bound->bytes_moved},
                        {"flops_per_rank", row.bound->flops},
                        {"bound_seconds", row.bound->bound_seconds},
                        {"measured_over_bound", row.total.median / row.bound->bound_seconds}};
  }
  return item;
}

nlohmann::json results_document(const Header& header, nlohmann::json results) {
  nlohmann::json document = {{"context", to_json(header.context)},
                             {"settings", header.settings},
                             {"results", std::move(results)}};
  if (!header.roofline.is_null()) document["roofline"] = header.roofline;
  return document;
}

void write_file_atomically(const std::string& path, std::string_view text) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (!out) {
      const std::string reason = std::strerror(errno);
      std::remove(temporary.c_str());
      throw UsageError(path + " could not be written (" + reason + ")");
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    std::remove(temporary.c_str());
    throw UsageError(path + " could not be replaced (" + reason + ")");
  }
}

template <typename Row>
void JsonReporter::write(const std::vector<Row>& rows) const {
  nlohmann::json results = nlohmann::json::array();
  for (const Row& row : rows)
    results.push_back(to_json(row));
  write_json_file(path_, results_document(header_, std::move(results)));
}

void JsonReporter::report_runs(const std::vector<AlltoallRow>& rows) {
  write(rows);
}

void JsonReporter::report_runs(const std::vector<FftRow>& rows) {
  write(rows);
}

}  // namespace a2afft::report
