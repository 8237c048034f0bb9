// `a2afft run DECK.toml`: a study. The deck expands to a2afft command lines (deck.hpp); all of
// them are checked before the first runs, then each runs in this process exactly as it would on
// the command line, with a progress bar on rank 0's stderr. The results of every run go into one
// JSON and one CSV file (schemas in docs/commands.md), ready for scripts/plot. Both are written
// after every run, so an interrupted study (SIGINT, SIGTERM) keeps its finished runs, and --resume
// runs only the rest.

#include <fftw3.h>
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>

#include <a2afft/error.hpp>
#include <a2afft/tools/fft_tools.hpp>
#include <a2afft/tools/topology.hpp>

#include "commands.hpp"
#include "deck.hpp"
#include "fft_options.hpp"
#include "options.hpp"
#include "report/context.hpp"
#include "report/csv_reporter.hpp"
#include "report/json_reporter.hpp"
#include "report/stats.hpp"

namespace a2afft::commands {
namespace {

using report::format;

struct RunOptions {
  std::string deck_path;
  std::string output;  // overrides [study] output
  bool dry_run = false;
  bool resume = false;  // keep the runs already in the results, run the rest
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
      args.front() == "fft2d" ? parse_shape_2d(value) : parse_shape(value, "--size");
    } else if (flag == "--kind") {
      parse_transform(value, "double", 1);
    } else if (flag == "--transforms") {
      parse_axis_kinds(value);  // the words; their count and places once the size is known
    } else if (flag == "--padding") {
      parse_padding(value, 0);  // the numbers; their count once the size is known
    } else if (flag == "--precision") {
      parse_transform("c2c", value, 1);
    } else if (flag == "--rigor") {
      parse_rigor(value, "--rigor");
    } else if (flag == "--grid") {
      if (value != "auto") parse_grid(value, ranks, "--grid");
    } else if (flag == "--n") {
      parse_length(value, "lengths");
    } else if (flag == "--engine") {  // e.g. fftw-mpi in a build without FFTW-MPI
      std::vector<std::string> engines;
      for (std::size_t start = 0; start <= value.size();) {
        const std::size_t comma = std::min(value.find(',', start), value.size());
        engines.push_back(value.substr(start, comma - start));
        start = comma + 1;
      }
      parse_engines(engines);
    }
  }
}

// Rank 0's progress on stderr: a bar with run k/n and an ETA on a terminal, lines otherwise.
// Each line goes out whole, in one write, after stdout is flushed. Under mpirun stdout (a pty)
// and stderr (a pipe) reach the terminal through mpirun, which forwards each as it reads it,
// so a line written in pieces breaks in two and one written just before or after a table can
// land inside it; when stdout and stderr are different files, mpirun gets a moment to forward
// one before the other follows (a few tens of milliseconds per run).
class Progress {
 public:
  // `first`: the run this process starts at (after the runs --resume keeps).
  Progress(std::size_t total, std::size_t first)
      : total_(total), first_(first), tty_(isatty(STDERR_FILENO) != 0), start_(Clock::now()) {}

  void begin(std::size_t index, const deck::Invocation& invocation) const {
    const double elapsed = seconds_since_start();
    std::string eta = "ETA -";
    if (index > first_) {
      const double left =
          elapsed / static_cast<double>(index - first_) * static_cast<double>(total_ - index);
      eta = "ETA " + std::to_string(static_cast<long>(left + 0.5)) + " s";
    }
    const std::string counter = "run " + std::to_string(index + 1) + "/" + std::to_string(total_);
    if (tty_) {  // a bar per run: the runs print their own tables and progress in between
      const std::size_t filled = kBarWidth * index / total_;
      print("[" + std::string(filled, '#') + std::string(kBarWidth - filled, '.') + "] " + counter +
            ", " + eta + ": " + invocation.label);
    } else {
      print("a2afft run: " + counter + " (" + eta + "): " + invocation.command_line());
    }
  }

  void finish() const {
    print((tty_ ? "[" + std::string(kBarWidth, '#') + "] " : std::string("a2afft run: ")) +
          std::to_string(total_ - first_) + " runs in " +
          std::to_string(static_cast<long>(seconds_since_start() + 0.5)) + " s");
  }

