// `a2afft run DECK.toml`: a study. The deck expands to a2afft command lines (deck.hpp); all of
// them are checked before the first runs, then each runs in this process exactly as it would on
// the command line, with a progress bar on rank 0's stderr. The results of every run go into one
// JSON and one CSV file (schemas in the README), ready for scripts/plot.

#include <fftw3.h>
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "deck.hpp"
#include "error.hpp"
#include "geometry.hpp"
#include "options.hpp"
#include "report/context.hpp"
#include "report/stats.hpp"
#include "six_step_geometry.hpp"
#include "topology/topology.hpp"

namespace a2afft::commands {
namespace {

using report::format;

struct RunOptions {
  std::string deck_path;
  std::string output;  // overrides [study] output
  bool dry_run = false;
};

// Runs `args` (subcommand first) through a fresh copy of the command line interface; `parse_only`
// stops after parsing. Parse errors come back as UsageError, like main() reports them.
int invoke(const std::vector<std::string>& args, bool parse_only) {
  CLI::App app("a2afft", "a2afft");
  app.require_subcommand(1);
  const std::vector<Subcommand> subcommands = add_subcommands(app);
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them reversed
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& error) {
    throw UsageError(error.what());
  }
  if (parse_only) return 0;
  for (const auto& [name, runner] : subcommands) {
    if (app.got_subcommand(name)) return runner();
  }
  return 0;
}

// The values a command checks only when it runs, checked up front so a typo in the last run of a
// deck fails before the first one starts.
void check_values(const deck::Invocation& invocation, int ranks) {
  const std::vector<std::string>& args = invocation.args;
  for (std::size_t i = 1; i + 1 < args.size(); ++i) {
    const std::string& flag = args[i];
    const std::string& value = args[i + 1];
    if (flag == "-x" || flag == "--row-exchange" || flag == "--col-exchange") {
      cli::expand_exchange_specs({value});
    } else if (flag == "--sizes") {
      cli::parse_block_sizes(value, "sizes");
    } else if (flag == "--size") {
      fft::parse_shape(value);
    } else if (flag == "--grid") {
      fft::parse_grid(value, ranks);
    } else if (flag == "--n") {
      fft::parse_length(value, "lengths");
    }
  }
}

// Rank 0's progress on stderr: a bar with run k/n and an ETA on a terminal, lines otherwise.
class Progress {
 public:
  explicit Progress(std::size_t total)
      : total_(total), tty_(isatty(STDERR_FILENO) != 0), start_(Clock::now()) {}

  void begin(std::size_t index, const deck::Invocation& invocation) const {
    if (!is_printing_rank()) return;
    const double elapsed = seconds_since_start();
    std::string eta = "ETA -";
    if (index > 0) {
      const double left =
          elapsed / static_cast<double>(index) * static_cast<double>(total_ - index);
      eta = "ETA " + std::to_string(static_cast<long>(left + 0.5)) + " s";
    }
    const std::string counter = "run " + std::to_string(index + 1) + "/" + std::to_string(total_);
    if (tty_) {  // a bar per run: the runs print their own tables and progress in between
      const std::size_t filled = kBarWidth * index / total_;
      std::cerr << "[" << std::string(filled, '#') << std::string(kBarWidth - filled, '.') << "] "
                << counter << ", " << eta << ": " << invocation.label << '\n';
    } else {
      std::cerr << "a2afft run: " << counter << " (" << eta << "): " << invocation.command_line()
                << '\n';
    }
  }

  void finish() const {
    if (!is_printing_rank()) return;
    std::cerr << (tty_ ? "[" + std::string(kBarWidth, '#') + "] " : "a2afft run: ") << total_
              << " runs in " << static_cast<long>(seconds_since_start() + 0.5) << " s\n";
  }

 private:
  using Clock = std::chrono::steady_clock;
  static constexpr std::size_t kBarWidth = 30;
  double seconds_since_start() const {
    return std::chrono::duration<double>(Clock::now() - start_).count();
  }

  std::size_t total_;
  bool tty_;
  Clock::time_point start_;
};

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) return nullptr;
  return nlohmann::json::parse(in, nullptr, false);
}

// One CSV row per result row of every run; the same columns for every kind (README).
void write_csv(const std::string& path, const nlohmann::json& runs) {
  std::ofstream out(path);
  out << "run,label,kind,problem,engine,exchange,median_s,min_s,max_s,transpose_median_s,"
         "compute_median_s,gflops,check\n";
  const auto quoted = [](const std::string& text) {
    std::string escaped;
    for (const char c : text)
      escaped += c == '"' ? std::string("\"\"") : std::string(1, c);
    return "\"" + escaped + "\"";
  };
  for (const nlohmann::json& run : runs) {
    for (const nlohmann::json& row : run.value("results", nlohmann::json::array())) {
      const bool fft = row.contains("total");
      const nlohmann::json& total = fft ? row["total"] : row;
      const auto seconds = [](const nlohmann::json& value) {
        return format("%.6g", value.get<double>());
      };
      out << run["index"].get<int>() << ',' << quoted(run["label"].get<std::string>()) << ','
          << run["kind"].get<std::string>() << ','
          << quoted(fft ? run["problem"].get<std::string>()
                        : std::to_string(row["block_bytes"].get<std::size_t>()) + " B")
          << ',' << (fft ? row["engine"].get<std::string>() : "-") << ','
          << quoted(row["exchange"].get<std::string>()) << ',' << seconds(total["median_seconds"])
          << ',' << seconds(total["min_seconds"]) << ',' << seconds(total["max_seconds"]) << ','
          << (fft ? seconds(row["transpose"]["median_seconds"]) : "") << ','
          << (fft ? seconds(row["compute"]["median_seconds"]) : "") << ','
          << (fft ? format("%.4g", row["gflops"].get<double>()) : "") << ','
          << row["check"].get<std::string>() << '\n';
    }
  }
  if (!out) throw UsageError(path + " could not be written");
}

