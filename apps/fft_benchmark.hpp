#pragma once

// The benchmark behind `a2afft fft3d` and `a2afft fft1d`: each candidate plan made once
// (fft_candidate), timed (fft_timing) and checked (fft_checks), one row per engine and plan with
// total, transpose and compute time (median, min, max over runs of the max over ranks),
// GFlop/s and the errors, handed to the reporters.

#include <mpi.h>

#include <array>
#include <optional>
#include <string>
#include <vector>

#include <a2afft/tools/roofline.hpp>

#include "fft_candidate.hpp"
#include "fft_options.hpp"
#include "memory_check.hpp"
#include "report/reporter.hpp"
#include "run_order.hpp"

namespace a2afft::commands {

using report::FftRow;

/// What --roofline measures once, before any plan: memcpy streaming from memory, memcpy at the
/// transforms' own array size (which may partly fit in the last-level cache), and FFTW's
/// in-cache flop rate. The bound of every row uses `memory` and `flops_per_second`.
struct Roofline {
  CopyBandwidth memory;
  CopyBandwidth at_array_size;
  double flops_per_second = 0;
};

/// The roofline when --roofline asks for one (else nothing, and nothing is measured);
/// `array_bytes` is a rank's share of the complex array the transforms move. Collective.
/// The order of an FFT run's trials (--order, or chosen by what fits in memory): each plan
/// holds about five local arrays (input, data, work, send, receive) of `array_bytes_per_rank`
/// on every rank; FFTW-MPI's where `engines` has it, and `a2afft_plans` of a2afft's.
Order choose_fft_order(const FftRunOptions& options, double array_bytes_per_rank,
                       const RankMap& ranks, const Engines& engines, std::size_t a2afft_plans);

std::optional<Roofline> measure_roofline_if_asked(const FftRunOptions& options, MPI_Comm comm,
                                                  std::size_t array_bytes);

/// The FFTW wisdom a run reads before planning and writes after (--wisdom).
struct WisdomUse {
  std::string path;  // as --wisdom names it (float's is path.fftwf); empty: none is kept
  Precision precision = Precision::double_precision;
  bool loaded = false;            // rank 0 read it before planning
  std::string not_kept;           // why the cache is not used (rank 0), when it is not
  std::string to_string() const;  // for the header: "wisdom loaded from ...", ...
};

/// The reporters and the wisdom of one benchmark run.
struct FftReport {
  report::Reporters reporters;
  WisdomUse wisdom;
};

/// The run's reporters (the console on rank 0, and --json and --csv); reads --wisdom for the
/// FFTW of `precision`, then prints the header (context, then `settings` and the wisdom, then the
/// roofline if measured). `exchange_header` names the table's exchange column.
FftReport start_fft_run(const FftRunOptions& options, MPI_Comm comm, Precision precision,
                        const report::RunContext& context, const std::string& settings,
                        const std::string& exchange_header,
                        const std::optional<Roofline>& roofline = std::nullopt);

/// Makes every distinct candidate, times each over `global` (the input is the reproducible test
/// signal of that array) in `order`, then checks each: the round trip, and the output against
/// the first fftw-mpi candidate's. With a `roofline`, each row of a plan that counts its traffic
/// gets its bound. Collective.
std::vector<FftRow> run_fft_benchmark(const FftRunOptions& options, MPI_Comm comm,
                                      const std::array<std::size_t, 3>& global, Order order,
                                      const std::vector<CandidateMaker>& makers,
                                      const std::optional<Roofline>& roofline = std::nullopt);

/// Writes the wisdom (unless --wisdom none), then hands the rows to the reporters and on rank 0
/// prints a FAIL line when a check failed. Returns the exit code: 0 when every row passed, else 1.
int report_fft_results(const FftRunOptions& options, MPI_Comm comm, FftReport& report,
                       const std::vector<FftRow>& rows);

}  // namespace a2afft::commands
