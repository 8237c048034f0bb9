#include "report/console_reporter.hpp"

#include <algorithm>

#include "report/text_table.hpp"

namespace a2afft::report {
namespace {

std::string microseconds(double seconds) {
  return format("%.2f", seconds * 1e6);
}
std::string milliseconds(double seconds) {
  return format("%.3f", seconds * 1e3);
}
std::string error_text(double error) {
  return format("%.1e", error);
}
// The spread cell: "1.08x", and "33.1x unstable" past kUnstableSpread (reasons follow the table).
std::string spread_text(double median_seconds, double max_seconds) {
  const double ratio = spread(median_seconds, max_seconds);
  return format("%.2fx", ratio) + (ratio > kUnstableSpread ? " unstable" : "");
}

// osu_ialltoall's overall, compute and pure communication [us] and overlap [%], or "-" for a
// row without a split phase (the reason follows the table).
void add_osu_overlap_cells(const AlltoallRow& row, std::vector<std::string>& cells) {
  if (!row.osu_overlap) {
    cells.insert(cells.end(), 4, "-");
    return;
  }
  const OsuOverlap& figures = *row.osu_overlap;
  cells.insert(cells.end(),
               {microseconds(figures.overall_seconds), microseconds(figures.compute_seconds),
                microseconds(figures.pure_comm_seconds), format("%.2f", figures.overlap_percent)});
}

}  // namespace

void ConsoleReporter::report_context(const Header& header) {
  print_context(out_, header.context);
  out_ << "# " << header.summary << '\n';
  if (!header.roofline_summary.empty()) out_ << "# roofline: " << header.roofline_summary << '\n';
  out_.flush();  // before the runs, which may take long
}

void ConsoleReporter::report_runs(const std::vector<AlltoallRow>& rows) {
  const bool has_vendor = std::any_of(rows.begin(), rows.end(),
                                      [](const AlltoallRow& row) { return row.exchange == "mpi"; });
  const bool validated = std::any_of(rows.begin(), rows.end(),
                                     [](const AlltoallRow& row) { return row.check != "-"; });
  // Plan only (--plan-only), nothing ran: no time columns at all.
  const bool timed = any_timed(rows);
  std::vector<TextTable::Column> columns = {{"block [B]", true}, {"exchange"}};
  if (timed) {
    columns.insert(
        columns.end(),
        {{"median [us]", true}, {"min [us]", true}, {"max [us]", true}, {"spread", true}});
  }
  if (has_vendor && timed) columns.push_back({"vs mpi", true});
  // --stats osu: osu_alltoall -f's figures beside ours, so the two can be told apart.
  const bool osu = any_osu(rows);
  if (osu) {
    columns.insert(columns.end(),
                   {{"osu avg [us]", true}, {"osu min [us]", true}, {"osu max [us]", true}});
  }
  // osu_ialltoall's figures, for the rows with a split phase.
  const bool osu_overlap = any_osu_overlap(rows);
  if (osu_overlap) {
    columns.insert(columns.end(), {{"osu overall [us]", true},
                                   {"osu compute [us]", true},
                                   {"osu pure comm [us]", true},
                                   {"osu overlap [%]", true}});
  }
  const bool roofline = any_copy_bound(rows);
  if (roofline) {
    columns.insert(columns.end(),
                   {{"GB/s off-rank", true}, {"copy bound [us]", true}, {"vs bound", true}});
  }
  const std::vector<std::string> phases = phase_names(rows);
  for (const std::string& name : phases)
    columns.push_back({name + " [us]", true});
  const bool plan_time = any_plan_time(rows);
  if (plan_time)
    columns.insert(columns.end(), {{"plan [ms]", true}, {"plan heap/rank [KiB]", true}});
  if (validated) columns.push_back({"check"});
  TextTable table(columns);
  for (const AlltoallRow& row : rows) {
    std::vector<std::string> cells = {std::to_string(row.block_bytes), row.exchange};
    if (timed) {
      for (const double seconds : {row.median_seconds, row.min_seconds, row.max_seconds})
        cells.push_back(row.plan_only ? "-" : microseconds(seconds));
      cells.push_back(row.plan_only ? "-" : spread_text(row.median_seconds, row.max_seconds));
    }
    if (has_vendor && timed) {
      const double vendor = vendor_median_seconds(rows, row.block_bytes);
      cells.push_back(vendor > 0 && !row.plan_only ? format("%.2fx", row.median_seconds / vendor)
                                                   : "-");
    }
    if (row.osu) {
      for (const double seconds :
           {row.osu->avg_seconds, row.osu->min_seconds, row.osu->max_seconds})
        cells.push_back(microseconds(seconds));
    } else if (osu) {
      cells.insert(cells.end(), 3, "-");
    }
    if (osu_overlap) add_osu_overlap_cells(row, cells);
    if (row.copy_bound) {
      const CopyBoundCells& bound = *row.copy_bound;
      cells.insert(cells.end(), {format("%.2f", static_cast<double>(bound.off_rank_bytes) /
                                                    row.median_seconds / 1e9),
                                 microseconds(bound.bound_seconds),
                                 format("%.2fx", row.median_seconds / bound.bound_seconds)});
    } else if (roofline) {
      cells.insert(cells.end(), {"-", "-", "-"});
    }
    for (const std::string& name : phases) {
      const auto it = row.phase_median_seconds.find(name);
      cells.push_back(it == row.phase_median_seconds.end() ? "-" : microseconds(it->second));
    }
    if (row.plan) {
      cells.insert(cells.end(), {milliseconds(row.plan->seconds),
                                 format("%.1f", row.plan->heap_bytes_per_rank / 1024)});
    } else if (plan_time) {
      cells.insert(cells.end(), {"-", "-"});
    }
    if (validated) cells.push_back(row.check);
    table.add_row(std::move(cells));
  }
  table.print(out_);
  bool any_unstable = false;
  for (const AlltoallRow& row : rows) {
    if (!row.failure.empty()) {
      out_ << "FAIL " << row.exchange << " at " << row.block_bytes << " B: " << row.failure << '\n';
    }
    const std::string unstable =
        row.plan_only ? "" : unstable_reason(row.median_seconds, row.max_seconds, "us");
    if (!unstable.empty()) {
      out_ << "unstable: " << row.exchange << " at " << row.block_bytes << " B: " << unstable
           << '\n';
      any_unstable = true;
    }
  }
  if (any_unstable) out_ << "(unstable: " << unstable_advice() << ")\n";
  print_osu_overlap_refusals(rows);
}

// Why a row has no osu_ialltoall figures, once per exchange and reason (block sizes alike).
void ConsoleReporter::print_osu_overlap_refusals(const std::vector<AlltoallRow>& rows) {
  std::vector<std::pair<std::string, std::string>> said;
  for (const AlltoallRow& row : rows) {
    if (row.osu_overlap_none.empty()) continue;
    const std::pair<std::string, std::string> item{row.exchange, row.osu_overlap_none};
    if (std::find(said.begin(), said.end(), item) != said.end()) continue;
    said.push_back(item);
    out_ << "no osu_ialltoall figures: " << row.exchange << ": " << row.osu_overlap_none << '\n';
  }
}

void ConsoleReporter::report_runs(const std::vector<FftRow>& rows) {
  const bool backward = std::any_of(
      rows.begin(), rows.end(), [](const FftRow& row) { return row.backward_total.has_value(); });
  std::vector<TextTable::Column> columns = {
      {"engine"},         {exchange_header_}, {"total [ms]", true},     {"min [ms]", true},
      {"max [ms]", true}, {"spread", true},   {"transpose [ms]", true}, {"compute [ms]", true},
      {"GFlop/s", true}};
  const bool roofline =
      std::any_of(rows.begin(), rows.end(), [](const FftRow& row) { return row.roofline; });
  if (roofline) {
    columns.insert(
        columns.end(),
        {{"passes", true}, {"MiB/rank", true}, {"bound [ms]", true}, {"vs bound", true}});
  }
  const bool reshape = std::any_of(rows.begin(), rows.end(),
                                   [](const FftRow& row) { return row.reshape.has_value(); });
  if (reshape) columns.push_back({"reshape [ms]", true});
  const bool exchanged = std::any_of(
      rows.begin(), rows.end(), [](const FftRow& row) { return row.exchanged_bytes.has_value(); });
  if (exchanged) columns.push_back({"exchanged f+b [MiB]", true});
  if (backward) columns.push_back({"backward [ms]", true});
  columns.insert(columns.end(), {{"round trip", true}, {"vs fftw-mpi", true}, {"check"}});
  TextTable table(columns);
  for (const FftRow& row : rows) {
    std::vector<std::string> cells = {row.engine,
                                      row.exchange,
                                      milliseconds(row.total.median),
                                      milliseconds(row.total.min),
                                      milliseconds(row.total.max),
                                      spread_text(row.total.median, row.total.max),
                                      row.has_split ? milliseconds(row.transpose.median) : "-",
                                      row.has_split ? milliseconds(row.compute.median) : "-",
                                      format("%.2f", row.gflops)};
    if (roofline && row.bound) {
      const RooflineCells& bound = *row.bound;
      cells.insert(cells.end(),
                   {format("%.2f", bound.memory_passes),
                    format("%.1f", bound.bytes_moved / 1048576), milliseconds(bound.bound_seconds),
                    format("%.2fx", row.total.median / bound.bound_seconds)});
    } else if (roofline) {
      cells.insert(cells.end(), {"-", "-", "-", "-"});
    }
    if (reshape) cells.push_back(row.reshape ? milliseconds(row.reshape->median) : "-");
    if (exchanged) {
      cells.push_back(row.exchanged_bytes ? format("%.2f", *row.exchanged_bytes / 1048576) : "-");
    }
    if (backward)
      cells.push_back(row.backward_total ? milliseconds(row.backward_total->median) : "-");
    cells.push_back(error_text(row.round_trip_error));
    cells.push_back(row.fftw_mpi_error ? error_text(*row.fftw_mpi_error) : "-");
    cells.push_back(row.passed ? "PASS" : "FAIL");
    table.add_row(std::move(cells));
  }
  table.print(out_);
  bool any_unstable = false;
  for (const FftRow& row : rows) {
    const std::string unstable = unstable_reason(row.total.median, row.total.max, "ms");
    any_unstable = any_unstable || !unstable.empty();
    if (!unstable.empty())
      out_ << "unstable: " << row.engine << " " << row.exchange << ": " << unstable << '\n';
  }
  if (any_unstable) out_ << "(unstable: " << unstable_advice() << ")\n";
}

}  // namespace a2afft::report