// What varies between the invocations of one [[run]]: its expanded values, e.g. "64x64x64, 2x1".
std::string problem_of(const deck::Invocation& invocation) {
  std::string problem;
  const std::vector<std::string>& args = invocation.args;
  for (std::size_t i = 1; i + 1 < args.size(); ++i) {
    if (args[i] == "--size" || args[i] == "--grid" || args[i] == "--n") {
      problem += (problem.empty() ? "" : ", ") + args[i].substr(2) + " " + args[i + 1];
    }
  }
  return problem;
}

int run_study(const RunOptions& options) {
  deck::Study study = deck::parse_deck_file(options.deck_path);
  if (!options.output.empty()) study.output = options.output;
  int ranks = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  for (const deck::Invocation& invocation : study.invocations) {
    try {
      invoke(invocation.args, true);
      check_values(invocation, ranks);
    } catch (const UsageError& error) {
      throw UsageError(study.path + ":" + std::to_string(invocation.line) + ": [[run]] " +
                       std::to_string(invocation.run) + " (" + invocation.label +
                       "): " + error.what());
    }
  }
  const std::string json_path = study.output + ".json";
  const std::string csv_path = study.output + ".csv";
  if (is_printing_rank()) {
    std::cout << "# a2afft run " << study.path << ": study '" << study.name << "', "
              << study.invocations.size() << " runs; results: " << json_path << ", " << csv_path
              << '\n';
    for (const deck::Invocation& invocation : study.invocations)
      std::cout << "#   " << invocation.command_line() << '\n';
    std::cout.flush();
  }
  if (options.dry_run) return 0;
  if (is_printing_rank()) {
    const std::filesystem::path parent = std::filesystem::path(json_path).parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent);
  }

  const Topology world(MPI_COMM_WORLD, LayoutRequest{});
  nlohmann::json context = report::to_json(report::collect_context(world, "a2afft run"));
  context["fftw"] = {{"version", std::string(fftw_version)}, {"cc", std::string(fftw_cc)}};
  const std::string started = report::utc_now();
  nlohmann::json runs = nlohmann::json::array();
  int status = 0;
  const Progress progress(study.invocations.size());
  for (std::size_t k = 0; k < study.invocations.size(); ++k) {
    const deck::Invocation& invocation = study.invocations[k];
    progress.begin(k, invocation);
    const std::string part = study.output + ".run" + std::to_string(k + 1) + ".json";
    std::vector<std::string> args = invocation.args;
    args.insert(args.end(), {"--json", part});
    if (is_printing_rank())
      std::cout << "\n# run " << k + 1 << ": " << invocation.command_line() << '\n' << std::flush;
    int code = 0;
    try {
      code = invoke(args, false);
    } catch (const UsageError& error) {
      throw UsageError(study.path + ":" + std::to_string(invocation.line) + ": [[run]] " +
                       std::to_string(invocation.run) + " (" + invocation.label +
                       "): " + error.what());
    }
    status = std::max(status, code);
    if (!is_printing_rank()) continue;
    nlohmann::json result = read_json(part);
    std::filesystem::remove(part);
    nlohmann::json record = {{"index", k + 1},
                             {"run", invocation.run},
                             {"line", invocation.line},
                             {"label", invocation.label},
                             {"kind", invocation.kind},
                             {"problem", problem_of(invocation)},
                             {"command", invocation.command_line()},
                             {"exit_code", code}};
    for (const char* key : {"context", "settings", "results"}) {
      record[key] = result.is_object() && result.contains(key) ? result[key] : nullptr;
    }
    runs.push_back(std::move(record));
  }
  progress.finish();
  if (is_printing_rank()) {
    // Ordered, so the file reads top-down: what this is, the study, the machine, the runs.
    const nlohmann::ordered_json document = {{"schema", "a2afft-study/1"},
                                             {"study",
                                              {{"name", study.name},
                                               {"deck", study.path},
                                               {"started_utc", started},
                                               {"finished_utc", report::utc_now()},
                                               {"runs", study.invocations.size()}}},
                                             {"context", context},
                                             {"runs", runs}};
    std::ofstream out(json_path);
    out << document.dump(2) << '\n';
    if (!out) throw UsageError(json_path + " could not be written");
    write_csv(csv_path, runs);
    std::cout << "\n# results: " << json_path << ", " << csv_path
              << (status == 0 ? "" : " (some checks FAILED)") << '\n';
  }
  return status;
}

}  // namespace

Runner add_run(CLI::App& app) {
  auto* command = app.add_subcommand(
      "run", "Run a study deck (TOML): many alltoall/fft1d/fft3d runs, one JSON and one CSV");
  auto options = std::make_shared<RunOptions>();
  command->add_option("deck", options->deck_path, "The deck, e.g. inputs/demo.toml")->required();
  command->add_option("--output", options->output,
                      "Results prefix: writes PREFIX.json and PREFIX.csv (default: the deck's "
                      "[study] output, else results/<deck name>)");
  command->add_flag("--dry-run", options->dry_run,
                    "Check the deck and print the commands it runs, without running them");
  command->footer(
      "A deck has an optional [study] table (name, output) and [[run]] tables, each with a kind\n"
      "(alltoall, fft1d, fft3d) and that command's settings; see inputs/ and the README.");
  return [options] { return run_study(*options); };
}

}  // namespace a2afft::commands
