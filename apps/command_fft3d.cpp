// `a2afft fft3d`: the 3D c2c FFT benchmark. Each row is one engine and exchange choice: total,
// transpose and compute time (median/min/max over runs of the max over ranks), GFlop/s, and
// the errors of a round trip and against FFTW-MPI's result. A failed check exits non-zero.

#include <mpi.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "commands.hpp"
#include "error.hpp"
#include "fftw_mpi_reference.hpp"
#include "gather.hpp"
#include "options.hpp"
#include "pencil3d.hpp"
#include "registry.hpp"
#include "report/context.hpp"
#include "report/stats.hpp"
#include "report/text_table.hpp"
#include "test_signal.hpp"

namespace a2afft::commands {
namespace {

using fft::Complex;
using report::format;

struct Fft3dOptions {
  std::string size = "64";
  std::string grid;
  std::vector<std::string> exchanges{"all"};
  std::string row_exchange;
  std::string column_exchange;
  std::vector<std::string> engines{"a2afft", "fftw-mpi"};
  std::string rigor = "estimate";
  std::string output = "transposed";
  std::string order = "auto";
  int iterations = 10;
  int warmup = 2;
  bool backward = false;
  double tolerance = 1e-12;
  std::string json_path;
  std::string csv_path;
  std::string wisdom_path;
  cli::LayoutFlags layout;
};

struct Row {
  std::string engine;
  std::string exchange;
  report::Summary total, transpose, compute;
  std::optional<report::Summary> backward_total;
  double gflops = 0;
  double round_trip_error = 0;
  std::optional<double> fftw_mpi_error;
  bool passed = true;
};

// Max |a - b| / max |b| on rank 0 (b is the reference), shared with every rank.
double relative_difference(const std::vector<Complex>& a, const std::vector<Complex>& b,
                           MPI_Comm comm) {
  double error = 0;
  if (!b.empty()) {
    double scale = 0;
    double worst = 0;
    for (std::size_t i = 0; i < b.size(); ++i) {
      scale = std::max(scale, std::abs(b[i]));
      worst = std::max(worst, std::abs(a[i] - b[i]));
    }
    error = worst / std::max(scale, 1e-300);
  }
  mpi::check(MPI_Bcast(&error, 1, MPI_DOUBLE, 0, comm), "MPI_Bcast(error)");
  return error;
}

// What the benchmark needs of a plan, so FftwMpi3d and Pencil3d can be timed in one loop.
class Candidate {
 public:
  explicit Candidate(std::string engine) : engine_(std::move(engine)) {}
  virtual ~Candidate() = default;
  const std::string& engine() const { return engine_; }
  virtual std::string describe() const = 0;
  virtual const fft::Box3& input_box() const = 0;
  virtual const fft::Box3& output_box() const = 0;
  virtual Complex* data() = 0;
  virtual void forward() = 0;
  virtual void backward() = 0;
  virtual std::vector<Complex> output_in_natural_order() const = 0;
  virtual void attach_timer(PhaseTimer* timer) = 0;

 private:
  std::string engine_;
};

template <typename Plan>
class PlanCandidate final : public Candidate {
 public:
  PlanCandidate(std::string engine, std::unique_ptr<Plan> plan)
      : Candidate(std::move(engine)), plan_(std::move(plan)) {}
  std::string describe() const override { return plan_->describe(); }
  const fft::Box3& input_box() const override { return plan_->input_box(); }
  const fft::Box3& output_box() const override { return plan_->output_box(); }
  Complex* data() override { return plan_->data(); }
  void forward() override { plan_->forward(); }
  void backward() override { plan_->backward(); }
  std::vector<Complex> output_in_natural_order() const override {
    return plan_->output_in_natural_order();
  }
  void attach_timer(PhaseTimer* timer) override { plan_->attach_timer(timer); }

 private:
  std::unique_ptr<Plan> plan_;
};

// One candidate's input and the times of its runs so far.
struct Trial {
  std::unique_ptr<Candidate> plan;
  std::vector<Complex> input;
  PhaseTimer timer;
  std::vector<double> total, transpose, compute, backward;
};

class Fft3dBenchmark {
 public:
  Fft3dBenchmark(const Fft3dOptions& options, const Topology& topology, const fft::Shape3& shape)
      : options_(options), topology_(topology), shape_(shape) {}

