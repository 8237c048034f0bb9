#include "fft_benchmark.hpp"

#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <numeric>

#include "commands.hpp"
#include "error.hpp"
#include "gather.hpp"
#include "mpi/comm.hpp"
#include "report/text_table.hpp"
#include "test_signal.hpp"

namespace a2afft::commands {

using fft::Complex;
using report::format;

void FftRunOptions::add_to(CLI::App& command) {
  command.add_option("--engine", engines, "Engines: a2afft, fftw-mpi, or both (comma list)")
      ->delimiter(',')
      ->capture_default_str();
  command.add_option("--rigor", rigor, "FFTW planning: estimate, measure or patient")
      ->capture_default_str();
  command
      .add_option("--order", order,
                  "interleaved: run i of every plan before run i+1, so slow spells hit all rows "
                  "alike; sequential: one plan at a time (least memory); auto: interleaved when "
                  "every plan fits in half the node's memory")
      ->capture_default_str();
  command.add_option("--iters", iterations, "Timed forward transforms")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  command.add_option("--warmup", warmup, "Untimed transforms first")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  command.add_flag("--backward", backward,
                   "Also time the backward transform (then the transpose/compute split is not "
                   "shown)");
  command
      .add_option("--tolerance", tolerance,
                  "Largest relative error that passes (round trip and vs fftw-mpi)")
      ->capture_default_str();
  command.add_option("--wisdom", wisdom_path,
                     "FFTW wisdom file: read before planning if it exists, written after, so "
                     "later runs with --rigor measure skip the planning and use the same plans");
  command.add_option("--json", json_path, "Also write the results as JSON to FILE");
  command.add_option("--csv", csv_path, "Also write the results as CSV to FILE");
}

Engines parse_engines(const std::vector<std::string>& engines) {
  Engines which;
  for (const std::string& engine : engines) {
    if (engine == "a2afft") {
      which.ours = true;
    } else if (engine == "fftw-mpi") {
      which.fftw_mpi = true;
    } else {
      throw UsageError("--engine=" + engine + " is not valid; expected a2afft, fftw-mpi or both");
    }
  }
  return which;
}

Order choose_order(const std::string& text, double bytes_per_rank, const Topology& topology,
                   std::size_t plan_count) {
  if (text == "sequential") return Order::sequential;
  if (text != "interleaved" && text != "auto") {
    throw UsageError("--order=" + text + " is not valid; expected auto, interleaved or sequential");
  }
  const auto ranks_per_node = static_cast<double>(topology.largest_node_size());
  const double node_bytes = static_cast<double>(plan_count) * bytes_per_rank * ranks_per_node;
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

std::string to_string(Order order) {
  return order == Order::interleaved ? "interleaved (run i of every plan before run i+1)"
                                     : "one plan after another";
}

cli::MemoryEstimate fft_memory_estimate(double points, const Topology& topology, Order order,
                                        bool fftw_mpi,
                                        const std::vector<double>& scratch_per_plan) {
  const double local_bytes = sizeof(Complex) * std::ceil(points / topology.size());
  std::vector<double> arrays, scratch;  // per plan
  if (fftw_mpi) {
    arrays.push_back(4 * local_bytes);  // data, FFTW-MPI's work array, input, slack of its split
    scratch.push_back(0);
  }
  for (const double bytes : scratch_per_plan) {
    arrays.push_back(4 * local_bytes);
    scratch.push_back(bytes);
  }
  const auto combine = [&](const std::vector<double>& per_plan) {
    if (per_plan.empty()) return 0.0;
    return order == Order::interleaved ? std::accumulate(per_plan.begin(), per_plan.end(), 0.0)
                                       : *std::max_element(per_plan.begin(), per_plan.end());
  };
  cli::MemoryEstimate estimate;
  estimate.per_rank = {{"plans' arrays", combine(arrays)},
                       {"exchange scratch", combine(scratch), true}};
  estimate.on_rank0 = {{"gathered output" + std::string(fftw_mpi ? " and reference" : ""),
                        (fftw_mpi ? 2 : 1) * sizeof(Complex) * points}};
  return estimate;
}

namespace {

// One candidate's input and the times of its runs so far.
struct Trial {
  std::unique_ptr<FftCandidate> plan;
  std::vector<Complex> input;
  PhaseTimer timer;
  std::vector<double> total, transpose, compute, backward;
};

class FftBenchmark {
 public:
  FftBenchmark(const FftRunOptions& options, const Topology& topology, const fft::Shape3& global)
      : options_(options), topology_(topology), global_(global) {}

  Trial prepare(std::unique_ptr<FftCandidate> plan) const {
    Trial trial{std::move(plan), {}, {}, {}, {}, {}, {}};
    const fft::Box3 box = trial.plan->input_box();
    trial.input.resize(box.elements());
    fft::fill_test_signal(trial.input.data(), box, global_);
    return trial;
  }

  // One run; `round` < 0 is a warm-up whose times are dropped.
  void run_once(Trial& trial, int round) const {
    FftCandidate& plan = *trial.plan;
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
  FftRow finish(Trial& trial, const std::vector<Complex>* reference,
                std::vector<Complex>* gathered_output) const {
    FftCandidate& plan = *trial.plan;
    FftRow row;
    row.engine = plan.engine();
    row.exchange = plan.describe();
    for (auto* series : {&trial.total, &trial.transpose, &trial.compute, &trial.backward}) {
      report::max_over_ranks(*series, topology_.comm());
    }
    row.total = report::summarize(trial.total);
    row.transpose = report::summarize(trial.transpose);
    row.compute = report::summarize(trial.compute);
    if (options_.backward) row.backward_total = report::summarize(trial.backward);
    const double points = static_cast<double>(global_[0] * global_[1] * global_[2]);
    row.gflops = 5 * points * std::log2(points) / row.total.median / 1e9;

    const std::vector<Complex>& input = trial.input;
    std::copy(input.begin(), input.end(), plan.data());
    plan.forward();
    std::vector<Complex> global = plan.gather_output();
    if (reference != nullptr) {
      row.fftw_mpi_error = fft::relative_difference(global, *reference, topology_.comm());
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
    row.round_trip_absolute_error = pair[0];
    row.round_trip_error = pair[0] / std::max(pair[1], 1e-300);
    row.passed = row.round_trip_error <= options_.tolerance &&
                 (!row.fftw_mpi_error || *row.fftw_mpi_error <= options_.tolerance);
    return row;
  }

 private:
  const FftRunOptions& options_;
  const Topology& topology_;
  fft::Shape3 global_;
};

}  // namespace

void start_fft_run(const FftRunOptions& options, const Topology& topology,
                   const report::RunContext& context, const std::string& settings) {
  if (is_printing_rank()) {
    report::print_context(std::cout, context);
    std::cout << "# " << settings
              << "; times are forward transforms, max over ranks, each on a fresh input\n";
    std::cout.flush();
  }
  if (!options.wisdom_path.empty()) fft::import_wisdom(options.wisdom_path, topology.comm());
}

std::vector<FftRow> run_fft_benchmark(const FftRunOptions& options, const Topology& topology,
                                      const fft::Shape3& global, Order order,
                                      const std::vector<CandidateMaker>& makers) {
  const FftBenchmark benchmark(options, topology, global);
  std::vector<FftRow> rows;
  std::vector<Complex> reference;
  bool have_reference = false;
  const auto finish = [&](Trial& trial) {
    const bool is_reference = !have_reference && trial.plan->engine() == "fftw-mpi";
    rows.push_back(benchmark.finish(trial, have_reference ? &reference : nullptr,
                                    is_reference ? &reference : nullptr));
    have_reference = have_reference || is_reference;
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
  return rows;
}

namespace {

std::string ms(double seconds) {
  return format("%.3f", seconds * 1e3);
}
std::string error_text(double error) {
  return format("%.1e", error);
}

}  // namespace

void print_fft_rows(const std::vector<FftRow>& rows, bool backward,
                    const std::string& exchange_header) {
  std::vector<report::TextTable::Column> columns = {
      {"engine"},         {exchange_header},        {"total [ms]", true},   {"min [ms]", true},
      {"max [ms]", true}, {"transpose [ms]", true}, {"compute [ms]", true}, {"GFlop/s", true}};
  if (backward) columns.push_back({"backward [ms]", true});
  columns.insert(columns.end(), {{"round trip", true}, {"vs fftw-mpi", true}, {"check"}});
  report::TextTable table(columns);
  for (const FftRow& row : rows) {
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

namespace {

nlohmann::json summary_json(const report::Summary& s) {
  return {{"median_seconds", s.median}, {"min_seconds", s.min}, {"max_seconds", s.max}};
}

void write_fft_outputs(const FftRunOptions& options, const report::RunContext& context,
                       const std::string& settings, const std::vector<FftRow>& rows) {
  if (!options.json_path.empty()) {
    nlohmann::json results = nlohmann::json::array();
    for (const FftRow& row : rows) {
      nlohmann::json item = {{"engine", row.engine},
                             {"exchange", row.exchange},
                             {"total", summary_json(row.total)},
                             {"transpose", summary_json(row.transpose)},
                             {"compute", summary_json(row.compute)},
                             {"gflops", row.gflops},
                             {"round_trip_error", row.round_trip_error},
                             {"round_trip_absolute_error", row.round_trip_absolute_error},
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
    for (const FftRow& row : rows) {
      out << row.engine << ",\"" << row.exchange << "\"," << row.total.median << ','
          << row.total.min << ',' << row.total.max << ',' << row.transpose.median << ','
          << row.compute.median << ',' << row.gflops << ',' << row.round_trip_error << ','
          << (row.fftw_mpi_error ? std::to_string(*row.fftw_mpi_error) : "") << ','
          << (row.passed ? "PASS" : "FAIL") << '\n';
    }
    if (!out) throw UsageError("--csv=" + options.csv_path + " could not be written");
  }
}

}  // namespace

int report_fft_results(const FftRunOptions& options, const Topology& topology,
                       const report::RunContext& context, const std::string& settings,
                       const std::vector<FftRow>& rows, const std::string& exchange_header) {
  if (!options.wisdom_path.empty()) fft::export_wisdom(options.wisdom_path, topology.comm());
  const bool all_passed =
      std::all_of(rows.begin(), rows.end(), [](const FftRow& row) { return row.passed; });
  if (is_printing_rank()) {
    print_fft_rows(rows, options.backward, exchange_header);
    if (!all_passed) {
      std::cout << "FAIL: an error above exceeds the tolerance " << error_text(options.tolerance)
                << '\n';
    }
    write_fft_outputs(options, context, settings, rows);
  }
  return all_passed ? 0 : 1;
}

CandidateMaker skipping_refusal_if(bool from_all, CandidateMaker make) {
  return [from_all, make = std::move(make)]() -> std::unique_ptr<FftCandidate> {
    try {
      return make();
    } catch (const UsageError& error) {
      if (!from_all) throw;
      if (is_printing_rank()) std::cout << "# not run: " << error.what() << '\n';
      return nullptr;
    }
  };
}

}  // namespace a2afft::commands
