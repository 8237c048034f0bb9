#include "fft_benchmark.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>

#include <a2afft/tools/fft_tools.hpp>
#include <a2afft/tools/timing.hpp>

#include "commands.hpp"
#include "copy_bandwidth_text.hpp"
#include "fft_checks.hpp"
#include "fft_timing.hpp"

namespace a2afft::commands {
namespace {

// The row of a timed trial, with its checks against `reference` (FFTW-MPI's output on rank 0,
// when it ran); the trial's own output goes to `gathered_output` when asked.
// The row's place under the roofline: the busiest rank's traffic (the time is the slowest
// rank's), nothing for a plan that cannot count it. Collective.
std::optional<report::RooflineCells> bound_of(const FftCandidate& plan, const Roofline& roofline,
                                              MPI_Comm comm) {
  const std::optional<TransformTraffic> traffic = plan.traffic();
  if (!traffic) return std::nullopt;
  double most[2] = {static_cast<double>(traffic->bytes_moved), traffic->flops};
  MPI_Allreduce(MPI_IN_PLACE, most, 2, MPI_DOUBLE, MPI_MAX, comm);
  TransformTraffic busiest = *traffic;
  busiest.bytes_moved = static_cast<std::size_t>(most[0]);
  busiest.flops = most[1];
  report::RooflineCells cells;
  cells.memory_passes = most[0] / static_cast<double>(traffic->array_bytes);
  cells.bytes_moved = most[0];
  cells.flops = most[1];
  cells.bound_seconds = roofline_seconds(busiest, roofline.memory, roofline.flops_per_second);
  return cells;
}

FftRow finish(FftTrial& trial, const FftRunOptions& options, MPI_Comm comm,
              const std::array<std::size_t, 3>& global, const std::vector<Complex>* reference,
              std::vector<Complex>* gathered_output, const std::optional<Roofline>& roofline) {
  FftRow row;
  row.engine = trial.plan->engine();
  row.exchange = trial.plan->describe();
  for (auto* series :
       {&trial.total, &trial.transpose, &trial.compute, &trial.backward, &trial.reshape}) {
    report::max_over_ranks(*series, comm);
  }
  row.total = report::summarize(trial.total);
  row.transpose = report::summarize(trial.transpose);
  row.compute = report::summarize(trial.compute);
  row.has_split = !options.backward && row.engine == "a2afft";  // FFTW-MPI's is one "compute"
  if (options.backward) row.backward_total = report::summarize(trial.backward);
  if (row.has_split && std::any_of(trial.reshape.begin(), trial.reshape.end(),
                                   [](double seconds) { return seconds > 0; })) {
    row.reshape = report::summarize(trial.reshape);
  }
  row.gflops = trial.plan->transform().flops(global) / row.total.median / 1e9;
  if (const std::optional<std::size_t> sent = trial.plan->exchanged_bytes();
      sent && trial.plan->transform().padded()) {
    double most = static_cast<double>(*sent);
    MPI_Allreduce(MPI_IN_PLACE, &most, 1, MPI_DOUBLE, MPI_MAX, comm);
    row.exchanged_bytes = most;
  }
  if (roofline) {
    row.roofline = true;
    row.bound = bound_of(*trial.plan, *roofline, comm);
  }
  const FftErrors errors =
      check_candidate(*trial.plan, trial.input, trial.plan->transform().round_trip_factor(global),
                      reference, gathered_output, comm);
  row.round_trip_error = errors.round_trip;
  row.round_trip_absolute_error = errors.round_trip_absolute;
  row.fftw_mpi_error = errors.vs_reference;
  const double tolerance = options.tolerance_for(trial.plan->transform().precision);
  row.passed = row.round_trip_error <= tolerance &&
               (!row.fftw_mpi_error || *row.fftw_mpi_error <= tolerance);
  // a2afft's and fftw-mpi's rows take --threads (checked before any plan was made), each row
  // its count (a2afft's timed choice under auto); serial FFTW's reference runs on one.
  if (options.names_threads()) {
    int ranks = 1;
    MPI_Comm_size(comm, &ranks);
    row.ranks_x_threads = split_text(ranks, trial.plan->threads());
  }
  return row;
}

// The cache's directory made (rank 0); an empty text when it can be written, else why not.
std::string ready_cache_directory(const std::string& file) {
  if (file.empty()) return "no cache directory: set A2AFFT_WISDOM_DIR, XDG_CACHE_HOME or HOME";
  const std::filesystem::path directory = std::filesystem::path(file).parent_path();
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error) return "cannot create " + directory.string() + ": " + error.message();
  if (::access(directory.c_str(), W_OK) != 0) return "cannot write " + directory.string();
  return {};
}

// --wisdom: `cache` (this machine's cache file; a cache that cannot be made is reported and
// not used, since the run does not depend on it), `none`, or a file the user named (whose
// errors are the user's to see). Reads the wisdom of `precision`. Collective.
WisdomUse load_wisdom(const std::string& option, Precision precision, MPI_Comm comm) {
  WisdomUse use;
  use.precision = precision;
  if (option == "none") return use;
  use.path = option;
  if (option == "cache") {
    use.path = wisdom_cache_file();
    if (is_printing_rank()) use.not_kept = ready_cache_directory(use.path);
    int usable = use.not_kept.empty() ? 1 : 0;
    MPI_Bcast(&usable, 1, MPI_INT, 0, comm);
    if (!usable) {
      use.path.clear();
      return use;
    }
  }
  use.loaded = import_fftw_wisdom(use.path, comm, precision, "--wisdom");
  return use;
}

}  // namespace