  Trial prepare(std::unique_ptr<Candidate> plan) const {
    Trial trial{std::move(plan), {}, {}, {}, {}, {}, {}};
    trial.input.resize(trial.plan->input_box().elements());
    fft::fill_test_signal(trial.input.data(), trial.plan->input_box(), shape_);
    return trial;
  }

  // One run; `round` < 0 is a warm-up whose times are dropped.
  void run_once(Trial& trial, int round) const {
    Candidate& plan = *trial.plan;
    std::copy(trial.input.begin(), trial.input.end(), plan.data());  // fresh input, untimed
    trial.timer.clear();
    plan.attach_timer(&trial.timer);
    mpi::check(MPI_Barrier(topology_.comm()), "MPI_Barrier");
    const double start = MPI_Wtime();
    plan.forward();
    const double seconds = MPI_Wtime() - start;
    const double backward_start = MPI_Wtime();
    if (options_.backward) plan.backward();
    const double backward_seconds = MPI_Wtime() - backward_start;
    plan.attach_timer(nullptr);
    if (round < 0) return;
    const auto& phases = trial.timer.seconds();
    const auto phase = [&](const char* name) {
      const auto it = phases.find(name);
      return it == phases.end() ? 0.0 : it->second;
    };
    trial.total.push_back(seconds);
    trial.backward.push_back(backward_seconds);
    // With --backward the timer holds both directions; the split is reported for forward only.
    trial.transpose.push_back(options_.backward ? 0.0 : phase("transpose"));
    trial.compute.push_back(options_.backward ? 0.0 : phase("compute"));
  }

  // The row of a timed trial, with its checks: FFTW-MPI's output `reference` (gathered on rank
  // 0, when it ran) and the round trip backward(forward(x)) = N x.
  Row finish(Trial& trial, const std::vector<Complex>* reference,
             std::vector<Complex>* gathered_output) const {
    Candidate& plan = *trial.plan;
    Row row;
    row.engine = plan.engine();
    row.exchange = plan.describe();
    for (auto* series : {&trial.total, &trial.transpose, &trial.compute, &trial.backward}) {
      report::max_over_ranks(*series, topology_.comm());
    }
    row.total = report::summarize(trial.total);
    row.transpose = report::summarize(trial.transpose);
    row.compute = report::summarize(trial.compute);
    if (options_.backward) row.backward_total = report::summarize(trial.backward);
    const double points = static_cast<double>(shape_[0] * shape_[1] * shape_[2]);
    row.gflops = 5 * points * std::log2(points) / row.total.median / 1e9;

    const std::vector<Complex>& input = trial.input;
    std::copy(input.begin(), input.end(), plan.data());
    plan.forward();
    const std::vector<Complex> output = plan.output_in_natural_order();
    std::vector<Complex> global =
        fft::gather_global(output.data(), plan.output_box(), shape_, topology_.comm());
    if (reference != nullptr) {
      row.fftw_mpi_error = relative_difference(global, *reference, topology_.comm());
    }
    if (gathered_output != nullptr) *gathered_output = std::move(global);
    plan.backward();
    double worst = 0;
    double scale = 0;
    for (std::size_t i = 0; i < input.size(); ++i) {
      worst = std::max(worst, std::abs(plan.data()[i] / points - input[i]));
      scale = std::max(scale, std::abs(input[i]));
    }
    double pair[2] = {worst, scale};
    mpi::check(MPI_Allreduce(MPI_IN_PLACE, pair, 2, MPI_DOUBLE, MPI_MAX, topology_.comm()),
               "MPI_Allreduce(round trip)");
    row.round_trip_error = pair[0] / std::max(pair[1], 1e-300);
    row.passed = row.round_trip_error <= options_.tolerance &&
                 (!row.fftw_mpi_error || *row.fftw_mpi_error <= options_.tolerance);
    return row;
  }

