// `a2afft alltoall`: the exchange microbenchmark, in the spirit of osu_alltoall. Every rank
// times each run of a plan; a run's time is the max over ranks; rows give median/min/max over
// the timed runs, side by side for every exchange at every block size.

#include <malloc.h>
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <iostream>
#include <map>
#include <optional>

#include <a2afft/error.hpp>
#include <a2afft/exchange.hpp>
#include <a2afft/tools/backends.hpp>
#include <a2afft/tools/roofline.hpp>
#include <a2afft/tools/simulation.hpp>
#include <a2afft/tools/timing.hpp>
#include <a2afft/tools/topology.hpp>
#include <a2afft/tools/verify.hpp>

#include "commands.hpp"
#include "copy_bandwidth_text.hpp"
#include "memory_check.hpp"
#include "options.hpp"
#include "osu_loop.hpp"
#include "report/reporter.hpp"
#include "report/stats.hpp"
#include "run_order.hpp"
#include "split_phase_overlap.hpp"

namespace a2afft::commands {
namespace {

struct AlltoallOptions {
  std::vector<std::string> exchanges{"all"};
  std::string sizes = "16:64K";
  int iterations = 50;
  int warmup = 5;
  bool validate = false;
  bool radix_sweep = false;
  bool phases = false;
  bool roofline = false;
  bool fold_memory = false;
  bool plan_time = false;
  bool plan_only = false;  // --plan-only: build and measure every plan, run none
  std::string buffers = "exchange";
  std::string order = "auto";
  std::string stats = "a2afft";  // --stats: "osu" adds osu_alltoall -f's figures
  std::string format = "table";  // --format: "osu" prints osu_alltoall -f's table layout
  report::ReportFiles files;     // --json, --csv
  cli::LayoutFlags layout;
  const CLI::Option* exchange_option = nullptr;
  // The options that only mean something for runs, which --plan-only refuses.
  std::vector<const CLI::Option*> run_options;
};

using Row = report::AlltoallRow;

// Bytes this process's malloc has handed out and not had back: its arenas and its own mmaps.
double heap_bytes_in_use() {
  const struct mallinfo2 info = mallinfo2();
  return static_cast<double>(info.uordblks + info.hblkhd);
}

using report::format;

// --roofline: memcpy's rate at each block size's buffers (P x block per rank), every rank of a
// node copying at once.
using CopyRates = std::map<std::size_t, CopyBandwidth>;

class AlltoallBenchmark {
 public:
  AlltoallBenchmark(const AlltoallOptions& options, const RankMap& ranks,
                    const LayoutRequest& layout, Order order, const CopyRates& copy_rates)
      : options_(options), ranks_(ranks), layout_(layout), order_(order), copy_rates_(copy_rates) {}

  // Runs every exchange at one block size; appends a row per exchange.
  // `done` is called after each plan's row is finished (the command rewrites its files there).
  void run_size(std::size_t block_bytes, const std::vector<std::string>& specs,
                const std::function<void(const std::vector<Row>&)>& done) {
    const std::size_t total_bytes = block_bytes * static_cast<std::size_t>(ranks_.size());
    // Folded (--fold-memory), nothing is checked and contents are meaningless: no pattern, which
    // would be P x block per rank of unfolded memory.
    std::vector<std::byte> pattern(options_.fold_memory ? 0 : total_bytes), reference;
    if (!options_.fold_memory)
      fill_pattern(pattern.data(), ranks_.rank, ranks_.size(), block_bytes);
    if (options_.validate) {
      reference.resize(total_bytes);
      make_exchange(MPI_COMM_WORLD, block_bytes, "mpi", layout_)
          ->run(pattern.data(), reference.data());
    }
    // Interleaved, every plan of this size lives at once and takes one turn per timed run.
    std::vector<Trial> trials(specs.size());
    timing::TrialCallbacks callbacks;
    callbacks.prepare = [&](std::size_t k) {
      trials[k] = prepare(specs[k], block_bytes, total_bytes, pattern, reference);
    };
    callbacks.run = [&](std::size_t k, int) { return time_run(trials[k]); };
    callbacks.finish = [&](std::size_t k, std::vector<double>& seconds) {
      finish(trials[k], seconds);
      trials[k] = Trial{};
      done(rows_);
    };
    const int runs = options_.iterations;
    timing::run_trials(specs.size(), order_, {.warmup = 0, .fewest = runs, .most = runs},
                       callbacks);
  }