 private:
  using Clock = std::chrono::steady_clock;
  static constexpr std::size_t kBarWidth = 30;
  static void print(const std::string& line) {
    if (!is_printing_rank()) return;
    std::cout.flush();
    std::fflush(stdout);
    const bool separate_files = !same_file(STDOUT_FILENO, STDERR_FILENO);
    if (separate_files) std::this_thread::sleep_for(kForwardPause);
    const std::string whole = line + '\n';
    std::fwrite(whole.data(), 1, whole.size(), stderr);
    std::fflush(stderr);
    if (separate_files) std::this_thread::sleep_for(kForwardPause);
  }
  static bool same_file(int fd_a, int fd_b) {
    struct stat a {};
    struct stat b {};
    return fstat(fd_a, &a) == 0 && fstat(fd_b, &b) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino;
  }
  static constexpr std::chrono::milliseconds kForwardPause{20};
  double seconds_since_start() const {
    return std::chrono::duration<double>(Clock::now() - start_).count();
  }

  std::size_t total_;
  std::size_t first_;
  bool tty_;
  Clock::time_point start_;
};

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) return nullptr;
  return nlohmann::json::parse(in, nullptr, false);
}

// The CSV: one row per result row of every run, the same columns for every kind (docs/commands.md).
// The header starts the file and each finished run appends its rows, so the file always holds every
// finished run.
const std::vector<std::string> kStudyCsvHeader = {"run",
                                                  "label",
                                                  "kind",
                                                  "problem",
                                                  "engine",
                                                  "exchange",
                                                  "median_s",
                                                  "min_s",
                                                  "max_s",
                                                  "spread",
                                                  "unstable",
                                                  "transpose_median_s",
                                                  "compute_median_s",
                                                  "gflops",
                                                  "check"};

void append_csv_rows(report::CsvWriter& csv, const nlohmann::json& run) {
  const nlohmann::json& results = run["results"];
  for (const nlohmann::json& row : results.is_array() ? results : nlohmann::json::array()) {
    const bool fft = row.contains("total");
    const nlohmann::json& total = fft ? row["total"] : row;
    const auto seconds = [](const nlohmann::json& value) {
      return format("%.6g", value.get<double>());
    };
    csv.add_row(
        {std::to_string(run["index"].get<int>()), run["label"].get<std::string>(),
         run["kind"].get<std::string>(),
         fft ? run["problem"].get<std::string>()
             : std::to_string(row["block_bytes"].get<std::size_t>()) + " B",
         fft ? row["engine"].get<std::string>() : "-", row["exchange"].get<std::string>(),
         seconds(total["median_seconds"]), seconds(total["min_seconds"]),
         seconds(total["max_seconds"]),
         row.contains("spread") ? format("%.6g", row["spread"].get<double>()) : "",
         row.value("unstable_reason", ""), fft ? seconds(row["transpose"]["median_seconds"]) : "",
         fft ? seconds(row["compute"]["median_seconds"]) : "",
         fft ? format("%.4g", row["gflops"].get<double>()) : "", row["check"].get<std::string>()});
  }
}