 private:
  const Fft3dOptions& options_;
  const Topology& topology_;
  fft::Shape3 shape_;
};

// Interleaved runs spread the machine's slow spells over every plan alike, so the rows of one
// table compare fairly; they need every plan alive at once.
enum class Order { interleaved, sequential };

Order choose_order(const std::string& text, const fft::Shape3& shape, const Topology& topology,
                   std::size_t plan_count) {
  if (text == "sequential") return Order::sequential;
  if (text != "interleaved" && text != "auto") {
    throw UsageError("--order=" + text + " is not valid; expected auto, interleaved or sequential");
  }
  // Each plan holds about four local arrays (data, send, receive, input) on every rank.
  const auto& sizes = topology.node_sizes();
  const auto ranks_per_node = static_cast<double>(*std::max_element(sizes.begin(), sizes.end()));
  const double points_per_rank =
      static_cast<double>(shape[0] * shape[1] * shape[2]) / topology.size();
  const double node_bytes = static_cast<double>(plan_count) * 4 * points_per_rank *
                            static_cast<double>(sizeof(Complex)) * ranks_per_node;
  const double memory_bytes =
      static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE));
  if (node_bytes <= memory_bytes / 2) return Order::interleaved;
  if (text == "interleaved") {
    throw UsageError("--order=interleaved needs about " + format("%.1f", node_bytes / (1 << 30)) +
                     " GiB per node for " + std::to_string(plan_count) +
                     " plans, over half of the " + format("%.1f", memory_bytes / (1 << 30)) +
                     " GiB here; use --order sequential or fewer plans");
  }
  return Order::sequential;  // the header says so
}

std::string ms(double seconds) {
  return format("%.3f", seconds * 1e3);
}
std::string error_text(double error) {
  return format("%.1e", error);
}

void print_rows(const std::vector<Row>& rows, bool backward) {
  std::vector<report::TextTable::Column> columns = {
      {"engine"},         {"exchange (row, column)"}, {"total [ms]", true},   {"min [ms]", true},
      {"max [ms]", true}, {"transpose [ms]", true},   {"compute [ms]", true}, {"GFlop/s", true}};
  if (backward) columns.push_back({"backward [ms]", true});
  columns.insert(columns.end(), {{"round trip", true}, {"vs fftw-mpi", true}, {"check"}});
  report::TextTable table(columns);
  for (const Row& row : rows) {
    const bool split = !backward && row.engine == "a2afft";
    std::vector<std::string> cells = {row.engine,
                                      row.exchange,
                                      ms(row.total.median),
                                      ms(row.total.min),
                                      ms(row.total.max),
                                      split ? ms(row.transpose.median) : "-",
                                      split ? ms(row.compute.median) : "-",
                                      format("%.2f", row.gflops)};
    if (backward) cells.push_back(ms(row.backward_total->median));
    cells.push_back(error_text(row.round_trip_error));
    cells.push_back(row.fftw_mpi_error ? error_text(*row.fftw_mpi_error) : "-");
    cells.push_back(row.passed ? "PASS" : "FAIL");
    table.add_row(std::move(cells));
  }
  table.print(std::cout);
}

nlohmann::json summary_json(const report::Summary& s) {
  return {{"median_seconds", s.median}, {"min_seconds", s.min}, {"max_seconds", s.max}};
}

