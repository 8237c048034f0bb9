// auto: pick the fastest exchange for this communicator and block size, as FFTW plans by
// measuring.
//
// Source: the open problem of [tra-2024] §VII and [node-aware-2025] §5; FFTW's planner and
// wisdom [fftw-2005]. (docs/bibliography.md has the keys.)
// Steps (mode=measure, the default): build every candidate that the layout admits, as each
//   registry row names them (auto_candidates): mpi and each of the MPI library's own
//   algorithms it can force here (mpi:alg=NAME), pairwise, nonblocking, factor; tra at
//   radices 2, floor/ceil sqrt P, ceil sqrt P + 1, P and the alpha-beta model's best radix for
//   this block size; tra2 at r1 in {2, ceil sqrt Q, Q}, r2 in {2, N}; hierarchical,
//   multileader, node-aware and locality-aware with inner pairwise and nonblocking; onmpml
//   with 1, 2 and the NUMA-default leaders. Each runs on buffers from
//   its own allocate() (auto's allocate() hands out the chosen plan's): one warm-up run, then
//   rounds in which every candidate runs twice, the second time timed (the first brings its
//   buffers back into cache; a run's time is its max over ranks, so every rank sees the same
//   numbers), until both runs have spent `budget_ms` (3 to 200 rounds; timing/trials); where
//   the caller leaves its own block (ExchangeProblem::own_block_left, as the FFTs do) the
//   candidates that can leave it are timed with run_others(), as they will run; the
//   lowest median wins (ties: the earlier candidate), chosen on rank 0 and broadcast. Taking turns
//   puts a slow spell of the machine on every candidate alike; beyond 1 GiB of buffers in all
//   they run one after the other, each with an equal share of the budget. mode=estimate: no
//   runs; the cost model (schedule/cost_model.hpp: alpha-beta per message, the max-rate node
//   terms and the per-message overhead), its parameters measured once per process (ping-pong
//   inside a node and between nodes, a node's ranks injecting and copying at once; link_costs),
//   prices what every registry row with a cost offers (its cost_sweep:
//   pairwise, nonblocking, factor, tra at every radix, bruck, tra2 at every r1, r2) and the
//   cheapest that the layout admits wins.
// Cost: plan construction as above (about budget_ms, at least 3 rounds, plus one warm-up run
//   per candidate); run(), start() and finish() are the chosen plan's.
// Parameters: mode = measure | estimate; budget_ms (default 300). A2AFFT_WISDOM=path keeps the
//   decisions, keyed by mode, MPI library, layout, block bytes and own_block_left, and reuses them.
//   In a simulated build from simulator::kCrashRanks ranks on, estimate is the default
//   and measure is refused: measuring times candidates that put every message in flight at once
//   (tra at radix P, for one), and SimGrid SMPI 3.32's flow solver crashed on `auto` there.

#include <algorithm>
#include <map>
#include <memory>

#include "algorithms/algorithms.hpp"
#include "algorithms/fastest.hpp"
#include "error.hpp"
#include "mpi/comm.hpp"
#include "schedule/cost_model.hpp"
#include "schedule/direct.hpp"
#include "simulator/smpi_rules.hpp"
#include "timing/link_costs.hpp"
#include "topology/topology.hpp"
#include "wisdom.hpp"