  // --plan-only: builds and measures every plan of this size, one at a time, and runs none.
  // `done` is called after each row (the command rewrites its files there).
  void plan_size(std::size_t block_bytes, const std::vector<std::string>& specs,
                 const std::function<void(const std::vector<Row>&)>& done) {
    for (const std::string& spec : specs) {
      std::unique_ptr<Exchange> plan;
      Row row = plan_row(spec, block_bytes, plan);
      plan.reset();  // before the next plan's heap is read
      row.plan_only = true;
      report_progress(row);
      rows_.push_back(std::move(row));
      done(rows_);
    }
  }

  const std::vector<Row>& rows() const { return rows_; }

 private:
  // One plan at one block size, its buffers, and its runs' times so far.
  struct Trial {
    std::unique_ptr<Exchange> plan;
    Buffer plan_send, plan_recv;  // --buffers exchange
    Buffer heap_send, heap_recv;  // --buffers heap
    std::byte* send = nullptr;
    std::byte* recv = nullptr;
    Row row;
    std::map<std::string, std::vector<double>> phase_seconds;
  };

  // Builds, validates and warms up one plan.
  Trial prepare(const std::string& spec, std::size_t block_bytes, std::size_t total_bytes,
                const std::vector<std::byte>& pattern, const std::vector<std::byte>& reference) {
    Trial trial;
    trial.row = plan_row(spec, block_bytes, trial.plan);
    // --buffers exchange: the plan's own memory, as an application built on a2afft has it
    // (folded under --fold-memory, a shared window's blocks too).
    if (options_.buffers == "exchange") {
      trial.plan_send = trial.plan->allocate(total_bytes);
      trial.plan_recv = trial.plan->allocate(total_bytes);
    } else {
      trial.heap_send = heap_buffer(total_bytes);
      trial.heap_recv = heap_buffer(total_bytes);
    }
    Buffer& send = options_.buffers == "exchange" ? trial.plan_send : trial.heap_send;
    Buffer& recv = options_.buffers == "exchange" ? trial.plan_recv : trial.heap_recv;
    trial.send = send.data();
    trial.recv = recv.data();
    std::copy(pattern.begin(), pattern.end(), trial.send);
    Row& row = trial.row;
    if (options_.validate) {
      std::fill(trial.recv, trial.recv + pattern.size(), std::byte{0xa5});
      trial.plan->run(trial.send, trial.recv);
      row.failure =
          check_pattern(MPI_COMM_WORLD, trial.send, trial.recv, reference.data(), block_bytes);
      row.check = row.failure.empty() ? "PASS" : "FAIL";
    }
    for (int i = 0; i < options_.warmup; ++i)
      trial.plan->run(trial.send, trial.recv);
    if (options_.phases) trial.plan->time_phases(true);
    return trial;
  }

  // Builds `plan` and starts its row: what it is and, with --plan-time, what building it cost.
  Row plan_row(const std::string& spec, std::size_t block_bytes,
               std::unique_ptr<Exchange>& plan) const {
    const report::PlanCostCells cost = build_plan(spec, block_bytes, plan);
    Row row;
    if (options_.plan_time) row.plan = cost;
    row.block_bytes = block_bytes;
    row.spec = spec;
    row.exchange = plan->describe();
    row.check = "-";
    return row;
  }

  // --buffers heap: ordinary zeroed memory (as a std::vector's), or folded under --fold-memory.
  Buffer heap_buffer(std::size_t bytes) const {
    if (options_.fold_memory) return allocate_folded(bytes);
    std::shared_ptr<std::byte[]> memory(new std::byte[bytes]());
    std::byte* data = memory.get();
    return Buffer(std::move(memory), data, bytes);
  }