// What SIGINT and SIGTERM do while a study runs (a user's Ctrl-C, a batch system's time limit):
// the results files hold every finished run at all times, so the handler only says how many
// and exits 128 + the signal. It may fire inside MPI or FFTW, so it uses only what is safe in a
// signal handler (write, unlink, _exit, lock-free atomics) on text prepared beforehand. While
// the files change (a Hold), the signals are blocked in this thread, and a signal that MPI's
// own threads take instead is only noted: the Hold's end exits for it, so a signal never cuts
// a row in half.
class InterruptGuard {
 public:
  InterruptGuard() {
    struct sigaction action {};
    action.sa_handler = &InterruptGuard::on_signal;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &old_int_);
    sigaction(SIGTERM, &action, &old_term_);
  }
  ~InterruptGuard() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
    message_[0] = '\0';
    scratch_[0] = '\0';
  }
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  // The line to print if a signal comes now ("" on ranks that do not print), and the scratch
  // file of the run under way, removed then.
  void set(const std::string& message, const std::string& scratch) {
    copy(message, message_);
    copy(scratch, scratch_);
  }

  // Defers SIGINT and SIGTERM for its life, in every thread: while the results files change.
  class Hold {
   public:
    Hold() {
      sigset_t signals;
      sigemptyset(&signals);
      sigaddset(&signals, SIGINT);
      sigaddset(&signals, SIGTERM);
      pthread_sigmask(SIG_BLOCK, &signals, &previous_);
      holding_.store(true);
    }
    ~Hold() {
      holding_.store(false);
      if (const int signal_number = pending_.load()) finish(signal_number);
      pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
    }
    Hold(const Hold&) = delete;
    Hold& operator=(const Hold&) = delete;

   private:
    sigset_t previous_{};
  };

 private:
  static constexpr std::size_t kTextBytes = 4096;
  static void copy(const std::string& text, char* to) {
    const std::size_t bytes = std::min(text.size(), kTextBytes - 1);
    std::memcpy(to, text.data(), bytes);
    to[bytes] = '\0';
  }
  // Another thread (MPI's progress thread) may take the signal during a Hold: it is noted, and
  // whichever of the handler and ~Hold sees the other's store second finishes, once.
  static void on_signal(int signal_number) {
    pending_.store(signal_number);
    if (!holding_.load()) finish(signal_number);
  }
  static void finish(int signal_number) {
    if (finishing_.exchange(true)) return;
    if (scratch_[0] != '\0') unlink(scratch_);
    const ssize_t ignored = write(STDERR_FILENO, message_, std::strlen(message_));
    (void)ignored;
    _exit(128 + signal_number);
  }

  static inline char message_[kTextBytes] = {};
  static inline char scratch_[kTextBytes] = {};
  static inline std::atomic<bool> holding_{false};
  static inline std::atomic<int> pending_{0};
  static inline std::atomic<bool> finishing_{false};
  static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free,
                "the signal handler needs lock-free atomics");
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

// The runs already in `json_path` that --resume keeps: the leading runs whose index and command
// match the deck's, in order. A file that is not this deck's results is an error, not a reason
// to start over and lose it.
nlohmann::json resumable_runs(const std::string& json_path, const deck::Study& study) {
  if (!std::filesystem::exists(json_path)) return nlohmann::json::array();
  const nlohmann::json document = read_json(json_path);
  if (!document.is_object() || document.value("schema", "") != "a2afft-study/1" ||
      !document.contains("runs") || !document["runs"].is_array()) {
    throw UsageError("--resume: " + json_path + " is not an a2afft-study/1 results file");
  }
  const nlohmann::json& runs = document["runs"];
  if (runs.size() > study.invocations.size()) {
    throw UsageError("--resume: " + json_path + " holds " + std::to_string(runs.size()) +
                     " runs, more than the " + std::to_string(study.invocations.size()) + " of " +
                     study.path);
  }
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const std::string expected = study.invocations[k].command_line();
    if (runs[k].value("index", 0) != static_cast<int>(k + 1) ||
        runs[k].value("command", "") != expected) {
      throw UsageError("--resume: run " + std::to_string(k + 1) + " in " + json_path + " is '" +
                       runs[k].value("command", "") + "', but " + study.path + " runs '" +
                       expected + "' there; resume with the deck that wrote it");
    }
  }
  return runs;
}

// What varies between the invocations of one [[run]]: its expanded values, e.g. "64x64x64, 2x1"
// (with a threads sweep, "threads 2" too).
std::string problem_of(const deck::Invocation& invocation) {
  std::string problem;
  const std::vector<std::string>& args = invocation.args;
  for (std::size_t i = 1; i + 1 < args.size(); ++i) {
    if (args[i] == "--size" || args[i] == "--grid" || args[i] == "--n" || args[i] == "--kind" ||
        args[i] == "--transforms" || args[i] == "--padding" || args[i] == "--precision" ||
        args[i] == "--batch" || args[i] == "--threads") {
      problem += (problem.empty() ? "" : ", ") + args[i].substr(2) + " " + args[i + 1];
    }
  }
  return problem;
}

