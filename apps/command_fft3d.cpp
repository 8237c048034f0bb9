// `a2afft fft3d`: the 3D c2c FFT benchmark. Each row is one engine and exchange choice: total,
// transpose and compute time (median/min/max over runs of the max over ranks), GFlop/s, and
// the errors of a round trip and against FFTW-MPI's result. A failed check exits non-zero.

#include <mpi.h>

#include <iostream>
#include <memory>
#include <optional>

#include <a2afft/backends.hpp>
#include <a2afft/error.hpp>
#include <a2afft/fft2d.hpp>
#include <a2afft/fft3d.hpp>
#include <a2afft/tools/fft_tools.hpp>

#include "commands.hpp"
#include "fft_benchmark.hpp"
#include "fftw_serial_reference.hpp"
#if A2AFFT_HAVE_FFTW_MPI
#include "fftw_mpi_reference.hpp"
#endif
#include "options.hpp"
#include "report/stats.hpp"

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
  std::string transforms;
  std::string padding;  // the padded grid's factors, empty for none
  std::string precision = "double";
  std::size_t batch = 1;
  std::string in_grid;   // bricks the input comes in: g0xg1xg2, empty for the plan's pencils
  std::string out_grid;  // and the output goes to
  std::string reshape_exchange = "auto";  // the reshapes' variable-size exchange
  FftRunOptions run;
  cli::LayoutFlags layout;
};

// One run of fft3d, or of fft2d (`two_d`: the same transform of a 1 x n0 x n1 array on a 1 x P
// grid), as parsed and checked from the command line: everything the plans are made from.
struct Fft3dRun {
  bool two_d = false;
  std::array<std::size_t, 3> shape{};
  Rigor rigor = Rigor::measure;
  Arrays arrays = Arrays::huge_pages;
  bool natural = false;
  BenchmarkTransform transform;
  Engines engines;
  // (row spec, column spec) pairs: --row/--col-exchange make one pair, else each --exchange
  // spec serves both transposes.
  std::vector<std::pair<cli::ExchangeChoice, cli::ExchangeChoice>> choices;
  LayoutRequest layout;
  RankMap ranks;
  std::array<int, 2> grid{};  // the rule's grid under --grid auto (memory is estimated on it)
  bool timed_grid = false;    // --grid auto: each plan times the candidate grids
  Order order = Order::interleaved;
  std::vector<int> thread_counts{1};  // of each rank: a row set each (timed_threads: auto)
  // This rank's brick of --in-grid (of the input array) and --out-grid (of the output).
  std::optional<Box3> input_box;
  std::optional<Box3> output_box;
  std::string reshape_exchange;

  std::string grid_text() const {
    const std::string rule = std::to_string(grid[0]) + "x" + std::to_string(grid[1]);
    return timed_grid ? "timed (the rule's " + rule + ")" : rule;
  }
  // The physical grid's points (the padded grid's, when padded): what the arrays hold.
  double points() const {
    const std::array<std::size_t, 3> grid_points = transform.padded_shape(shape);
    return static_cast<double>(grid_points[0] * grid_points[1] * grid_points[2]);
  }
};

// This rank's brick (row-major) of a g0 x g1 x g2 grid of bricks over `shape`, rank r at
// ((r / g2) / g1, (r / g2) % g1, r % g2); `grid` must multiply to the ranks.
Box3 brick_of(const std::string& grid, const char* option, const std::array<std::size_t, 3>& shape,
              int ranks, int rank) {
  std::array<std::size_t, 3> parts{};
  try {
    parts = parse_shape(grid);
  } catch (const UsageError&) {
    throw UsageError(std::string(option) + "=" + grid + " is not valid; expected g0xg1xg2");
  }
  if (parts[0] * parts[1] * parts[2] != static_cast<std::size_t>(ranks)) {
    throw UsageError(std::string(option) + "=" + grid + " has " +
                     std::to_string(parts[0] * parts[1] * parts[2]) + " bricks but the job has " +
                     std::to_string(ranks) +
                     " ranks; expected g0 * g1 * g2 = " + std::to_string(ranks));
  }
  const auto r = static_cast<std::size_t>(rank);
  const std::array<std::size_t, 3> at{r / parts[2] / parts[1], r / parts[2] % parts[1],
                                      r % parts[2]};
  Box3 box;
  for (std::size_t d = 0; d < 3; ++d) {
    const std::size_t base = shape[d] / parts[d], extra = shape[d] % parts[d];
    box.lower[d] = at[d] * base + std::min(at[d], extra);
    box.size[d] = base + (at[d] < extra ? 1 : 0);
  }
  return box;
}