  static double max_over_ranks(double value) {
    double max_value = 0;
    MPI_Allreduce(&value, &max_value, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return max_value;
  }

  // Builds `plan` (collective) and measures it: seconds, and the heap it holds. The heap is read
  // between barriers, so that no rank allocates while it is read. In the simulated build all
  // ranks share one process and one malloc, so rank 0's reading covers every rank's plan, and
  // only rank 0 reads: mallinfo2() walks the whole heap, and 4,096 readings took minutes.
  report::PlanCostCells build_plan(const std::string& spec, std::size_t block_bytes,
                                   std::unique_ptr<Exchange>& plan) const {
    const bool reads_heap = options_.plan_time && (!A2AFFT_SMPI || ranks_.rank == 0);
    if (options_.plan_time) MPI_Barrier(MPI_COMM_WORLD);
    const double heap_before = reads_heap ? heap_bytes_in_use() : 0.0;
    const double seconds = timing::timed_run(
        MPI_COMM_WORLD, [&] { plan = make_exchange(MPI_COMM_WORLD, block_bytes, spec, layout_); });
    report::PlanCostCells cost;
    if (!options_.plan_time) return cost;
    MPI_Barrier(MPI_COMM_WORLD);
    const double heap_growth = reads_heap ? heap_bytes_in_use() - heap_before : 0.0;
    MPI_Barrier(MPI_COMM_WORLD);
    cost.seconds = max_over_ranks(seconds);
#if A2AFFT_SMPI
    double process_growth = heap_growth;
    MPI_Bcast(&process_growth, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    cost.heap_bytes_per_rank = process_growth / ranks_.size();
#else
    cost.heap_bytes_per_rank = max_over_ranks(heap_growth);
#endif
    return cost;
  }

  // One timed run: this rank's seconds.
  double time_run(Trial& trial) {
    const double seconds =
        timing::timed_run(MPI_COMM_WORLD, [&] { trial.plan->run(trial.send, trial.recv); });
    if (options_.phases) {
      // Outside the timed region: every phase's max over ranks, ranks that skip it as 0 s.
      for (const auto& [name, max_seconds] : trial.plan->take_phase_seconds())
        trial.phase_seconds[name].push_back(max_seconds);
    }
    return seconds;
  }

  void finish(Trial& trial, std::vector<double>& seconds) {
    trial.plan->time_phases(false);
    Row& row = trial.row;
    for (auto& [name, series] : trial.phase_seconds) {
      row.phase_median_seconds[name] = report::summarize(series).median;
    }
    if (options_.stats == "osu") {
      row.osu = osu_figures(trial);
      osu_split_phase(trial);
    }
    report::max_over_ranks(seconds, MPI_COMM_WORLD);
    const report::Summary summary = report::summarize(seconds);
    row.median_seconds = summary.median;
    row.min_seconds = summary.min;
    row.max_seconds = summary.max;
    const auto rate = copy_rates_.find(row.block_bytes);
    if (rate != copy_rates_.end() && ranks_.size() > 1) {
      const auto ranks = static_cast<std::size_t>(ranks_.size());
      const double all_block_bytes = static_cast<double>(row.block_bytes * ranks);
      row.copy_bound =
          report::CopyBoundCells{row.block_bytes * (ranks - 1),
                                 2 * all_block_bytes / rate->second.all_cores_bytes_per_second};
    }
    report_progress(row);
    rows_.push_back(std::move(row));
  }

  // --stats osu (collective): osu_alltoall -f's figures, measured as osu_alltoall measures
  // them: its own loop (osu_loop.hpp) on this plan after the row's runs, its warm-ups and timed
  // calls back to back, not a2afft's runs, which are interleaved with the other plans' and so
  // start with cold caches. Every rank's mean is gathered, so the average, min and max over
  // ranks are report::osu_summary's, which is tested on its own.
  report::OsuSummary osu_figures(Trial& trial) const {
    const OsuLoopCalls calls{.call = [&] { trial.plan->run(trial.send, trial.recv); },
                             .barrier =
                                 [] {
                                   if (MPI_Barrier(MPI_COMM_WORLD) != MPI_SUCCESS)
                                     throw MpiError("MPI_Barrier(osu_alltoall's loop) failed");
                                 },
                             .seconds_now = [] { return MPI_Wtime(); }};
    const double rank_mean_seconds =
        osu_loop_mean_seconds(options_.warmup, options_.iterations, calls);
    std::vector<double> rank_means(static_cast<std::size_t>(ranks_.size()));
    if (MPI_Allgather(&rank_mean_seconds, 1, MPI_DOUBLE, rank_means.data(), 1, MPI_DOUBLE,
                      MPI_COMM_WORLD) != MPI_SUCCESS) {
      throw MpiError("MPI_Allgather(each rank's mean seconds) failed");
    }
    return report::osu_summary(rank_means, options_.iterations);
  }

  // --stats osu (collective): osu_ialltoall's figures for a plan with a split phase, after its
  // own runs and with as many; or why the row has none. A platform that refuses the split phase
  // (mpi's MPI_Ialltoall in simulation from 256 ranks) throws on every rank alike in the first
  // start(), before any message, so the refusal becomes the row's reason.
  void osu_split_phase(Trial& trial) const {
    Row& row = trial.row;
    if (!trial.plan->overlaps()) {
      row.osu_overlap_none =
          "no split phase: its start() does the whole exchange before it returns, so nothing is "
          "in flight to overlap with compute (`a2afft list` shows which backends have one)";
      return;
    }
    report::SplitPhaseRankSeconds means;
    try {
      means = time_split_phase(*trial.plan, trial.send, trial.recv, options_.warmup,
                               options_.iterations, MPI_COMM_WORLD);
    } catch (const UsageError& error) {
      row.osu_overlap_none = error.what();
      return;
    }
    // Five doubles, as bytes: every rank runs the same binary.
    constexpr int kMeansBytes = static_cast<int>(sizeof(report::SplitPhaseRankSeconds));
    std::vector<report::SplitPhaseRankSeconds> rank_means(static_cast<std::size_t>(ranks_.size()));
    if (MPI_Allgather(&means, kMeansBytes, MPI_BYTE, rank_means.data(), kMeansBytes, MPI_BYTE,
                      MPI_COMM_WORLD) != MPI_SUCCESS) {
      throw MpiError("MPI_Allgather(each rank's split-phase means) failed");
    }
    row.osu_overlap = report::osu_overlap(rank_means, options_.iterations);
  }

  void report_progress(const Row& row) const {
    if (!is_printing_rank() || !isatty(STDERR_FILENO)) return;
    std::cerr << "  done: " << row.block_bytes << " B  " << row.exchange << "  "
              << (row.plan_only ? "plan " + format("%.3f", row.plan->seconds * 1e3) + " ms"
                                : format("%.2f", row.median_seconds * 1e6) + " us")
              << '\n';
  }

  const AlltoallOptions& options_;
  const RankMap& ranks_;
  const LayoutRequest& layout_;
  Order order_;
  const CopyRates& copy_rates_;
  std::vector<Row> rows_;
};

// The header's `# roofline:` line and JSON for the measured rates.
void describe_copy_rates(const CopyRates& rates, int ranks, report::Header& header) {
  std::string rates_text;
  nlohmann::json rates_json = nlohmann::json::array();
  for (const auto& [block_bytes, copy] : rates) {
    rates_text += (rates_text.empty() ? "" : "; ") + std::to_string(block_bytes) + " B blocks (" +
                  mebibytes(copy.bytes) + " buffers): " + copy_bandwidth_text(copy);
    rates_json.push_back({{"block_bytes", block_bytes}, {"memcpy", copy_bandwidth_json(copy)}});
  }
  header.roofline_summary =
      "memcpy (read+write: a memcpy of B bytes moves 2B) at each size's " + std::to_string(ranks) +
      " x block per rank: " + rates_text +
      "; copy bound = all P blocks (the own one too) copied once at the all-cores rate; GB/s "
      "off-rank = (P-1) x block / median";
  header.roofline = {{"memcpy_per_block_size", rates_json},
                     {"bandwidth_convention", "bytes read + bytes written"},
                     {"bound", "2 P block_bytes / memcpy all cores"}};
}

// The peak at `block_bytes`: the send pattern (and MPI_Alltoall's result with --validate), each
// plan's send and receive buffers and its scratch; every plan at once when interleaved.
cli::MemoryEstimate alltoall_memory(const std::vector<std::string>& specs, std::size_t block_bytes,
                                    const RankMap& ranks, Order order,
                                    const AlltoallOptions& options) {
  const double buffer_bytes = static_cast<double>(block_bytes) * ranks.size();
  const int largest_node = ranks.largest_node_size();
  double buffers = 0, scratch = 0;
  for (const std::string& spec : specs) {
    const double plan_scratch =
        cli::exchange_scratch_bytes(spec, ranks.size(), largest_node, block_bytes);
    const bool together = order == Order::interleaved;
    buffers = together ? buffers + 2 * buffer_bytes : 2 * buffer_bytes;
    scratch = together ? scratch + plan_scratch : std::max(scratch, plan_scratch);
  }
  cli::MemoryEstimate estimate;
  // Folded (--fold-memory), there is no pattern, and buffers and scratch (a shared window's
  // blocks too: mpml, nmpml, onmpml) are folded.
  // Plan only (--plan-only), there are neither pattern nor buffers: only one plan's scratch.
  const bool pattern = !options.fold_memory && !options.plan_only;
  estimate.per_rank = {{"send pattern", pattern ? buffer_bytes : 0.0},
                       {"MPI_Alltoall's result", options.validate ? buffer_bytes : 0.0},
                       {"plans' buffers", options.plan_only ? 0.0 : buffers, options.fold_memory},
                       {"plans' scratch", scratch, true}};
  return estimate;
}

// --fold-memory: refused with --validate (nothing to check) and outside the simulated build.
std::optional<FoldedMemory> fold_memory_if_asked(const AlltoallOptions& options) {
  if (!options.fold_memory) return std::nullopt;
  if (options.validate) {
    throw UsageError(
        "--validate and --fold-memory cannot be combined: folded buffers share their memory "
        "between all ranks, so their contents are meaningless and there is nothing to check; "
        "drop --fold-memory to check, or --validate to time at scale");
  }
  if (!memory_folding_available()) {
    throw UsageError(
        "--fold-memory needs the simulated build (SimGrid SMPI: ./scripts/run-tests --mpi smpi, "
        "then scripts/simulate): only SMPI can map every rank's buffers onto the same memory; "
        "this a2afft runs on a real MPI, where each rank has its own memory anyway");
  }
  return std::optional<FoldedMemory>(std::in_place);
}

// --plan-only builds and measures every plan and runs none: an option that only means something
// for runs is refused beside it, naming both.
void check_plan_only(const AlltoallOptions& options) {
  if (!options.plan_only) return;
  for (const CLI::Option* option : options.run_options) {
    if (option->count() == 0) continue;
    const std::string name = option->get_name();
    throw UsageError(name +
                     " and --plan-only cannot be combined: --plan-only builds and "
                     "measures every plan (its build time and heap) but runs no "
                     "exchange, and " +
                     name + " is about runs; drop " + name +
                     " to plan only, or --plan-only to run");
  }
}

// The header's words for --fold-memory, also appended to the `simulated` text of the JSON
// context and of every CSV row.
constexpr const char* kFoldedText =
    "memory folded (--fold-memory: send and receive buffers and the exchanges' scratch, shared "
    "windows' blocks included, from SMPI_SHARED_MALLOC, shared by all ranks; contents "
    "meaningless, not checked; local copies run on cache-resident pages, so they are timed too "
    "fast)";

// Everything is checked before anything runs, without building a plan: a bad value or a named
// backend that cannot run this layout is an error; one that came in through `all` is left out,
// its reason added to `refusals`.
std::vector<std::string> runnable_specs(const std::vector<cli::ExchangeChoice>& specs,
                                        const RankMap& ranks, std::vector<std::string>& refusals) {
  std::vector<std::string> runnable;
  for (const auto& [spec, from_all] : specs) {
    const std::string why = backend_refusal(spec, ranks);
    if (why.empty()) {
      runnable.push_back(spec);
    } else if (from_all) {
      refusals.push_back(spec + ": " + why);
    } else {
      throw UsageError(spec + " cannot run on " + ranks.layout + ": " + why);
    }
  }
  return runnable;
}

// --stats osu's words for the settings line: how its figures are measured.
constexpr const char* kOsuText =
    "osu: osu_alltoall -f's figures too, from osu_alltoall's own loop run on each plan after its "
    "runs: the warm-up and timed runs back to back on the same buffers, each timed on its own "
    "rank, a barrier after each; each rank's mean over the timed runs, then the mean, min and "
    "max of those over ranks (as osu_alltoall -i ITERS -x WARMUP); for a plan "
    "with a split phase also osu_ialltoall's, from two more passes as many runs long after its "
    "runs: start()+finish() alone (pure comm), then start(), a dummy compute as long as the "
    "rank's pure comm, finish() (overall, compute); each the mean over ranks of every rank's "
    "mean; overlap % = max(0, 100 - (overall - compute) / pure comm x 100)";

// Beside --stats osu with --buffers exchange. allocate() asks for huge pages from 2 MiB a buffer,
// osu_alltoall's posix_memalign'ed buffers get ordinary pages where transparent huge pages are
// madvise-only: at 1 MiB blocks on 2 ranks MPI_Alltoall took 62 against 102 us at best on a
// 2-vCPU VM for that alone (docs/results/vendor-baselines.md).
constexpr const char* kOsuBuffersText =
    "; osu_alltoall's buffers are ordinary pages (posix_memalign): an exchange's allocate() asks "
    "for huge pages from 2 MiB, so compare with osu_alltoall under --buffers heap";

// The console's settings line: how rows are timed (or that nothing runs), and the options that
// change what a row means.
std::string settings_text(const AlltoallOptions& options, Order order) {
  const std::string plan_text =
      "plan: seconds to build each plan (max over ranks) and the heap it holds per rank "
      "(malloc's bytes in use; " +
      std::string(A2AFFT_SMPI ? "the simulation process's growth / P" : "max over ranks") + ")";
  std::string text;
  if (options.plan_only) {
    text =
        "plan only (--plan-only): every plan built and measured, one at a time, and no "
        "exchange run, so rows have no times; " +
        plan_text;
  } else {
    text = std::to_string(options.iterations) + " timed runs after " +
           std::to_string(options.warmup) + " warm-up runs; a run's time is the max over ranks; " +
           to_string(order) + "; buffers: " + options.buffers +
           (options.buffers == "exchange" ? " (each plan's allocate())" : "") +
           (options.phases ? "; phase columns: median over runs of each phase's max over ranks "
                             "(phases overlap waits, so they need not add up)"
                           : "") +
           (options.plan_time ? "; " + plan_text : "") +
           (options.stats == "osu" ? "; " + std::string(kOsuText) : "") +
           (options.stats == "osu" && options.buffers == "exchange" ? kOsuBuffersText : "");
  }
  return text + (options.fold_memory ? std::string("; ") + kFoldedText : "");
}

// The JSON's "settings": a plan-only run's iterations and warm-ups are none.
nlohmann::json settings_json(const AlltoallOptions& options) {
  return {{"iterations", options.plan_only ? 0 : options.iterations},
          {"warmup", options.plan_only ? 0 : options.warmup},
          {"validate", options.validate},
          {"buffers", options.buffers},
          {"order", options.plan_only ? "sequential" : options.order},
          {"fold_memory", options.fold_memory},
          {"plan_only", options.plan_only},
          {"stats", options.stats},
          {"format", options.format},
          {"time",
           options.plan_only ? "none: plan only, no exchange run" : "max over ranks of each run"}};
}

int run_alltoall(const AlltoallOptions& given) {
  check_plan_only(given);
  AlltoallOptions options = given;
  options.plan_time = options.plan_time || options.plan_only;  // --plan-only measures the plans
  if (options.format == "osu") options.stats = "osu";          // OSU's table needs OSU's figures
  // Before any plan, report or check: every buffer from here on is folded.
  const std::optional<FoldedMemory> folded = fold_memory_if_asked(options);
  const std::vector<std::size_t> sizes = cli::parse_block_sizes(options.sizes, "--sizes");
  const LayoutRequest layout = options.layout.request();
  const RankMap ranks = map_ranks(MPI_COMM_WORLD, layout);
  // A radix sweep ([tra-2024] Fig. 8) runs tra at every radix 2..P, next to `mpi` unless
  // --exchange names what to compare with.
  const bool sweep_only = options.radix_sweep && options.exchange_option->count() == 0;
  std::vector<cli::ExchangeChoice> specs =
      cli::expand_exchange_specs(sweep_only ? std::vector<std::string>{"mpi"} : options.exchanges);
  if (options.radix_sweep) {
    for (int radix = 2; radix <= std::max(2, ranks.size()); ++radix) {
      specs.push_back({"tra:radix=" + std::to_string(radix), false});
    }
  }
  for (const std::size_t block_bytes : sizes) {
    cli::check_buffer_fits(block_bytes, ranks.size(), "--sizes");
  }

  std::vector<std::string> refusals;
  const std::vector<std::string> runnable = runnable_specs(specs, ranks, refusals);

  // Send and receive buffers per plan at the largest size, all plans of one size at once.
  const std::size_t largest_block = *std::max_element(sizes.begin(), sizes.end());
  const double bytes_per_rank =
      2.0 * static_cast<double>(largest_block) * static_cast<double>(ranks.size());
  const Order order = options.plan_only
                          ? Order::sequential
                          : choose_order(options.order, bytes_per_rank, ranks, runnable.size());
  cli::check_memory_fits(alltoall_memory(runnable, largest_block, ranks, order, options), ranks,
                         "alltoall --sizes=" + std::to_string(largest_block));
  CopyRates copy_rates;
  if (options.roofline) {
    for (const std::size_t block_bytes : sizes)
      copy_rates[block_bytes] = measure_copy_bandwidth(
          MPI_COMM_WORLD, block_bytes * static_cast<std::size_t>(ranks.size()));
  }
  report::Reporters reporters(
      is_printing_rank(), std::cout, options.files, "exchange",
      options.format == "osu" ? report::ConsoleLayout::osu : report::ConsoleLayout::table);
  report::Header header{report::collect_context(ranks, "a2afft alltoall"),
                        settings_text(options, order), settings_json(options)};
  if (options.roofline) describe_copy_rates(copy_rates, ranks.size(), header);
  reporters.report_context(header);
  if (is_printing_rank()) {
    for (const std::string& refusal : refusals)
      std::cout << "# not run: " << refusal << '\n';
    std::cout.flush();
  }

  AlltoallBenchmark benchmark(options, ranks, layout, order, copy_rates);
  // The files are rewritten after every plan's rows (one plan at P = 2,048 or 4,096 takes
  // minutes in simulation), so a stopped run keeps the rows it finished; the console's table
  // comes last.
  report::Reporters files = report::Reporters::files_only(is_printing_rank(), options.files);
  files.report_context(header);
  for (const std::size_t block_bytes : sizes) {
    if (options.plan_only) {
      benchmark.plan_size(block_bytes, runnable,
                          [&](const std::vector<Row>& rows) { files.report_runs(rows); });
    } else {
      benchmark.run_size(block_bytes, runnable,
                         [&](const std::vector<Row>& rows) { files.report_runs(rows); });
    }
  }

  const auto& rows = benchmark.rows();
  const bool any_failed =
      std::any_of(rows.begin(), rows.end(), [](const Row& row) { return row.check == "FAIL"; });
  reporters.report_runs(rows);
  return any_failed ? 1 : 0;
}

}  // namespace

Runner add_alltoall(CLI::App& app) {
  auto* command = app.add_subcommand(
      "alltoall", "Time exchanges side by side at several block sizes (like osu_alltoall)");
  auto options = std::make_shared<AlltoallOptions>();
  options->exchange_option =
      command
          ->add_option("-x,--exchange", options->exchanges,
                       "Exchange specs, comma-separated or repeated, or 'all' (see 'a2afft list')")
          ->capture_default_str();
  command
      ->add_option("--sizes", options->sizes,
                   "Bytes per block: a list 1,3,4K and/or ranges 16:64K that double")
      ->capture_default_str();
  command->add_option("--iters", options->iterations, "Timed runs per exchange and size")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  command->add_option("--warmup", options->warmup, "Untimed runs before timing")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  command->add_flag("--validate", options->validate,
                    "Check every byte against MPI_Alltoall; FAIL rows make the exit non-zero");
  command->add_flag(
      "--fold-memory", options->fold_memory,
      "Simulated build only (SimGrid SMPI): take the send and receive buffers and every plan's "
      "scratch from SMPI_SHARED_MALLOC, so that all ranks share that memory and thousands of "
      "simulated ranks fit in one machine (mpml/nmpml/onmpml's shared windows too, but for the "
      "few bytes where ranks say where their buffers lie). Timing only: contents are meaningless, "
      "so --validate is refused; every report says so (docs/simulation.md)");
  command->add_flag("--plan-time", options->plan_time,
                    "Also report how long each plan took to build (max over ranks) and the heap "
                    "it holds per rank (malloc's bytes in use after it was built, less before)");
  command->add_flag(
      "--plan-only", options->plan_only,
      "Build every plan, one at a time, and measure it as --plan-time does, but run no exchange: "
      "rows have a plan time and heap and no times, and every report says plan only. For the "
      "planning cost at scale (in simulation a run at P = 4,096 posts P^2 messages). Options "
      "about runs (--validate, --iters, --warmup, --phases, --roofline, --buffers, --order, "
      "--stats, --format) are refused beside it");
  command->add_flag(
      "--radix-sweep", options->radix_sweep,
      "Also run tra at every radix from 2 to P (with mpi unless --exchange is given)");
  command->add_flag("--phases", options->phases,
                    "Also show each exchange's phases (gather, inter, intra, scatter, repack, ...) "
                    "as columns: median over runs of the max over ranks");
  command->add_flag(
      "--roofline", options->roofline,
      "Measure memcpy's bandwidth at each size first (P x block per rank, all ranks of a node "
      "copying at once; GB/s of bytes read + written), then give each row its off-rank GB/s per "
      "rank ((P-1) x block / median) and its copy bound: all P blocks, our own too, copied once "
      "at that rate, which no exchange inside a node beats");
  command
      ->add_option("--buffers", options->buffers,
                   "Where send and receive buffers live: 'exchange' = each plan's allocate() "
                   "(node shared memory for mpml/nmpml/onmpml, so they copy nothing extra), "
                   "'heap' = ordinary memory, as a plain MPI_Alltoall caller has it")
      ->check(CLI::IsMember({"exchange", "heap"}))
      ->capture_default_str();
  command
      ->add_option("--order", options->order,
                   "interleaved: run i of every exchange before run i+1 (at each size), so the "
                   "machine's slow spells hit every row alike; sequential: one exchange at a "
                   "time, least memory; auto: interleaved when all plans fit in half the memory")
      ->capture_default_str();
  command
      ->add_option("--stats", options->stats,
                   "a2afft: per run the max over ranks, then median/min/max over runs; osu: also "
                   "osu_alltoall -f's figures, from osu_alltoall's own loop on each plan after "
                   "its runs (--warmup, then --iters back to back): each rank's mean, then their "
                   "average, min and max over ranks (columns osu avg/min/max)")
      ->check(CLI::IsMember({"a2afft", "osu"}))
      ->capture_default_str();
  command
      ->add_option("--format", options->format,
                   "The console's layout: table = a2afft's table; osu = osu_alltoall -f's, one "
                   "table per exchange, so scripts written for OSU's output read it (implies "
                   "--stats osu; --json and --csv files are unchanged)")
      ->check(CLI::IsMember({"table", "osu"}))
      ->capture_default_str();
  command->add_option("--json", options->files.json_path, "Also write the results as JSON to FILE");
  command->add_option("--csv", options->files.csv_path, "Also write the results as CSV to FILE");
  options->layout.add_to(*command);
  for (const char* name : {"--validate", "--iters", "--warmup", "--phases", "--roofline",
                           "--buffers", "--order", "--stats", "--format"})
    options->run_options.push_back(command->get_option(name));
  return [options] { return run_alltoall(*options); };
}

}  // namespace a2afft::commands