// A mistake found in one invocation, named by the deck's file, line and [[run]].
UsageError in_deck(const deck::Study& study, const deck::Invocation& invocation,
                   const UsageError& error) {
  return UsageError(study.path + ":" + std::to_string(invocation.line) + ": [[run]] " +
                    std::to_string(invocation.run) + " (" + invocation.label +
                    "): " + error.what());
}

// The runs --resume keeps, the same count on every rank: rank 0 reads the results, and when it
// refuses them every rank refuses (only rank 0's message is printed).
nlohmann::json agreed_resumable_runs(const std::string& json_path, const deck::Study& study) {
  nlohmann::json runs = nlohmann::json::array();
  std::string refusal;
  if (is_printing_rank()) {
    try {
      runs = resumable_runs(json_path, study);
    } catch (const UsageError& error) {
      refusal = error.what();
    }
  }
  int kept = refusal.empty() ? static_cast<int>(runs.size()) : -1;
  MPI_Bcast(&kept, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (kept < 0) throw UsageError(refusal.empty() ? "--resume refused on rank 0" : refusal);
  if (!is_printing_rank()) runs = nlohmann::json::array_t(static_cast<std::size_t>(kept));
  return runs;
}

// Every invocation of the deck parses and its values check at this size, before anything runs;
// a mistake names the deck's line.
void check_study(const deck::Study& study) {
  int ranks = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  for (const deck::Invocation& invocation : study.invocations) {
    try {
      invoke(invocation.args, true);
      check_values(invocation, ranks);
    } catch (const UsageError& error) {
      throw in_deck(study, invocation, error);
    }
  }
}

// The study's results on rank 0: one JSON document and one CSV holding every finished run,
// written before the first run and after each (nothing finished is lost), with a signal's
// message and the scratch file of the run under way kept up to date.
class StudyResults {
 public:
  StudyResults(const deck::Study& study, nlohmann::json kept_runs)
      : study_(study),
        json_path_(study.output + ".json"),
        csv_path_(study.output + ".csv"),
        runs_(std::move(kept_runs)),
        kept_(runs_.size()),
        started_(report::utc_now()) {
    const RankMap world = map_ranks(MPI_COMM_WORLD, LayoutRequest{});
    context_ = report::to_json(report::collect_context(world, "a2afft run"));
    context_["fftw"] = {{"version", std::string(fftw_version)}, {"cc", std::string(fftw_cc)}};
    if (!is_printing_rank()) return;
    const std::filesystem::path parent = std::filesystem::path(json_path_).parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent);
    if (kept_ > 0) {
      std::cout << "# --resume: " << kept_ << " of " << total() << " runs already in " << json_path_
                << '\n';
    }
  }

  std::size_t total() const { return study_.invocations.size(); }
  std::size_t kept() const { return kept_; }
  // The highest exit code of the runs so far.
  int status() const {
    int status = 0;
    for (const nlohmann::json& run : runs_)
      status = std::max(status, run.is_object() ? run.value("exit_code", 0) : 0);
    return status;
  }
  std::string files() const { return json_path_ + ", " + csv_path_; }

  // Adds run k's record, from the command's own results in `part` (rank 0).
  void add(std::size_t k, int code, const std::string& part) {
    const deck::Invocation& invocation = study_.invocations[k];
    nlohmann::json result = read_json(part);
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
    runs_.push_back(std::move(record));
  }

  // Writes both files (rank 0); `scratch` is the file of the run under way.
  void save(const std::string& scratch) {
    if (!is_printing_rank()) return;
    const InterruptGuard::Hold hold;
    report::write_json_file(json_path_, document());
    if (runs_.size() == kept_) {  // the first save starts the CSV afresh with the kept runs
      report::CsvWriter csv(csv_path_, kStudyCsvHeader);
      for (const nlohmann::json& run : runs_)
        append_csv_rows(csv, run);
    } else {
      report::CsvWriter csv(csv_path_, kStudyCsvHeader, report::CsvWriter::Mode::append);
      append_csv_rows(csv, runs_.back());
    }
    interrupt_.set("a2afft run: interrupted: " + std::to_string(runs_.size()) + " of " +
                       std::to_string(total()) + " runs kept in " + json_path_ + " and " +
                       csv_path_ + (runs_.size() < total() ? "; --resume runs the rest" : "") +
                       "\n",
                   scratch);
  }

 private:
  // Ordered, so the file reads top-down: what this is, the study, the machine, the runs.
  nlohmann::ordered_json document() const {
    return nlohmann::ordered_json{{"schema", "a2afft-study/1"},
                                  {"study",
                                   {{"name", study_.name},
                                    {"deck", study_.path},
                                    {"started_utc", started_},
                                    {"finished_utc", report::utc_now()},
                                    {"runs", total()}}},
                                  {"context", context_},
                                  {"runs", runs_}};
  }

  const deck::Study& study_;
  std::string json_path_, csv_path_;
  nlohmann::json runs_;
  std::size_t kept_;
  std::string started_;
  nlohmann::json context_;
  InterruptGuard interrupt_;
};

