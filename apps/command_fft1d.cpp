// `a2afft fft1d`: the 1D c2c FFT benchmark (six-step, three transposes), next to FFTW-MPI's 1D
// transform, with an HPCC MPIFFT-style mode: the vector size from a memory fraction, the
// MPIFFT_* result lines and HPCC's accuracy test. A failed check exits non-zero.

#include <mpi.h>
#include <unistd.h>

#include <cmath>
#include <iostream>
#include <memory>

#include <a2afft/error.hpp>
#include <a2afft/fft1d.hpp>
#include <a2afft/tools/fft_tools.hpp>

#include "commands.hpp"
#include "fft_benchmark.hpp"
#if A2AFFT_HAVE_FFTW_MPI
#include "fftw_mpi_reference.hpp"
#endif
#include "options.hpp"
#include "report/stats.hpp"

namespace a2afft::commands {
namespace {

using report::format;

// HPCC's pass test: maxErr / ln(N) / eps < 16, with eps = 2^-53 (HPL_dlamch's relative machine
// precision) and maxErr = max |x - IFFT(FFT(x)) / N|.
constexpr double kHpccEpsilon = 0x1p-53;
constexpr double kHpccThreshold = 16;

struct Fft1dCommandOptions {
  std::string length;
  std::size_t n1 = 0;
  std::vector<std::string> exchanges{"all"};
  std::string output = "natural";
  std::string precision = "double";
  std::size_t batch = 1;
  bool hpcc = false;
  double memory_fraction = 0.25;
  FftRunOptions run;
  cli::LayoutFlags layout;
};

// HPCC's MPIFFT rule with every rank: N = P^2 * 2^k, the largest whose four arrays of N/P
// complex doubles per rank fit in `fraction` of the node's memory shared among its ranks.
// (HPCC takes procCnt, the largest power of two <= P, and n = 2^floor(log2(mem / 64 / procCnt))
// * procCnt^2, the same rule when P is a power of two.)
std::size_t hpcc_length(double fraction, const RankMap& ranks) {
  if (!(fraction > 0 && fraction <= 1)) {
    throw UsageError("--memory-fraction=" + format("%g", fraction) +
                     " is not valid; expected a fraction in (0, 1]");
  }
  // In simulation (SMPI) every simulated rank shares this machine's memory, not its simulated
  // host's share: N then fits in this one process.
  const double ranks_per_node = A2AFFT_SMPI ? ranks.size() : ranks.largest_node_size();
  const double memory_bytes =
      static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE));
  const double bytes_per_rank = fraction * memory_bytes / ranks_per_node;
  const auto p = static_cast<std::size_t>(ranks.size());
  std::size_t n = p * p;
  while (4.0 * sizeof(Complex) * static_cast<double>(2 * n / p) <= bytes_per_rank)
    n *= 2;
  return n;
}

void print_hpcc_lines(const std::vector<FftRow>& rows, std::size_t n, int ranks) {
  const double scale = std::log(static_cast<double>(n)) * kHpccEpsilon;
  std::cout << "# HPCC MPIFFT check per row: maxErr / ln(N) / eps < " << kHpccThreshold
            << ", eps = 2^-53\n";
  const FftRow* best = nullptr;
  for (const FftRow& row : rows) {
    const double value = row.round_trip_absolute_error / scale;
    std::cout << "#   " << row.engine << ' ' << row.exchange << ": maxErr "
              << format("%.3e", row.round_trip_absolute_error) << ", " << format("%.3f", value)
              << (value < kHpccThreshold ? " PASS" : " FAIL") << '\n';
    if (row.engine == "a2afft" && (best == nullptr || row.gflops > best->gflops)) best = &row;
  }
  if (best == nullptr) best = &rows.front();
  const double value = best->round_trip_absolute_error / scale;
  std::cout << "MPIFFT_N=" << n << '\n'
            << "MPIFFT_Procs=" << ranks << '\n'
            << "MPIFFT_engine=" << best->engine << '\n'
            << "MPIFFT_exchange=" << best->exchange << '\n'
            << "MPIFFT_Gflops=" << format("%.6g", best->gflops) << '\n'
            << "MPIFFT_maxErr=" << format("%.6g", best->round_trip_absolute_error) << '\n'
            << "MPIFFT_time=" << format("%.6g", best->total.median) << '\n'
            << "MPIFFT_time_transpose=" << format("%.6g", best->transpose.median) << '\n'
            << "MPIFFT_time_compute=" << format("%.6g", best->compute.median) << '\n'
            << "MPIFFT_Passed=" << (value < kHpccThreshold ? 1 : 0) << '\n';
}

