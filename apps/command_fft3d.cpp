// `a2afft fft3d`: the 3D c2c FFT benchmark. Each row is one engine and exchange choice: total,
// transpose and compute time (median/min/max over runs of the max over ranks), GFlop/s, and
// the errors of a round trip and against FFTW-MPI's result. A failed check exits non-zero.

#include <mpi.h>

#include <iostream>
#include <memory>

#include <a2afft/error.hpp>
#include <a2afft/fft2d.hpp>
#include <a2afft/fft3d.hpp>
#include <a2afft/tools/fft_tools.hpp>

#include "commands.hpp"
#include "fft_benchmark.hpp"
#if A2AFFT_HAVE_FFTW_MPI
#include "fftw_mpi_reference.hpp"
#endif
#include "options.hpp"

namespace a2afft::commands {
namespace {

struct Fft3dCommandOptions {
  std::string size = "64";
  std::string grid;
  std::vector<std::string> exchanges{"all"};
  std::string row_exchange;
  std::string column_exchange;
  std::string output = "transposed";
  std::string kind = "c2c";
  std::string precision = "double";
  std::size_t batch = 1;
  FftRunOptions run;
  cli::LayoutFlags layout;
};

// fft3d, and fft2d (`two_d`) as the same transform of a 1 x n0 x n1 array on a 1 x P grid.
int run_fft3d(const Fft3dCommandOptions& options, bool two_d) {
  const std::array<std::size_t, 3> shape =
      two_d ? parse_shape_2d(options.size) : parse_shape(options.size);
  const Rigor rigor = parse_rigor(options.run.rigor);
  if (options.output != "transposed" && options.output != "natural") {
    throw UsageError("--output=" + options.output +
                     " is not valid; expected transposed or natural");
  }
  const bool natural = options.output == "natural";
  const Transform transform = parse_transform(options.kind, options.precision, options.batch);
  const Engines engines = parse_engines(options.run.engines);
  // (row spec, column spec) pairs: --row/--col-exchange make one pair, else each --exchange spec
  // serves both transposes.
  std::vector<std::pair<cli::ExchangeChoice, cli::ExchangeChoice>> choices;
  if (!options.row_exchange.empty() || !options.column_exchange.empty()) {
    const auto pick = [](const std::string& text) {
      const auto specs = cli::expand_exchange_specs({text.empty() ? "mpi" : text});
      if (specs.size() != 1)
        throw UsageError("--row-exchange and --col-exchange take one spec each");
      return specs.front();
    };
    choices.emplace_back(pick(options.row_exchange), pick(options.column_exchange));
  } else {
    for (const auto& choice : cli::expand_exchange_specs(options.exchanges)) {
      choices.emplace_back(choice, choice);
    }
  }
  const LayoutRequest layout = options.layout.request();
  const RankMap ranks = map_ranks(MPI_COMM_WORLD, layout);
  const std::array<int, 2> grid = two_d                  ? std::array<int, 2>{1, ranks.size()}
                                  : options.grid.empty() ? Fft3d::default_grid(ranks.size())
                                                         : parse_grid(options.grid, ranks.size());
  const std::string grid_text = std::to_string(grid[0]) + "x" + std::to_string(grid[1]);
  const Fft3dOutput output = natural ? Fft3dOutput::natural : Fft3dOutput::transposed;
  // The exchanges' blocks, as the plans will have them.
  const std::array<std::size_t, 2> blocks = Fft3d::exchange_block_bytes(
      shape, grid, output, transform.kind, transform.precision, transform.batch);
  const double point_bytes = transform.point_bytes();
  cli::check_buffer_fits(static_cast<std::size_t>(point_bytes) * shape[0] * shape[1],
                         static_cast<int>(shape[2]), "--size");

  // Each plan holds about five local arrays (input, data, work, send, receive) on every rank.
  const double bytes_per_rank =
      5.0 * point_bytes * static_cast<double>(shape[0] * shape[1] * shape[2]) / ranks.size();
  const std::size_t plan_count = (engines.fftw_mpi ? 1 : 0) + (engines.ours ? choices.size() : 0);
  const Order order = choose_order(options.run.order, bytes_per_rank, ranks, plan_count);
  {
    // Each transpose's exchange has one block per rank of its row (p1) or column (p0), padded
    // to the largest part as the plan pads it.
    const double points = static_cast<double>(shape[0] * shape[1] * shape[2]);
    const int largest_node = ranks.largest_node_size();
    const auto scratch = [&](const std::string& spec, int parts, std::size_t block_bytes) {
      return cli::exchange_scratch_bytes(spec, parts, std::min(largest_node, parts), block_bytes);
    };
    std::vector<double> scratch_per_plan;
    if (engines.ours) {
      for (const auto& [row_choice, column_choice] : choices) {
        scratch_per_plan.push_back(scratch(row_choice.spec, grid[1], blocks[0]) +
                                   scratch(column_choice.spec, grid[0], blocks[1]));
      }
    }
    cli::check_memory_fits(
        cli::fft_memory_estimate(points * point_bytes / static_cast<double>(sizeof(Complex)), ranks,
                                 order, engines.fftw_mpi, scratch_per_plan),
        ranks, "fft3d --size=" + shape_to_string(shape) + " on a " + grid_text + " grid");
  }

  const report::RunContext context =
      report::collect_context(ranks, two_d ? "a2afft fft2d" : "a2afft fft3d");
  const std::string size_text =
      two_d ? std::to_string(shape[1]) + "x" + std::to_string(shape[2]) : shape_to_string(shape);
  const std::string settings =
      "size " + size_text + ", " +
      (two_d ? "slabs on " + std::to_string(ranks.size()) + " ranks" : "grid " + grid_text) + ", " +
      options.output + " output, " + transform.to_string() + ", " + options.run.rigor + ", " +
      std::to_string(options.run.iterations) + " timed runs after " +
      std::to_string(options.run.warmup) + " warm-up runs, " + to_string(order);
  const std::array<std::size_t, 3> moved = transform.output_shape(shape);
  const std::optional<Roofline> roofline = measure_roofline_if_asked(
      options.run, MPI_COMM_WORLD,
      static_cast<std::size_t>(point_bytes * static_cast<double>(moved[0] * moved[1] * moved[2]) /
                               ranks.size()));
  report::Reporters reporters =
      start_fft_run(options.run, MPI_COMM_WORLD, context, settings,
                    two_d ? "exchange" : "exchange (row, column)", roofline);
  std::vector<CandidateMaker> makers;
#if A2AFFT_HAVE_FFTW_MPI  // else parse_engines refused fftw-mpi
  if (engines.fftw_mpi) {
    makers.push_back(fftw_mpi_maker(engines.ours, [&] {
      return make_fftw_mpi_3d(MPI_COMM_WORLD, shape, rigor, !natural, transform, two_d);
    }));
  }
#endif
  if (engines.ours) {
    for (const auto& [row_choice, column_choice] : choices) {
      a2afft::Fft3dOptions plan;
      plan.grid = grid;
      plan.row_exchange = row_choice.spec;
      plan.column_exchange = column_choice.spec;
      plan.rigor = rigor;
      plan.output = output;
      plan.layout = layout;
      plan.kind = transform.kind;
      plan.precision = transform.precision;
      plan.batch = transform.batch;
      const std::string spec = row_choice.spec == column_choice.spec
                                   ? row_choice.spec
                                   : "row=" + row_choice.spec + ",column=" + column_choice.spec;
      if (two_d) {
        Fft2dOptions flat;
        flat.exchange = plan.row_exchange;
        flat.rigor = rigor;
        flat.output = natural ? Fft2dOutput::natural : Fft2dOutput::transposed;
        flat.layout = layout;
        flat.kind = transform.kind;
        flat.precision = transform.precision;
        flat.batch = transform.batch;
        makers.push_back(skipping_refusal_if(row_choice.from_all, spec, [&, flat] {
          return std::make_unique<Fft2dCandidate>(
              MPI_COMM_WORLD, std::array<std::size_t, 2>{shape[1], shape[2]}, flat);
        }));
        continue;
      }
      makers.push_back(skipping_refusal_if(
          row_choice.from_all && column_choice.from_all, spec,
          [&, plan] { return std::make_unique<Fft3dCandidate>(MPI_COMM_WORLD, shape, plan); }));
    }
  }
  const std::vector<FftRow> rows =
      run_fft_benchmark(options.run, MPI_COMM_WORLD, shape, order, makers, roofline);
  return report_fft_results(options.run, MPI_COMM_WORLD, reporters, rows);
}

}  // namespace

Runner add_fft3d(CLI::App& app) {
  auto* command = app.add_subcommand(
      "fft3d",
      "Time 3D FFTs (c2c or r2c, double or float, batches): a2afft pencils with each exchange, "
      "next to FFTW-MPI");
  auto options = std::make_shared<Fft3dCommandOptions>();
  command->add_option("--size", options->size, "n (a cube) or n0xn1xn2")->capture_default_str();
  command->add_option(
      "--grid", options->grid,
      "Process grid p0xp1 with p0*p1 = P (default near-square; 1xP or Px1 = slabs)");
  command
      ->add_option("-x,--exchange", options->exchanges,
                   "Exchange specs used for both transposes, comma-separated or repeated, or all")
      ->capture_default_str();
  command->add_option("--row-exchange", options->row_exchange,
                      "Spec for the row transpose (p1 ranks); with --col-exchange, one pair");
  command->add_option("--col-exchange", options->column_exchange,
                      "Spec for the column transpose (p0 ranks)");
  command
      ->add_option("--output", options->output,
                   "transposed (x complete, y and z split; FFTW_MPI_TRANSPOSED_OUT for fftw-mpi) "
                   "or natural (the input layout)")
      ->capture_default_str();
  add_kind_option(*command, options->kind);
  add_transform_options(*command, options->precision, options->batch);
  options->run.add_to(*command);
  options->layout.add_to(*command);
  return [options] { return run_fft3d(*options, false); };
}

Runner add_fft2d(CLI::App& app) {
  auto* command = app.add_subcommand(
      "fft2d",
      "Time 2D FFTs (c2c or r2c, double or float, batches) on slabs: a2afft with each "
      "exchange for its one transpose, next to FFTW-MPI's 2D plans");
  auto options = std::make_shared<Fft3dCommandOptions>();
  command->add_option("--size", options->size, "n (a square) or n0xn1")->capture_default_str();
  command
      ->add_option("-x,--exchange", options->exchanges,
                   "Exchange specs for the transpose, comma-separated or repeated, or all")
      ->capture_default_str();
  command
      ->add_option("--output", options->output,
                   "transposed (all of n0, n1 split; FFTW_MPI_TRANSPOSED_OUT for fftw-mpi) or "
                   "natural (the input's rows)")
      ->capture_default_str();
  add_kind_option(*command, options->kind);
  add_transform_options(*command, options->precision, options->batch);
  options->run.add_to(*command);
  options->layout.add_to(*command);
  return [options] { return run_fft3d(*options, true); };
}

}  // namespace a2afft::commands