std::vector<std::pair<cli::ExchangeChoice, cli::ExchangeChoice>> exchange_pairs(
    const Fft3dCommandOptions& options) {
  std::vector<std::pair<cli::ExchangeChoice, cli::ExchangeChoice>> choices;
  if (!options.row_exchange.empty() || !options.column_exchange.empty()) {
    const auto pick = [](const std::string& text) {
      const auto specs = cli::expand_exchange_specs({text.empty() ? "mpi" : text});
      if (specs.size() != 1)
        throw UsageError("--row-exchange and --col-exchange take one spec each");
      return specs.front();
    };
    choices.emplace_back(pick(options.row_exchange), pick(options.column_exchange));
    return choices;
  }
  for (const auto& choice : cli::expand_exchange_specs(options.exchanges)) {
    choices.emplace_back(choice, choice);
  }
  return choices;
}

Fft3dRun parse_run(const Fft3dCommandOptions& options, bool two_d) {
  Fft3dRun run;
  run.two_d = two_d;
  run.shape = two_d ? parse_shape_2d(options.size) : parse_shape(options.size, "--size");
  run.rigor = parse_rigor(options.run.rigor, "--rigor");
  run.thread_counts = options.run.thread_counts();
  if (options.output != "transposed" && options.output != "natural") {
    throw UsageError("--output=" + options.output +
                     " is not valid; expected transposed or natural");
  }
  run.natural = options.output == "natural";
  run.transform =
      parse_transform(options.kind, options.precision, options.batch, options.transforms,
                      two_d ? std::vector<std::size_t>{run.shape[1], run.shape[2]}
                            : std::vector<std::size_t>{run.shape[0], run.shape[1], run.shape[2]},
                      options.padding);
  run.engines = parse_engines(options.run.engines);
  run.arrays = parse_arrays(options.run.arrays);
  run.choices = exchange_pairs(options);
  run.layout = options.layout.request();
  run.ranks = map_ranks(MPI_COMM_WORLD, run.layout);
  const int p = run.ranks.size();
  run.timed_grid = !two_d && options.grid == "auto";
  run.grid = two_d                                    ? std::array<int, 2>{1, p}
             : options.grid.empty() || run.timed_grid ? Fft3d::default_grid(p)
                                                      : parse_grid(options.grid, p, "--grid");
  run.order = choose_fft_order(options.run, run.transform.point_bytes() * run.points() / p,
                               run.ranks, run.engines, run.choices.size());
  run.reshape_exchange = canonical_reshape_spec(options.reshape_exchange);
  const int rank = run.ranks.rank;
  if (!options.in_grid.empty())
    run.input_box = brick_of(options.in_grid, "--in-grid", run.shape, p, rank);
  if (!options.out_grid.empty()) {
    run.output_box =
        brick_of(options.out_grid, "--out-grid", run.transform.output_shape(run.shape), p, rank);
  }
  return run;
}

// Refuses a run whose buffers or plans would not fit, before any is made.
void check_fits(const Fft3dRun& run) {
  const double point_bytes = run.transform.point_bytes();
  // A padded plan's stages hold up to the padded grid: estimated as that grid's plan, no less.
  const std::array<std::size_t, 3> grid = run.transform.padded_shape(run.shape);
  cli::check_buffer_fits(static_cast<std::size_t>(point_bytes) * grid[0] * grid[1],
                         static_cast<int>(grid[2]), "--size");
  // Each transpose's exchange has one block per rank of its row (p1) or column (p0), padded to
  // the largest part as the plan pads it.
  const std::array<std::size_t, 2> blocks = Fft3d::exchange_block_bytes(
      grid, run.grid, run.natural ? Fft3dOutput::natural : Fft3dOutput::transposed,
      run.transform.kind, run.transform.precision, run.transform.batch);
  const int largest_node = run.ranks.largest_node_size();
  const auto scratch = [&](const std::string& spec, int parts, std::size_t block_bytes) {
    return cli::exchange_scratch_bytes(spec, parts, std::min(largest_node, parts), block_bytes);
  };
  std::vector<double> scratch_per_plan;
  if (run.engines.ours) {
    for (const auto& [row_choice, column_choice] : run.choices) {
      scratch_per_plan.push_back(scratch(row_choice.spec, run.grid[1], blocks[0]) +
                                 scratch(column_choice.spec, run.grid[0], blocks[1]));
    }
  }
  cli::check_memory_fits(
      cli::fft_memory_estimate(run.points() * point_bytes / static_cast<double>(sizeof(Complex)),
                               run.ranks, run.order,
                               run.engines.fftw_mpi || run.engines.fftw_serial, scratch_per_plan),
      run.ranks,
      "fft3d --size=" + shape_to_string(run.shape) + " on a " + run.grid_text() + " grid");
}