void write_outputs(const Fft3dOptions& options, const report::RunContext& context,
                   const std::string& settings, const std::vector<Row>& rows) {
  if (!options.json_path.empty()) {
    nlohmann::json results = nlohmann::json::array();
    for (const Row& row : rows) {
      nlohmann::json item = {{"engine", row.engine},
                             {"exchange", row.exchange},
                             {"total", summary_json(row.total)},
                             {"transpose", summary_json(row.transpose)},
                             {"compute", summary_json(row.compute)},
                             {"gflops", row.gflops},
                             {"round_trip_error", row.round_trip_error},
                             {"check", row.passed ? "PASS" : "FAIL"}};
      if (row.fftw_mpi_error) item["fftw_mpi_error"] = *row.fftw_mpi_error;
      if (row.backward_total) item["backward"] = summary_json(*row.backward_total);
      results.push_back(item);
    }
    std::ofstream out(options.json_path);
    out << nlohmann::json{{"context", report::to_json(context)},
                          {"settings", settings},
                          {"results", results}}
               .dump(2)
        << '\n';
    if (!out) throw UsageError("--json=" + options.json_path + " could not be written");
  }
  if (!options.csv_path.empty()) {
    std::ofstream out(options.csv_path);
    out << "engine,exchange,total_median_s,total_min_s,total_max_s,transpose_median_s,"
           "compute_median_s,gflops,round_trip_error,fftw_mpi_error,check\n";
    for (const Row& row : rows) {
      out << row.engine << ",\"" << row.exchange << "\"," << row.total.median << ','
          << row.total.min << ',' << row.total.max << ',' << row.transpose.median << ','
          << row.compute.median << ',' << row.gflops << ',' << row.round_trip_error << ','
          << (row.fftw_mpi_error ? std::to_string(*row.fftw_mpi_error) : "") << ','
          << (row.passed ? "PASS" : "FAIL") << '\n';
    }
    if (!out) throw UsageError("--csv=" + options.csv_path + " could not be written");
  }
}

int run_fft3d(const Fft3dOptions& options) {
  const fft::Shape3 shape = fft::parse_shape(options.size);
  const fft::Rigor rigor = fft::parse_rigor(options.rigor);
  if (options.output != "transposed" && options.output != "natural") {
    throw UsageError("--output=" + options.output +
                     " is not valid; expected transposed or natural");
  }
  const bool natural = options.output == "natural";
  bool run_ours = false;
  bool run_fftw = false;
  for (const std::string& engine : options.engines) {
    if (engine == "a2afft") {
      run_ours = true;
    } else if (engine == "fftw-mpi") {
      run_fftw = true;
    } else {
      throw UsageError("--engine=" + engine + " is not valid; expected a2afft, fftw-mpi or both");
    }
  }
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
  const Topology topology(MPI_COMM_WORLD, options.layout.request());
  const fft::ProcGrid grid = options.grid.empty() ? fft::near_square_grid(topology.size())
                                                  : fft::parse_grid(options.grid, topology.size());
  fft::check_grid_fits(shape, grid);
  cli::check_buffer_fits(shape[0] * shape[1] * sizeof(Complex), static_cast<int>(shape[2]),
                         "--size");

  const std::size_t plan_count = (run_fftw ? 1 : 0) + (run_ours ? choices.size() : 0);
  const Order order = choose_order(options.order, shape, topology, plan_count);

  const report::RunContext context = report::collect_context(topology, "a2afft fft3d");
  const std::string settings =
      "size " + fft::shape_to_string(shape) + ", grid " + grid.to_string() + ", " + options.output +
      " output, c2c double, " + std::string(fft::to_string(rigor)) + ", " +
      std::to_string(options.iterations) + " timed runs after " + std::to_string(options.warmup) +
      " warm-up runs" +
      (order == Order::interleaved ? ", interleaved (run i of every plan before run i+1)"
                                   : ", one plan after another");
  if (is_printing_rank()) {
    report::print_context(std::cout, context);
    std::cout << "# " << settings
              << "; times are forward transforms, max over ranks, each on a fresh input\n";
    std::cout.flush();
  }

  if (!options.wisdom_path.empty()) fft::import_wisdom(options.wisdom_path, topology.comm());
  // Plans are made in this order; a backend that came in through `all` and cannot run on this
  // grid is reported and skipped, never silently.
  std::vector<std::function<std::unique_ptr<Candidate>()>> makers;
  if (run_fftw) {
    makers.emplace_back([&] {
      return std::make_unique<PlanCandidate<fft::FftwMpi3d>>(
          "fftw-mpi", std::make_unique<fft::FftwMpi3d>(topology.comm(), shape, rigor, !natural));
    });
  }
  if (run_ours) {
    for (const auto& [row_choice, column_choice] : choices) {
      makers.emplace_back([&, row_choice, column_choice]() -> std::unique_ptr<Candidate> {
        try {
          return std::make_unique<PlanCandidate<fft::Pencil3d>>(
              "a2afft",
              std::make_unique<fft::Pencil3d>(
                  topology, shape, grid,
                  fft::Pencil3dOptions{row_choice.spec, column_choice.spec, rigor, natural}));
        } catch (const UsageError& error) {
          if (!(row_choice.from_all && column_choice.from_all)) throw;
          if (is_printing_rank()) std::cout << "# not run: " << error.what() << '\n';
          return nullptr;
        }
      });
    }
  }
  Fft3dBenchmark benchmark(options, topology, shape);
  std::vector<Row> rows;
  std::vector<Complex> reference;
  const auto finish = [&](Trial& trial) {
    const bool is_reference = trial.plan->engine() == "fftw-mpi";
    rows.push_back(benchmark.finish(trial, run_fftw && !is_reference ? &reference : nullptr,
                                    is_reference ? &reference : nullptr));
  };
  if (order == Order::interleaved) {
    std::vector<Trial> trials;
    for (const auto& make : makers) {
      if (auto plan = make()) trials.push_back(benchmark.prepare(std::move(plan)));
    }
    for (int round = -options.warmup; round < options.iterations; ++round) {
      for (Trial& trial : trials)
        benchmark.run_once(trial, round);
    }
    for (Trial& trial : trials)
      finish(trial);
  } else {
    for (const auto& make : makers) {
      auto plan = make();
      if (!plan) continue;
      Trial trial = benchmark.prepare(std::move(plan));
      for (int round = -options.warmup; round < options.iterations; ++round)
        benchmark.run_once(trial, round);
      finish(trial);
    }
  }
  if (!options.wisdom_path.empty()) fft::export_wisdom(options.wisdom_path, topology.comm());
  const bool all_passed =
      std::all_of(rows.begin(), rows.end(), [](const Row& row) { return row.passed; });
  if (is_printing_rank()) {
    print_rows(rows, options.backward);
    if (!all_passed) {
      std::cout << "FAIL: an error above exceeds the tolerance " << error_text(options.tolerance)
                << '\n';
    }
    write_outputs(options, context, settings, rows);
  }
  return all_passed ? 0 : 1;
}

}  // namespace