namespace a2afft::detail::algorithms {
namespace {

// Every spec worth timing on this layout: each registry row's auto_candidates, in table order,
// without duplicates and without those the layout refuses.
std::vector<Spec> measure_candidates(const ExchangeProblem& problem) {
  const RankLayout& layout = problem.topology.layout();
  std::vector<Spec> candidates;
  for (const ExchangeInfo* info : registered_exchanges()) {
    if (info->auto_candidates == nullptr) continue;
    for (const Spec& spec : info->auto_candidates(layout, problem.block_bytes)) {
      if (std::find(candidates.begin(), candidates.end(), spec) != candidates.end()) continue;
      if (exchange_refusal(spec, layout).empty()) candidates.push_back(spec);
    }
  }
  return candidates;
}

// Link costs inside a node and between nodes, measured once per process and layout.
const MeasuredLinks& link_costs(const Topology& topology) {
  static std::map<std::string, MeasuredLinks> cache;
  const std::string key = topology.describe_layout();
  if (const auto found = cache.find(key); found != cache.end()) return found->second;
  return cache[key] = measure_links(topology);
}

// The lowest price the cost model gives any spec of any costed row (priced_specs, in
// table order; ties keep the earlier), among those the layout admits.
Spec estimate_choice(const ExchangeProblem& problem) {
  const Topology& topology = problem.topology;
  const MeasuredLinks& links = link_costs(topology);
  const long ranks = topology.size();
  const long per_node = topology.nodes_equal() ? topology.node_size(0) : 1;
  const schedule::ModelInputs inputs =
      schedule::measured_inputs(ranks, per_node, problem.block_bytes, links);
  const PricedSpec* best = nullptr;
  const std::vector<PricedSpec> priced = priced_specs(inputs);
  for (const PricedSpec& candidate : priced) {
    if (best != nullptr && candidate.result.seconds >= best->result.seconds) continue;
    if (exchange_refusal(candidate.spec, problem).empty()) best = &candidate;
  }
  return best != nullptr ? best->spec : Spec{"pairwise", {}};
}

// One candidate, built, with buffers from its own allocate().
struct Trial {
  std::unique_ptr<ExchangePlan> plan;
  ExchangeBuffer send, recv;
};

// The index of the fastest candidate (fastest_candidate: taking turns, medians, a budget).
std::size_t fastest(const std::vector<Spec>& candidates, const ExchangeProblem& problem,
                    double budget_seconds) {
  const std::size_t total = problem.block_bytes * static_cast<std::size_t>(problem.topology.size());
  const auto make = [&](std::size_t k) -> std::function<void()> {
    auto trial = std::make_shared<Trial>();
    trial->plan = make_exchange(candidates[k], problem);
    trial->send = trial->plan->allocate(total);
    trial->recv = trial->plan->allocate(total);
    std::fill(bytes_of(trial->send).begin(), bytes_of(trial->send).end(), std::byte{1});
    // As the caller will run it: without the own block where the caller places it itself.
    if (problem.own_block_left && trial->plan->can_leave_own_block()) {
      return [trial] { trial->plan->run_others(trial->send.data(), trial->recv.data()); };
    }
    return [trial] { trial->plan->run(trial->send.data(), trial->recv.data()); };
  };
  return fastest_candidate(candidates.size(), problem.topology.comm(), budget_seconds, 2 * total,
                           make);
}

// The wisdom key of an auto decision (transpose/wisdom.hpp keeps it).
std::string wisdom_key(const std::string& mode, const ExchangeProblem& problem) {
  return "auto:mode=" + mode + " | " + wisdom::mpi_library() + " | " +
         problem.topology.describe_layout() + " | " + std::to_string(problem.block_bytes) + " B" +
         (problem.own_block_left ? " | own block left" : "");
}

struct AutoSettings {
  std::string mode;
  double budget_seconds;
  bool estimate_in_simulation = false;  // estimate because measuring would crash the simulator
};

class AutoExchange final : public ExchangePlan {
 public:
  AutoExchange(const ExchangeProblem& problem, const AutoSettings& settings)
      : mode_(settings.mode), estimate_in_simulation_(settings.estimate_in_simulation) {
    const double budget_seconds = settings.budget_seconds;
    const MPI_Comm comm = problem.topology.comm();
    const std::string key = wisdom_key(mode_, problem);
    const std::string remembered = wisdom::recall(key, comm);
    // Rank 0's choice, so that every rank builds the same plan.
    const std::string choice =
        !remembered.empty()
            ? remembered
            : mpi::broadcast((mode_ == "estimate" ? estimate_choice(problem)
                                                  : measure(problem, budget_seconds))
                                 .to_string(),
                             0, comm);
    chosen_ = make_exchange(parse_spec(choice), problem);
    if (remembered.empty()) wisdom::remember(key, choice, comm);
  }