// The shape as the command names it: n0xn1 for fft2d.
std::string size_text(const Fft3dRun& run, const std::array<std::size_t, 3>& shape) {
  return run.two_d ? std::to_string(shape[1]) + "x" + std::to_string(shape[2])
                   : shape_to_string(shape);
}

// A padded run's padded grid, and what the same transform of that grid without padding sends
// to other ranks in forward + backward per rank, for the exchanged column to be read against.
std::string padded_text(const Fft3dRun& run) {
  if (!run.transform.padded()) return "";
  const std::array<std::size_t, 3> grid = run.transform.padded_shape(run.shape);
  const std::array<std::size_t, 2> blocks =
      Fft3d::exchange_block_bytes(grid, run.grid, Fft3dOutput::transposed, run.transform.kind,
                                  run.transform.precision, run.transform.batch);
  const double sent = 2.0 * (static_cast<double>(run.grid[1] - 1) * static_cast<double>(blocks[0]) +
                             static_cast<double>(run.grid[0] - 1) * static_cast<double>(blocks[1]));
  return " (padded grid " + size_text(run, grid) +
         "; unpadded on that grid, forward + backward exchange " +
         report::format("%.2f", sent / 1048576) + " MiB per rank)";
}

// The header's settings line.
std::string settings_of(const Fft3dRun& run, const Fft3dCommandOptions& options) {
  return "size " + size_text(run, run.shape) + padded_text(run) + ", " +
         (run.two_d ? "slabs on " + std::to_string(run.ranks.size()) + " ranks"
                    : "grid " + run.grid_text()) +
         ", " + split_text(run.ranks.size(), run.thread_counts) + binding_note(run.thread_counts) +
         (options.run.names_threads() && run.engines.fftw_serial ? " (fftw: 1 thread)" : "") +
         ", " + options.output + " output, " + run.transform.to_string() + ", " +
         options.run.rigor + ", " + options.run.arrays + " arrays, " +
         std::to_string(options.run.iterations) + " timed runs after " +
         std::to_string(options.run.warmup) + " warm-up runs, " + to_string(run.order);
}

// The a2afft row of one (row, column) exchange pair; every row shares `shared`.
CandidateMaker a2afft_maker(const Fft3dRun& run, const PlanOptions& shared,
                            const cli::ExchangeChoice& row, const cli::ExchangeChoice& column) {
  const std::string spec =
      row.spec == column.spec ? row.spec : "row=" + row.spec + ",column=" + column.spec;
  if (run.two_d) {
    Fft2dOptions flat;
    static_cast<PlanOptions&>(flat) = shared;
    flat.exchange = row.spec;
    flat.output = run.natural ? Fft2dOutput::natural : Fft2dOutput::transposed;
    const std::array<std::size_t, 2> shape{run.shape[1], run.shape[2]};
    return skipping_refusal_if(row.from_all, spec, [shape, flat, arrays = run.arrays] {
      return std::make_unique<Fft2dCandidate>(MPI_COMM_WORLD, shape, flat, arrays);
    });
  }
  a2afft::Fft3dOptions plan;
  static_cast<PlanOptions&>(plan) = shared;
  plan.grid = run.timed_grid ? a2afft::timed_grid : run.grid;
  plan.row_exchange = row.spec;
  plan.column_exchange = column.spec;
  plan.output = run.natural ? Fft3dOutput::natural : Fft3dOutput::transposed;
  plan.input_box = run.input_box;
  plan.output_box = run.output_box;
  plan.reshape_exchange = run.reshape_exchange;
  return skipping_refusal_if(
      row.from_all && column.from_all, spec, [shape = run.shape, plan, arrays = run.arrays] {
        return std::make_unique<Fft3dCandidate>(MPI_COMM_WORLD, shape, plan, arrays);
      });
}