Order choose_fft_order(const FftRunOptions& options, double array_bytes_per_rank,
                       const RankMap& ranks, const Engines& engines, std::size_t a2afft_plans) {
  const std::size_t plans = (engines.fftw_mpi ? 1 : 0) + (engines.fftw_serial ? 1 : 0) +
                            (engines.ours ? a2afft_plans : 0);
  return choose_order(options.order, 5.0 * array_bytes_per_rank, ranks, plans);
}

std::optional<Roofline> measure_roofline_if_asked(const FftRunOptions& options, MPI_Comm comm,
                                                  std::size_t array_bytes) {
  if (!options.roofline) return std::nullopt;
  Roofline roofline;
  roofline.memory = measure_copy_bandwidth(comm);
  roofline.at_array_size = measure_copy_bandwidth(comm, std::max<std::size_t>(array_bytes, 1));
  roofline.flops_per_second = measure_fft_compute_roof(comm);
  return roofline;
}

std::string WisdomUse::to_string() const {
  if (!not_kept.empty()) return "wisdom not kept: " + not_kept;
  if (path.empty()) return "wisdom none (--wisdom none)";
  const std::string file = precision == Precision::single_precision ? path + ".fftwf" : path;
  return loaded ? "wisdom loaded from " + file
                : "wisdom made by this run's planning, kept in " + file;
}

FftReport start_fft_run(const FftRunOptions& options, MPI_Comm comm, Precision precision,
                        const report::RunContext& context, const std::string& settings,
                        const std::string& exchange_header,
                        const std::optional<Roofline>& roofline) {
  FftReport report{
      report::Reporters(is_printing_rank(), std::cout, options.report_files(), exchange_header),
      load_wisdom(options.wisdom_path, precision, comm)};
  const std::string described = settings + ", " + report.wisdom.to_string();
  report::Header header{
      context, described + "; times are forward transforms, max over ranks, each on a fresh input",
      described};
  if (roofline) {
    const CopyBandwidth& memory = roofline->memory;
    const CopyBandwidth& near = roofline->at_array_size;
    header.roofline_summary =
        "memcpy " + copy_bandwidth_text(memory) + " (read+write: a memcpy of B bytes moves 2B; " +
        mebibytes(memory.bytes) + " buffers); at the array's " + mebibytes(near.bytes) +
        " per rank " + copy_bandwidth_text(near) +
        report::format("; FFTW in-cache %.2f GFlop/s (1024-point c2c x16, one core)",
                       roofline->flops_per_second / 1e9) +
        "; bound = max(bytes moved / the all-cores figure, flops / FFTW's), per rank";
    header.roofline = {{"memcpy", copy_bandwidth_json(memory)},
                       {"memcpy_at_array_size", copy_bandwidth_json(near)},
                       {"fftw_in_cache_flops_per_second", roofline->flops_per_second},
                       {"bandwidth_convention", "bytes read + bytes written"},
                       {"bound", "max(bytes_moved / memcpy all cores, flops / fftw in cache)"}};
  }
  report.reporters.report_context(header);
  return report;
}

std::vector<FftRow> run_fft_benchmark(const FftRunOptions& options, MPI_Comm comm,
                                      const std::array<std::size_t, 3>& global, Order order,
                                      const std::vector<CandidateMaker>& makers,
                                      const std::optional<Roofline>& roofline) {
  std::vector<FftRow> rows;
  std::vector<Complex> reference;  // the first FFTW-MPI output, on rank 0
  bool have_reference = false;
  DistinctCandidates candidates;
  std::vector<FftTrial> trials(makers.size());  // empty where a maker made nothing
  timing::TrialCallbacks callbacks;
  callbacks.prepare = [&](std::size_t k) {
    if (auto plan = candidates.make(makers[k])) trials[k] = prepare_trial(std::move(plan), global);
  };
  callbacks.run = [&](std::size_t k, int round) {
    if (trials[k].plan) run_trial_once(trials[k], round >= 0, options.backward, comm);
    return 0.0;  // no budget: the rounds are counted
  };
  callbacks.finish = [&](std::size_t k, std::vector<double>&) {
    FftTrial& trial = trials[k];
    if (!trial.plan) return;
    const bool is_reference = !have_reference && trial.plan->engine() == "fftw-mpi";
    rows.push_back(finish(trial, options, comm, global, have_reference ? &reference : nullptr,
                          is_reference ? &reference : nullptr, roofline));
    have_reference = have_reference || is_reference;
    trial = FftTrial{};  // sequential: one plan alive at a time
  };
  timing::run_trials(
      makers.size(), order,
      {.warmup = options.warmup, .fewest = options.iterations, .most = options.iterations},
      callbacks);
  if (is_printing_rank()) candidates.print_notes(std::cout);
  return rows;
}

int report_fft_results(const FftRunOptions& options, MPI_Comm comm, FftReport& report,
                       const std::vector<FftRow>& rows) {
  const WisdomUse& wisdom = report.wisdom;
  if (!wisdom.path.empty()) export_fftw_wisdom(wisdom.path, comm, wisdom.precision, "--wisdom");
  report::Reporters& reporters = report.reporters;
  const bool all_passed =
      std::all_of(rows.begin(), rows.end(), [](const FftRow& row) { return row.passed; });
  reporters.report_runs(rows);
  if (is_printing_rank() && !all_passed) {
    std::cout << "FAIL: an error above exceeds the tolerance";
    if (options.tolerance > 0) std::cout << ' ' << report::format("%.1e", options.tolerance);
    std::cout << '\n';
  }
  return all_passed ? 0 : 1;
}

}  // namespace a2afft::commands
