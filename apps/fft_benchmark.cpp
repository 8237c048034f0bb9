#include "fft_benchmark.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>

#include <a2afft/fft_tools.hpp>
#include <a2afft/timing.hpp>

#include "commands.hpp"
#include "fft_checks.hpp"
#include "fft_timing.hpp"

namespace a2afft::commands {
namespace {

// The row of a timed trial, with its checks against `reference` (FFTW-MPI's output on rank 0,
// when it ran); the trial's own output goes to `gathered_output` when asked.
FftRow finish(FftTrial& trial, const FftRunOptions& options, MPI_Comm comm, double points,
              const std::vector<Complex>* reference, std::vector<Complex>* gathered_output) {
  FftRow row;
  row.engine = trial.plan->engine();
  row.exchange = trial.plan->describe();
  for (auto* series : {&trial.total, &trial.transpose, &trial.compute, &trial.backward}) {
    report::max_over_ranks(*series, comm);
  }
  row.total = report::summarize(trial.total);
  row.transpose = report::summarize(trial.transpose);
  row.compute = report::summarize(trial.compute);
  row.has_split = !options.backward && row.engine == "a2afft";  // FFTW-MPI's is one "compute"
  if (options.backward) row.backward_total = report::summarize(trial.backward);
  row.gflops = trial.plan->transform().flops(points) / row.total.median / 1e9;
  const FftErrors errors =
      check_candidate(*trial.plan, trial.input, points, reference, gathered_output, comm);
  row.round_trip_error = errors.round_trip;
  row.round_trip_absolute_error = errors.round_trip_absolute;
  row.fftw_mpi_error = errors.vs_reference;
  const double tolerance = options.tolerance_for(trial.plan->transform().precision);
  row.passed = row.round_trip_error <= tolerance &&
               (!row.fftw_mpi_error || *row.fftw_mpi_error <= tolerance);
  return row;
}

}  // namespace

report::Reporters start_fft_run(const FftRunOptions& options, MPI_Comm comm,
                                const report::RunContext& context, const std::string& settings,
                                const std::string& exchange_header) {
  report::Reporters reporters(is_printing_rank(), std::cout, options.report_files(),
                              exchange_header);
  reporters.report_context(
      {context, settings + "; times are forward transforms, max over ranks, each on a fresh input",
       settings});
  if (!options.wisdom_path.empty()) import_fftw_wisdom(options.wisdom_path, comm);
  return reporters;
}

std::vector<FftRow> run_fft_benchmark(const FftRunOptions& options, MPI_Comm comm,
                                      const std::array<std::size_t, 3>& global, Order order,
                                      const std::vector<CandidateMaker>& makers) {
  const double points = static_cast<double>(global[0] * global[1] * global[2]);
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
    rows.push_back(finish(trial, options, comm, points, have_reference ? &reference : nullptr,
                          is_reference ? &reference : nullptr));
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

int report_fft_results(const FftRunOptions& options, MPI_Comm comm, report::Reporters& reporters,
                       const std::vector<FftRow>& rows) {
  if (!options.wisdom_path.empty()) export_fftw_wisdom(options.wisdom_path, comm);
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