// Every row's plan maker: FFTW-MPI's first where asked for, then a2afft's per exchange pair.
std::vector<CandidateMaker> makers_of(const Fft3dRun& run) {
  std::vector<CandidateMaker> makers;
#if A2AFFT_HAVE_FFTW_MPI  // else parse_engines refused fftw-mpi
  if (run.engines.fftw_mpi) {
    for (const int threads : reference_thread_counts(run.thread_counts, MPI_COMM_WORLD)) {
      makers.push_back(fftw_mpi_maker(run.engines.ours, [&run, threads] {
        return make_fftw_mpi_3d(MPI_COMM_WORLD, run.shape, run.rigor, !run.natural, run.transform,
                                run.two_d, run.arrays, threads);
      }));
    }
  }
#endif
  if (run.engines.fftw_serial) {
    makers.push_back(skipping_refusal_if(
        run.engines.ours || run.engines.fftw_mpi, "fftw",
        [&run] {
          return make_fftw_serial_3d(MPI_COMM_WORLD, run.shape, run.rigor, run.transform, run.two_d,
                                     run.arrays);
        },
        "; the other rows run without it"));
  }
  if (!run.engines.ours) return makers;
  PlanOptions shared;
  shared.rigor = run.rigor;
  shared.layout = run.layout;
  shared.kind = run.transform.kind;
  shared.precision = run.transform.precision;
  shared.batch = run.transform.batch;
  shared.axes = run.transform.axes;
  shared.padding = run.transform.padding;
  for (const int threads : run.thread_counts) {
    shared.threads = threads;
    for (const auto& [row, column] : run.choices)
      makers.push_back(a2afft_maker(run, shared, row, column));
  }
  return makers;
}

// fft3d and fft2d: parse, check, plan and run every row, report.
int run_fft3d(const Fft3dCommandOptions& options, bool two_d) {
  const Fft3dRun run = parse_run(options, two_d);
  check_fits(run);
  const report::RunContext context =
      report::collect_context(run.ranks, two_d ? "a2afft fft2d" : "a2afft fft3d");
  const std::array<std::size_t, 3> moved = run.transform.output_shape(run.shape);
  const std::optional<Roofline> roofline = measure_roofline_if_asked(
      options.run, MPI_COMM_WORLD,
      static_cast<std::size_t>(run.transform.point_bytes() *
                               static_cast<double>(moved[0] * moved[1] * moved[2]) /
                               run.ranks.size()));
  FftReport report = start_fft_run(options.run, MPI_COMM_WORLD, run.transform.precision, context,
                                   settings_of(run, options),
                                   two_d ? "exchange" : "exchange (row, column)", roofline);
  const std::vector<FftRow> rows = run_fft_benchmark(options.run, MPI_COMM_WORLD, run.shape,
                                                     run.order, makers_of(run), roofline);
  return report_fft_results(options.run, MPI_COMM_WORLD, report, rows);
}

}  // namespace

Runner add_fft3d(CLI::App& app) {
  auto* command = app.add_subcommand(
      "fft3d",
      "Time 3D FFTs (c2c, r2c or a kind per axis with cosine and sine transforms, double or "
      "float, batches): a2afft pencils with each exchange, next to FFTW-MPI");
  auto options = std::make_shared<Fft3dCommandOptions>();
  command->add_option("--size", options->size, "n (a cube) or n0xn1xn2")->capture_default_str();
  command->add_option(
      "--grid", options->grid,
      "Process grid p0xp1 with p0*p1 = P (default near-square; 1xP or Px1 = slabs), or auto: "
      "each plan times the candidate grids (every p0xp1, or the 6 nearest to square and the "
      "two slabs beyond 8) with its exchanges and keeps the fastest; the exchange column names "
      "the winner and its gain over the near-square grid. With A2AFFT_WISDOM=file the choice "
      "is kept, and a later run of the same problem takes it without timing");
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
  command->add_option("--in-grid", options->in_grid,
                      "The input comes in bricks of a g0xg1xg2 grid (g0 g1 g2 = P; rank r at "
                      "(r / g2 / g1, r / g2 % g1, r % g2)), as an application's own "
                      "decomposition: a2afft reshapes them into its pencils (the reshape "
                      "[ms] column). Default: a2afft's pencils");
  command->add_option("--out-grid", options->out_grid,
                      "The output goes to bricks of a g0xg1xg2 grid of the spectrum, reshaped "
                      "from a2afft's pencils. Default: a2afft's pencils");
  command
      ->add_option("--reshape-exchange", options->reshape_exchange,
                   "The variable-size exchange of the --in-grid/--out-grid reshapes: auto, mpi "
                   "(MPI_Alltoallv), neighbor, sparse, node-aggregate, or a uniform spec where "
                   "the counts are uniform")
      ->capture_default_str();
  add_kind_option(*command, options->kind);
  add_axes_option(*command, options->transforms);
  add_padding_option(*command, options->padding);
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
  add_axes_option(*command, options->transforms);
  add_padding_option(*command, options->padding);
  add_transform_options(*command, options->precision, options->batch);
  options->run.add_to(*command);
  options->layout.add_to(*command);
  return [options] { return run_fft3d(*options, true); };
}

}  // namespace a2afft::commands