// One run of fft1d as parsed and checked from the command line: what the plans are made from.
struct Fft1dRun {
  Rigor rigor = Rigor::measure;
  Arrays arrays = Arrays::huge_pages;
  bool scrambled = false;
  BenchmarkTransform transform;
  Engines engines;
  std::vector<cli::ExchangeChoice> choices;
  LayoutRequest layout;
  RankMap ranks;
  std::size_t n = 0;
  std::array<std::size_t, 2> split{};  // N1 and N2 as the plans will have them
  Order order = Order::interleaved;
  std::vector<int> thread_counts{1};  // of each rank: a row set each (timed_threads: auto)

  std::size_t local_length() const { return n / static_cast<std::size_t>(ranks.size()); }
};

Fft1dRun parse_run(const Fft1dCommandOptions& options) {
  Fft1dRun run;
  run.rigor = parse_rigor(options.run.rigor, "--rigor");
  run.thread_counts = options.run.thread_counts();
  if (options.output != "natural" && options.output != "scrambled") {
    throw UsageError("--output=" + options.output + " is not valid; expected natural or scrambled");
  }
  run.scrambled = options.output == "scrambled";
  run.transform = parse_transform("c2c", options.precision, options.batch);
  if (options.hpcc && run.transform.precision != Precision::double_precision) {
    throw UsageError("--hpcc with --precision=" + options.precision +
                     " is not valid; HPCC's MPIFFT test is of double precision");
  }
  run.engines = parse_engines(options.run.engines);
  run.arrays = parse_arrays(options.run.arrays);
  if (run.engines.fftw_serial) {
    throw UsageError(
        "--engine=fftw is not valid for fft1d; expected a2afft or fftw-mpi (FFTW's "
        "serial plan joins fft3d and fft2d on one rank)");
  }
  run.choices = cli::expand_exchange_specs(options.exchanges);
  run.layout = options.layout.request();
  run.ranks = map_ranks(MPI_COMM_WORLD, run.layout);
  run.n = !options.length.empty() ? parse_length(options.length, "--n")
          : options.hpcc          ? hpcc_length(options.memory_fraction, run.ranks)
                                  : std::size_t{1} << 20;
  run.split = cli::speaking_flags({{"Fft1dOptions::n1", "--n1"}}, [&] {
    return Fft1d::split(run.n, run.ranks.size(), options.n1);  // throws if N cannot split
  });
  run.order = choose_fft_order(
      options.run, run.transform.point_bytes() * static_cast<double>(run.local_length()), run.ranks,
      run.engines, run.choices.size());
  return run;
}

// Refuses a run whose buffers or plans would not fit, before any is made.
void check_fits(const Fft1dRun& run) {
  const double point_bytes = run.transform.point_bytes();
  cli::check_buffer_fits(run.local_length() * static_cast<std::size_t>(point_bytes), 1, "--n");
  std::vector<double> scratch_per_plan;
  if (run.engines.ours) {
    const std::size_t block_bytes = Fft1d::exchange_block_bytes(
        run.n, run.ranks.size(), run.transform.precision, run.transform.batch);
    for (const cli::ExchangeChoice& choice : run.choices) {
      scratch_per_plan.push_back(cli::exchange_scratch_bytes(
          choice.spec, run.ranks.size(), run.ranks.largest_node_size(), block_bytes));
    }
  }
  cli::check_memory_fits(
      cli::fft_memory_estimate(
          static_cast<double>(run.n) * point_bytes / static_cast<double>(sizeof(Complex)),
          run.ranks, run.order, run.engines.fftw_mpi, scratch_per_plan),
      run.ranks, "fft1d --n=" + std::to_string(run.n));
}

// The header's settings line.
std::string settings_of(const Fft1dRun& run, const Fft1dCommandOptions& options) {
  const std::string hpcc =
      !options.hpcc ? ""
      : options.length.empty()
          ? ", HPCC mode (N from --memory-fraction " + format("%g", options.memory_fraction) + ")"
          : ", HPCC mode";
  return "N " + std::to_string(run.n) + " = " + std::to_string(run.split[0]) + " x " +
         std::to_string(run.split[1]) + ", " + split_text(run.ranks.size(), run.thread_counts) +
         binding_note(run.thread_counts) + ", " + options.output + " output (fftw-mpi: natural), " +
         run.transform.to_string() + ", " + options.run.rigor + ", " + options.run.arrays +
         " arrays, " + std::to_string(options.run.iterations) + " timed runs after " +
         std::to_string(options.run.warmup) + " warm-up runs, " + to_string(run.order) + hpcc;
}

