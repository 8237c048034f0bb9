#pragma once

// The timing loop, checks and reports shared by `a2afft fft3d` and `a2afft fft1d`: one row per
// engine and exchange with total, transpose and compute time (median, min, max over runs of the
// max over ranks), GFlop/s, the round-trip error and the error against FFTW-MPI's output.

#include <CLI/CLI.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fftw_plan.hpp"
#include "geometry.hpp"
#include "memory_check.hpp"
#include "report/context.hpp"
#include "report/stats.hpp"
#include "timing/phase_timer.hpp"
#include "topology/topology.hpp"

namespace a2afft::commands {

/// Options every FFT benchmark command has.
struct FftRunOptions {
  std::vector<std::string> engines{"a2afft", "fftw-mpi"};
  std::string rigor = "estimate";
  std::string order = "auto";
  int iterations = 10;
  int warmup = 2;
  bool backward = false;
  double tolerance = 1e-12;
  std::string json_path;
  std::string csv_path;
  std::string wisdom_path;
  void add_to(CLI::App& command);
};

/// Which engines run: throws UsageError for an unknown one.
struct Engines {
  bool ours = false;
  bool fftw_mpi = false;
};
Engines parse_engines(const std::vector<std::string>& engines);

struct FftRow {
  std::string engine;
  std::string exchange;
  report::Summary total, transpose, compute;
  std::optional<report::Summary> backward_total;
  double gflops = 0;
  double round_trip_error = 0;           // max |IFFT(FFT(x))/N - x| / max |x|
  double round_trip_absolute_error = 0;  // max |IFFT(FFT(x))/N - x|: HPCC's maxErr
  std::optional<double> fftw_mpi_error;
  bool passed = true;
};

/// What the benchmark needs of a plan (Pencil3d, SixStep1d, FftwMpi3d, FftwMpi1d), so every
/// engine is timed in one loop.
class FftCandidate {
 public:
  explicit FftCandidate(std::string engine) : engine_(std::move(engine)) {}
  virtual ~FftCandidate() = default;
  const std::string& engine() const { return engine_; }
  virtual std::string describe() const = 0;
  virtual fft::Box3 input_box() const = 0;
  virtual fft::Complex* data() = 0;
  virtual void forward() = 0;
  virtual void backward() = 0;
  virtual std::vector<fft::Complex> gather_output() const = 0;
  virtual void attach_timer(PhaseTimer* timer) = 0;

 private:
  std::string engine_;
};

template <typename Plan>
class PlanCandidate final : public FftCandidate {
 public:
  PlanCandidate(std::string engine, std::unique_ptr<Plan> plan)
      : FftCandidate(std::move(engine)), plan_(std::move(plan)) {}
  std::string describe() const override { return plan_->describe(); }
  fft::Box3 input_box() const override { return plan_->input_box(); }
  fft::Complex* data() override { return plan_->data(); }
  void forward() override { plan_->forward(); }
  void backward() override { plan_->backward(); }
  std::vector<fft::Complex> gather_output() const override { return plan_->gather_output(); }
  void attach_timer(PhaseTimer* timer) override { plan_->attach_timer(timer); }

 private:
  std::unique_ptr<Plan> plan_;
};

template <typename Plan>
std::unique_ptr<FftCandidate> make_candidate(std::string engine, std::unique_ptr<Plan> plan) {
  return std::make_unique<PlanCandidate<Plan>>(std::move(engine), std::move(plan));
}

/// Makes one candidate, or returns nullptr for one that was reported as not run.
using CandidateMaker = std::function<std::unique_ptr<FftCandidate>()>;

/// A refusal (UsageError) from a maker of a backend that came in through `all` is printed as
/// `# not run: ...` and skipped; other makers' errors stop the run.
CandidateMaker skipping_refusal_if(bool from_all, CandidateMaker make);

/// Interleaved runs spread the machine's slow spells over every plan alike, so the rows of one
/// table compare fairly; they need every plan alive at once.
enum class Order { interleaved, sequential };
/// `auto` is interleaved when `plan_count` plans of `bytes_per_rank` each fit in half the
/// node's memory, else sequential. Throws UsageError for other words, or for `interleaved`
/// when it would not fit.
Order choose_order(const std::string& text, double bytes_per_rank, const Topology& topology,
                   std::size_t plan_count);
std::string to_string(Order order);

/// The peak memory of an FFT benchmark of `points` complex points: per plan four local arrays
/// (data, send, receive, its input) and its exchanges' scratch (`scratch_per_plan`, one entry
/// per a2afft plan), FFTW-MPI's data and work arrays; every plan at once when interleaved.
/// Rank 0 also holds the gathered output and FFTW-MPI's reference for the checks.
cli::MemoryEstimate fft_memory_estimate(double points, const Topology& topology, Order order,
                                        bool fftw_mpi, const std::vector<double>& scratch_per_plan);

/// Prints the run's header on rank 0 (context, then `settings`) and reads --wisdom if given.
void start_fft_run(const FftRunOptions& options, const Topology& topology,
                   const report::RunContext& context, const std::string& settings);

/// Times every candidate over `global` (the input is the reproducible test signal of that
/// array), in `order`, then checks each: the round trip, and the output against the first
/// fftw-mpi candidate's. Collective.
std::vector<FftRow> run_fft_benchmark(const FftRunOptions& options, const Topology& topology,
                                      const fft::Shape3& global, Order order,
                                      const std::vector<CandidateMaker>& makers);

/// The console table on rank 0; `exchange_header` names the exchange column.
void print_fft_rows(const std::vector<FftRow>& rows, bool backward,
                    const std::string& exchange_header);
/// Writes wisdom (when asked), then on rank 0 the table, a FAIL line when a check failed, and
/// --json/--csv. Returns the exit code: 0 when every row passed, else 1.
int report_fft_results(const FftRunOptions& options, const Topology& topology,
                       const report::RunContext& context, const std::string& settings,
                       const std::vector<FftRow>& rows, const std::string& exchange_header);

}  // namespace a2afft::commands
