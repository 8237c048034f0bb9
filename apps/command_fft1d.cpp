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
  const double ranks_per_node = ranks.largest_node_size();
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

int run_fft1d(const Fft1dCommandOptions& options) {
  const Rigor rigor = parse_rigor(options.run.rigor);
  if (options.output != "natural" && options.output != "scrambled") {
    throw UsageError("--output=" + options.output + " is not valid; expected natural or scrambled");
  }
  const bool scrambled = options.output == "scrambled";
  const Transform transform = parse_transform("c2c", options.precision, options.batch);
  if (options.hpcc && transform.precision != Precision::double_precision) {
    throw UsageError("--hpcc with --precision=" + options.precision +
                     " is not valid; HPCC's MPIFFT test is of double precision");
  }
  const Engines engines = parse_engines(options.run.engines);
  const auto choices = cli::expand_exchange_specs(options.exchanges);
  const LayoutRequest layout = options.layout.request();
  const RankMap ranks = map_ranks(MPI_COMM_WORLD, layout);
  const std::size_t n = !options.length.empty() ? parse_length(options.length)
                        : options.hpcc          ? hpcc_length(options.memory_fraction, ranks)
                                                : std::size_t{1} << 20;
  // N1 and N2 as the plans will have them (throws if N cannot split); N/P elements per rank.
  const std::array<std::size_t, 2> split = Fft1d::split(n, ranks.size(), options.n1);
  const std::size_t local_length = n / static_cast<std::size_t>(ranks.size());
  const double point_bytes = transform.point_bytes();
  cli::check_buffer_fits(local_length * static_cast<std::size_t>(point_bytes), 1, "--n");

  const double bytes_per_rank = 5.0 * point_bytes * static_cast<double>(local_length);
  const std::size_t plan_count = (engines.fftw_mpi ? 1 : 0) + (engines.ours ? choices.size() : 0);
  const Order order = choose_order(options.run.order, bytes_per_rank, ranks, plan_count);
  {
    const int largest_node = ranks.largest_node_size();
    std::vector<double> scratch_per_plan;
    if (engines.ours) {
      for (const cli::ExchangeChoice& choice : choices) {
        scratch_per_plan.push_back(cli::exchange_scratch_bytes(
            choice.spec, ranks.size(), largest_node,
            Fft1d::exchange_block_bytes(n, ranks.size(), transform.precision, transform.batch)));
      }
    }
    cli::check_memory_fits(
        cli::fft_memory_estimate(
            static_cast<double>(n) * point_bytes / static_cast<double>(sizeof(Complex)), ranks,
            order, engines.fftw_mpi, scratch_per_plan),
        ranks, "fft1d --n=" + std::to_string(n));
  }

  const report::RunContext context = report::collect_context(ranks, "a2afft fft1d");
  const std::string settings =
      "N " + std::to_string(n) + " = " + std::to_string(split[0]) + " x " +
      std::to_string(split[1]) + ", " + options.output + " output (fftw-mpi: natural), " +
      transform.to_string() + ", " + options.run.rigor + ", " +
      std::to_string(options.run.iterations) + " timed runs after " +
      std::to_string(options.run.warmup) + " warm-up runs, " + to_string(order) +
      (options.hpcc ? options.length.empty() ? ", HPCC mode (N from --memory-fraction " +
                                                   format("%g", options.memory_fraction) + ")"
                                             : ", HPCC mode"
                    : "");
  const std::optional<Roofline> roofline = measure_roofline_if_asked(
      options.run, MPI_COMM_WORLD, local_length * static_cast<std::size_t>(point_bytes));
  report::Reporters reporters =
      start_fft_run(options.run, MPI_COMM_WORLD, context, settings, "exchange", roofline);
  std::vector<CandidateMaker> makers;
#if A2AFFT_HAVE_FFTW_MPI  // else parse_engines refused fftw-mpi
  if (engines.fftw_mpi) {
    makers.push_back(fftw_mpi_maker(
        engines.ours, [&] { return make_fftw_mpi_1d(MPI_COMM_WORLD, n, rigor, transform); }));
  }
#endif
  if (engines.ours) {
    for (const cli::ExchangeChoice& choice : choices) {
      a2afft::Fft1dOptions plan;
      plan.exchange = choice.spec;
      plan.n1 = split[0];
      plan.rigor = rigor;
      plan.output = scrambled ? Fft1dOutput::scrambled : Fft1dOutput::natural;
      plan.layout = layout;
      plan.precision = transform.precision;
      plan.batch = transform.batch;
      makers.push_back(skipping_refusal_if(choice.from_all, choice.spec, [&, plan] {
        return std::make_unique<Fft1dCandidate>(MPI_COMM_WORLD, n, plan);
      }));
    }
  }
  const std::vector<FftRow> rows =
      run_fft_benchmark(options.run, MPI_COMM_WORLD, {1, 1, n}, order, makers, roofline);
  int status = report_fft_results(options.run, MPI_COMM_WORLD, reporters, rows);
  if (options.hpcc && !rows.empty()) {
    if (is_printing_rank()) print_hpcc_lines(rows, n, ranks.size());
    const double scale = std::log(static_cast<double>(n)) * kHpccEpsilon;
    for (const FftRow& row : rows) {
      if (!(row.round_trip_absolute_error / scale < kHpccThreshold)) status = 1;
    }
  }
  return status;
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
                   "per rank fit in this fraction of the node's memory over its ranks")
      ->capture_default_str();
  add_transform_options(*command, options->precision, options->batch);
  options->run.add_to(*command);
  options->layout.add_to(*command);
  return [options] { return run_fft1d(*options); };
}

}  // namespace a2afft::commands
