// auto (variable size): time the variable backends, and where the counts happen to be uniform
// the uniform ones too, on this problem's counts, and run the fastest.
//
// Source: as the uniform auto (algorithms/auto.cpp): FFTW's planner [fftw-2005].
// Steps: the candidates are every variable row's auto_candidates (mpi, neighbor, sparse;
//   node-aggregate on more than one node) and, when uniform_refusal is "", every uniform row's
//   auto_candidates for that block size; those the layout refuses are left out. Each is built
//   on this problem with buffers of its extents and timed by fastest_candidate (the uniform
//   auto's turns, medians and budget); rank 0's choice is broadcast, so every rank builds the
//   same plan.
// Cost: plan construction about budget_ms plus one warm-up run per candidate; run() is the
//   chosen plan's.
// Parameters: budget_ms (default 300). No wisdom file yet: a reshape's counts differ per rank,
//   so a key would need a digest of all of them.

#include <algorithm>
#include <climits>

#include "algorithms/algorithms.hpp"
#include "algorithms/fastest.hpp"
#include "algorithms/variable_plan.hpp"
#include "algorithms/variable_uniform.hpp"
#include "mpi/comm.hpp"

namespace a2afft::detail::algorithms {
namespace {

std::vector<Spec> variable_candidates(const VariableProblem& problem) {
  const RankLayout& layout = problem.topology.layout();
  std::vector<Spec> candidates;
  const auto add = [&](const Spec& spec) {
    if (std::find(candidates.begin(), candidates.end(), spec) == candidates.end()) {
      candidates.push_back(spec);
    }
  };
  for (const VariableExchangeInfo* info : registered_variable_exchanges()) {
    if (info->auto_candidates == nullptr) continue;
    for (const Spec& spec : info->auto_candidates(layout)) {
      if (info->validate == nullptr || info->validate(layout, Params(spec)).empty()) add(spec);
    }
  }
  if (!uniform_refusal(problem).empty()) return candidates;
  for (const ExchangeInfo* info : registered_exchanges()) {
    if (info->auto_candidates == nullptr) continue;
    for (const Spec& spec : info->auto_candidates(layout, problem.send.bytes[0])) {
      // A uniform spec named like a variable row (mpi:alg=NAME) would be built as that row,
      // which takes none of its parameters: the variable row stands for it.
      if (find_variable_exchange(spec.name) != nullptr) continue;
      if (exchange_refusal(spec, layout).empty()) add(spec);
    }
  }
  return candidates;
}

class VariableAutoExchange final : public VariableExchangePlan {
 public:
  VariableAutoExchange(const VariableProblem& problem, double budget_seconds) {
    const std::vector<Spec> candidates = variable_candidates(problem);
    const std::size_t send_bytes = std::max<std::size_t>(problem.send.extent(), 1);
    const std::size_t recv_bytes = std::max<std::size_t>(problem.recv.extent(), 1);
    const auto make = [&](std::size_t k) -> std::function<void()> {
      struct Trial {
        std::unique_ptr<VariableExchangePlan> plan;
        ExchangeBuffer send, recv;
      };
      auto trial = std::make_shared<Trial>();
      trial->plan = make_variable_exchange(candidates[k], problem);
      trial->send = allocate_aligned(send_bytes);
      trial->recv = allocate_aligned(recv_bytes);
      std::fill(bytes_of(trial->send).begin(), bytes_of(trial->send).end(), std::byte{1});
      return [trial] { trial->plan->run(trial->send.data(), trial->recv.data()); };
    };
    const MPI_Comm comm = problem.topology.comm();
    const std::size_t best =
        fastest_candidate(candidates.size(), comm, budget_seconds, send_bytes + recv_bytes, make);
    const std::string choice = mpi::broadcast(candidates[best].to_string(), 0, comm);
    chosen_ = make_variable_exchange(choice, problem);
  }

  std::string describe() const override { return "auto→" + chosen_->describe(); }
  void run(const std::byte* send, std::byte* recv) override { chosen_->run(send, recv); }
  void attach_timer(PhaseTimer* timer) override { chosen_->attach_timer(timer); }

 private:
  std::unique_ptr<VariableExchangePlan> chosen_;
};

Resolved<double> auto_budget(const RankLayout&, const Params& params) {
  return {static_cast<double>(params.integer("budget_ms", 300, 1, 3600000)) * 1e-3, ""};
}

std::unique_ptr<VariableExchangePlan> make_auto(const VariableProblem& problem,
                                                const Params& params) {
  return std::make_unique<VariableAutoExchange>(
      problem, auto_budget(problem.topology.layout(), params).settings);
}

constexpr ParamInfo kParams[] = {
    {"budget_ms", "300", "the timed runs' total budget in milliseconds"}};
constexpr std::string_view kExamples[] = {"auto:budget_ms=1"};

}  // namespace

extern const VariableExchangeInfo kVariableAutoExchange = {
    .name = "auto",
    .summary =
        "time the variable backends (and, for uniform counts, the uniform ones) here and "
        "run the fastest",
    .source = "FFTW's planner [fftw-2005], as the uniform auto",
    .layouts = "any (candidates that a layout refuses are left out)",
    .params = kParams,
    .examples = kExamples,
    .validate = refusal_of<auto_budget>,
    .make = make_auto,
};

}  // namespace a2afft::detail::algorithms