Runner add_fft3d(CLI::App& app) {
  auto* command = app.add_subcommand(
      "fft3d", "Time 3D c2c FFTs: a2afft pencils with each exchange, next to FFTW-MPI");
  auto options = std::make_shared<Fft3dOptions>();
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
      ->add_option("--engine", options->engines, "Engines: a2afft, fftw-mpi, or both (comma list)")
      ->delimiter(',')
      ->capture_default_str();
  command->add_option("--rigor", options->rigor, "FFTW planning: estimate, measure or patient")
      ->capture_default_str();
  command
      ->add_option("--output", options->output,
                   "transposed (x complete, y and z split; FFTW_MPI_TRANSPOSED_OUT for fftw-mpi) "
                   "or natural (the input layout)")
      ->capture_default_str();
  command
      ->add_option("--order", options->order,
                   "interleaved: run i of every plan before run i+1, so slow spells hit all rows "
                   "alike; sequential: one plan at a time (least memory); auto: interleaved when "
                   "every plan fits in half the node's memory")
      ->capture_default_str();
  command->add_option("--iters", options->iterations, "Timed forward transforms")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  command->add_option("--warmup", options->warmup, "Untimed transforms first")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  command->add_flag("--backward", options->backward,
                    "Also time the backward transform (then the transpose/compute split is not "
                    "shown)");
  command
      ->add_option("--tolerance", options->tolerance,
                   "Largest relative error that passes (round trip and vs fftw-mpi)")
      ->capture_default_str();
  command->add_option("--wisdom", options->wisdom_path,
                      "FFTW wisdom file: read before planning if it exists, written after, so "
                      "later runs with --rigor measure skip the planning and use the same plans");
  command->add_option("--json", options->json_path, "Also write the results as JSON to FILE");
  command->add_option("--csv", options->csv_path, "Also write the results as CSV to FILE");
  options->layout.add_to(*command);
  return [options] { return run_fft3d(*options); };
}

}  // namespace a2afft::commands