  std::string describe() const override {
    const std::string mode = estimate_in_simulation_ ? "auto(estimate, the default in simulation)"
                             : mode_ == "estimate"   ? "auto(estimate)"
                                                     : "auto";
    return mode + "→" + chosen_->describe();
  }
  void run(const std::byte* send, std::byte* recv) override { chosen_->run(send, recv); }
  bool can_leave_own_block() const override { return chosen_->can_leave_own_block(); }
  void run_others(const std::byte* send, std::byte* recv) override {
    chosen_->run_others(send, recv);
  }
  bool overlaps() const override { return chosen_->overlaps(); }
  ExchangeBuffer allocate(std::size_t bytes) override { return chosen_->allocate(bytes); }
  void attach_timer(PhaseTimer* timer) override { chosen_->attach_timer(timer); }

 protected:
  void start_exchange(const std::byte* send, std::byte* recv) override {
    chosen_->start(send, recv);
  }
  void finish_exchange() override { chosen_->finish(); }
  bool test_exchange() override { return chosen_->test(); }

 private:
  static Spec measure(const ExchangeProblem& problem, double budget_seconds) {
    const std::vector<Spec> candidates = measure_candidates(problem);
    return candidates[fastest(candidates, problem, budget_seconds)];
  }

  std::string mode_;
  bool estimate_in_simulation_;
  std::unique_ptr<ExchangePlan> chosen_;
};

// Nothing is timed here: validation reads the values and checks the wisdom path only.
Resolved<AutoSettings> auto_settings(const RankLayout& layout, const Params& params) {
  wisdom::check_path(std::getenv("A2AFFT_WISDOM"));
  const bool measuring_crashes = simulator::all_at_once_crashes(layout.size());
  const std::string mode(
      params.word("mode", measuring_crashes ? "estimate" : "measure", {"measure", "estimate"}));
  const long budget_ms = params.integer("budget_ms", 300, 1, 3600000);
  const AutoSettings settings{mode, static_cast<double>(budget_ms) * 1e-3,
                              measuring_crashes && params.spec().find("mode") == nullptr};
  if (!measuring_crashes || mode != "measure") return {settings, ""};
  return {settings,
          "mode=measure times candidates that put every message of a rank in flight "
          "at once (tra at radix P, the vendor's split phase), and SimGrid SMPI 3.32's "
          "flow solver crashed (SIGSEGV) on auto's measuring at 256 ranks; in "
          "simulation from " +
              std::to_string(simulator::kCrashRanks) +
              " ranks on give mode=estimate (the default there)"};
}

constexpr ParamInfo kParams[] = {
    {"mode", "measure",
     "measure: time the candidates now; estimate: the alpha-beta model with measured alpha, beta "
     "(simulated builds from 256 ranks: estimate, and measure is refused)"},
    {"budget_ms", "300", "measure: the timed runs' total budget in milliseconds"}};
constexpr std::string_view kExamples[] = {"auto", "auto:mode=estimate"};

}  // namespace

extern const ExchangeInfo kAutoExchange = {
    .name = "auto",
    .summary = "time the candidate backends here and now (or model them) and run the fastest",
    .source =
        "[tra-2024] §VII and [node-aware-2025] §5 (an open problem there); FFTW's planner "
        "[fftw-2005]",
    .layouts = "any (candidates that a layout refuses are left out)",
    .params = kParams,
    .examples = kExamples,
    .validate = refusal_of<auto_settings>,
    .make = make_settled<AutoExchange, auto_settings>,
    .scratch = {.rank_buffers = 10, .node_buffers = 5},  // the largest candidate and its buffers
    .split_phase = SplitPhase::chosen_plan,
};

}  // namespace a2afft::detail::algorithms