// Every row's plan maker: FFTW-MPI's first where asked for, then a2afft's per exchange.
std::vector<CandidateMaker> makers_of(const Fft1dRun& run) {
  std::vector<CandidateMaker> makers;
#if A2AFFT_HAVE_FFTW_MPI  // else parse_engines refused fftw-mpi
  if (run.engines.fftw_mpi) {
    for (const int threads : reference_thread_counts(run.thread_counts, MPI_COMM_WORLD)) {
      makers.push_back(fftw_mpi_maker(run.engines.ours, [&run, threads] {
        return make_fftw_mpi_1d(MPI_COMM_WORLD, run.n, run.rigor, run.transform, run.arrays,
                                threads);
      }));
    }
  }
#endif
  if (!run.engines.ours) return makers;
  for (const int threads : run.thread_counts) {
    for (const cli::ExchangeChoice& choice : run.choices) {
      a2afft::Fft1dOptions plan;
      plan.exchange = choice.spec;
      plan.n1 = run.split[0];
      plan.rigor = run.rigor;
      plan.output = run.scrambled ? Fft1dOutput::scrambled : Fft1dOutput::natural;
      plan.layout = run.layout;
      plan.precision = run.transform.precision;
      plan.batch = run.transform.batch;
      plan.threads = threads;
      makers.push_back(
          skipping_refusal_if(choice.from_all, choice.spec, [n = run.n, plan, arrays = run.arrays] {
            return std::make_unique<Fft1dCandidate>(MPI_COMM_WORLD, n, plan, arrays);
          }));
    }
  }
  return makers;
}

// HPCC's lines, and its pass test on every row, after the reporters' output.
int hpcc_status(const std::vector<FftRow>& rows, const Fft1dRun& run, int status) {
  if (rows.empty()) return status;
  if (is_printing_rank()) print_hpcc_lines(rows, run.n, run.ranks.size());
  const double scale = std::log(static_cast<double>(run.n)) * kHpccEpsilon;
  for (const FftRow& row : rows) {
    if (!(row.round_trip_absolute_error / scale < kHpccThreshold)) status = 1;
  }
  return status;
}

// fft1d: parse, check, plan and run every row, report.
int run_fft1d(const Fft1dCommandOptions& options) {
  const Fft1dRun run = parse_run(options);
  check_fits(run);
  const report::RunContext context = report::collect_context(run.ranks, "a2afft fft1d");
  const std::optional<Roofline> roofline = measure_roofline_if_asked(
      options.run, MPI_COMM_WORLD,
      run.local_length() * static_cast<std::size_t>(run.transform.point_bytes()));
  FftReport report = start_fft_run(options.run, MPI_COMM_WORLD, run.transform.precision, context,
                                   settings_of(run, options), "exchange", roofline);
  const std::vector<FftRow> rows = run_fft_benchmark(options.run, MPI_COMM_WORLD, {1, 1, run.n},
                                                     run.order, makers_of(run), roofline);
  const int status = report_fft_results(options.run, MPI_COMM_WORLD, report, rows);
  return options.hpcc ? hpcc_status(rows, run, status) : status;
}

}  // namespace

Runner add_fft1d(CLI::App& app) {
  auto* command = app.add_subcommand(
      "fft1d",
      "Time 1D c2c FFTs (double or float, batches): the a2afft six-step FFT with each exchange, "
      "next to FFTW-MPI");
  auto options = std::make_shared<Fft1dCommandOptions>();
  command->add_option("--n", options->length,
                      "Length N: 1048576, 2^20 or a product like 2^4*3^2*5; P^2 must divide it "
                      "(default 2^20, or with --hpcc from --memory-fraction)");
  command->add_option("--n1", options->n1,
                      "N1 of N = N1 x N2 (P must divide N1 and N2; default: nearest sqrt(N))");
  command
      ->add_option("-x,--exchange", options->exchanges,
                   "Exchange specs for the three transposes, comma-separated or repeated, or all")
      ->capture_default_str();
  command
      ->add_option("--output", options->output,
                   "natural (rank r holds X[r N/P, (r+1) N/P)) or scrambled (skip the last "
                   "transpose: local element i*N2 + k2 holds X[r N1/P + i + N1 k2])")
      ->capture_default_str();
  command->add_flag("--hpcc", options->hpcc,
                    "HPCC MPIFFT style: N from --memory-fraction unless --n is given, MPIFFT_* "
                    "lines and HPCC's test maxErr / ln(N) / eps < 16 (eps = 2^-53)");
  command
      ->add_option("--memory-fraction", options->memory_fraction,
                   "With --hpcc: N = P^2 * 2^k, the largest whose four N/P-element complex arrays "
                   "per rank fit in this fraction of the node's memory over its ranks (in "
                   "simulation: this machine's memory over all ranks)")
      ->capture_default_str();
  add_transform_options(*command, options->precision, options->batch);
  options->run.add_to(*command);
  options->layout.add_to(*command);
  return [options] { return run_fft1d(*options); };
}

}  // namespace a2afft::commands
