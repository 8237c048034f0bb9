#pragma once

// The console reporter: the context as `# ` lines, then one aligned table of the rows.

#include <ostream>
#include <string>

#include "report/reporter.hpp"

namespace a2afft::report {

class ConsoleReporter final : public Reporter {
 public:
  /// `exchange_header` names the FFT tables' exchange column, e.g. `exchange (row, column)`.
  explicit ConsoleReporter(std::ostream& out, std::string exchange_header = "exchange")
      : out_(out), exchange_header_(std::move(exchange_header)) {}
  void report_context(const Header& header) override;
  /// Times in microseconds, `vs mpi` when the vendor ran, a column per phase, `check` when
  /// validated, the plan's cost with --plan-time (no time columns when every row is plan only);
  /// then a `FAIL` line per failed row saying what failed; with --stats osu, osu_alltoall -f's
  /// figures and osu_ialltoall's, and why a row has none of the latter.
  void report_runs(const std::vector<AlltoallRow>& rows) override;
  /// Times in milliseconds; `-` where a row has no transpose/compute split or no FFTW-MPI error.
  void report_runs(const std::vector<FftRow>& rows) override;

 private:
  /// A `no osu_ialltoall figures: EXCHANGE: why` line per exchange and reason (--stats osu).
  void print_osu_overlap_refusals(const std::vector<AlltoallRow>& rows);

  std::ostream& out_;
  std::string exchange_header_;
};

}  // namespace a2afft::report