// Runs invocation k of the study with its results in `part`; returns its exit code.
int run_one(const deck::Study& study, std::size_t k, const std::string& part) {
  const deck::Invocation& invocation = study.invocations[k];
  std::vector<std::string> args = invocation.args;
  args.insert(args.end(), {"--json", part});
  if (is_printing_rank())
    std::cout << "\n# run " << k + 1 << ": " << invocation.command_line() << '\n' << std::flush;
  try {
    return invoke(args, false);
  } catch (const UsageError& error) {
    throw in_deck(study, invocation, error);
  }
}

// `a2afft run DECK`: checks every run, then runs those not already kept (--resume), saving the
// results after each.
int run_study(const RunOptions& options) {
  deck::Study study = deck::parse_deck_file(options.deck_path);
  if (!options.output.empty()) study.output = options.output;
  check_study(study);
  const std::string json_path = study.output + ".json";
  if (is_printing_rank()) {
    std::cout << "# a2afft run " << study.path << ": study '" << study.name << "', "
              << study.invocations.size() << " runs; results: " << json_path << ", " << study.output
              << ".csv\n";
    for (const deck::Invocation& invocation : study.invocations)
      std::cout << "#   " << invocation.command_line() << '\n';
    std::cout.flush();
  }
  if (options.dry_run) return 0;
  StudyResults results(
      study, options.resume ? agreed_resumable_runs(json_path, study) : nlohmann::json::array());
  int status = results.status();
  const Progress progress(results.total(), results.kept());
  const auto part_of = [&](std::size_t k) {
    return study.output + ".run" + std::to_string(k + 1) + ".json";
  };
  for (std::size_t k = results.kept(); k < results.total(); ++k) {
    if (k == results.kept()) results.save(part_of(k));
    progress.begin(k, study.invocations[k]);
    const int code = run_one(study, k, part_of(k));
    status = std::max(status, code);
    if (!is_printing_rank()) continue;
    results.add(k, code, part_of(k));
    results.save(part_of(k + 1));
    std::filesystem::remove(part_of(k));
  }
  if (results.kept() == results.total()) results.save("");
  progress.finish();
  if (is_printing_rank()) {
    std::cout << "\n# results: " << results.files() << (status == 0 ? "" : " (some checks FAILED)")
              << '\n';
  }
  return status;
}

}  // namespace

Runner add_run(CLI::App& app) {
  auto* command = app.add_subcommand(
      "run", "Run a study deck (TOML): many alltoall/fft1d/fft2d/fft3d runs, one JSON and one CSV");
  auto options = std::make_shared<RunOptions>();
  command->add_option("deck", options->deck_path, "The deck, e.g. inputs/demo.toml")->required();
  command->add_option("--output", options->output,
                      "Results prefix: writes PREFIX.json and PREFIX.csv (default: the deck's "
                      "[study] output, else results/<deck name>)");
  command->add_flag("--dry-run", options->dry_run,
                    "Check the deck and print the commands it runs, without running them");
  command->add_flag("--resume", options->resume,
                    "Keep the runs already in the results (an interrupted study) and run the "
                    "rest; without it the results are started afresh");
  command->footer(
      "A deck has an optional [study] table (name, output) and [[run]] tables, each with a kind\n"
      "(alltoall, fft1d, fft2d, fft3d) and that command's settings; see inputs/ and "
      "docs/commands.md.");
  return [options] { return run_study(*options); };
}

}  // namespace a2afft::commands
