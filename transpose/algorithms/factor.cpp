// factor and factor-hier: the 1-factor all-to-alls of Sanders & Träff [hier-factor-2002].
//
// Source: [hier-factor-2002] §2 (Lemma 1, Fig. 1) and §3 (Fig. 2, Theorem 1).
// factor: the complete graph with self-loops splits into P 1-factors; in round i rank u pairs
//   with v = (i - u) mod P and the two swap blocks with one MPI_Sendrecv (a self-loop is a
//   local copy). For even P the self-loops are concentrated into one local round, so P-1
//   rounds communicate. Cost: (P-1)(alpha + b beta), every round a perfect matching.
// factor-hier (ClusteredAllToAll): nodes of any sizes, single-ported. Phases over the nodes
//   still active, rounds over their 1-factors with self-loops, and in each node pair one rank
//   per node talks per step (two-way between nodes, one-way inside a node). Cost: Theorem 1,
//   max_U size(U) * P steps of alpha + b beta, of which size(U)(P - size(U)) cross node U's
//   port. Both schedules live in schedule/factor. As it runs, with no step clock, each node
//   round is a wavefront of 2 max size(U) - 1 message times: schedule::model_factor_hier.
// Parameters: none.

#include "schedule/factor.hpp"
#include "algorithms/algorithms.hpp"
#include "algorithms/block_transfer.hpp"
#include "topology/topology.hpp"

namespace a2afft::detail::algorithms {
namespace {

class FactorExchange final : public ExchangePlan {
 public:
  explicit FactorExchange(const ExchangeProblem& problem)
      : transfer_(problem.topology.comm(), problem.block_bytes),
        partners_(schedule::factor_partners(transfer_.rank(), transfer_.size())) {}

  std::string describe() const override { return "factor"; }
  bool can_leave_own_block() const override { return true; }

  void run(const std::byte* send, std::byte* recv) override { exchange(send, recv, true); }
  void run_others(const std::byte* send, std::byte* recv) override { exchange(send, recv, false); }

 private:
  void exchange(const std::byte* send, std::byte* recv, bool own_block) {
    for (std::size_t step = 0; step < partners_.size(); ++step) {
      const int partner = partners_[step];
      if (partner == transfer_.rank()) {
        if (!own_block) continue;
        const auto timed = phase("copy");
        transfer_.copy_own(send, recv);
      } else {
        const auto timed = phase("p2p", static_cast<long>(step) + 1);
        transfer_.sendrecv(send, partner, recv, partner);
      }
    }
  }

  BlockTransfer transfer_;
  std::vector<int> partners_;
};

// ClusteredAllToAll: this rank's steps, in order, with the partner's rank.
class FactorHierExchange final : public ExchangePlan {
 public:
  explicit FactorHierExchange(const ExchangeProblem& problem)
      : transfer_(problem.topology.comm(), problem.block_bytes) {
    const Topology& topology = problem.topology;
    std::vector<std::vector<int>> members(static_cast<std::size_t>(topology.node_count()));
    for (int rank = 0; rank < topology.size(); ++rank)
      members[static_cast<std::size_t>(topology.node_of(rank))].push_back(rank);
    for (const schedule::ClusteredOp& op :
         schedule::clustered_ops(topology.node_sizes(), topology.node(), topology.local_rank())) {
      const int peer =
          members[static_cast<std::size_t>(op.peer_node)][static_cast<std::size_t>(op.peer_local)];
      steps_.push_back({op.kind, peer});
    }
  }

  std::string describe() const override { return "factor-hier"; }

  void run(const std::byte* send, std::byte* recv) override {
    for (std::size_t index = 0; index < steps_.size(); ++index) {
      const Step& step = steps_[index];
      const long round = static_cast<long>(index) + 1;
      switch (step.kind) {
        case schedule::ClusteredOp::exchange: {
          const auto timed = phase("inter", round);
          transfer_.sendrecv(send, step.peer, recv, step.peer);
          break;
        }
        case schedule::ClusteredOp::send: {
          const auto timed = phase("intra", round);
          transfer_.send(send, step.peer);
          break;
        }
        case schedule::ClusteredOp::receive: {
          const auto timed = phase("intra", round);
          transfer_.recv(recv, step.peer);
          break;
        }
        case schedule::ClusteredOp::copy: {
          const auto timed = phase("copy");
          transfer_.copy_own(send, recv);
          break;
        }
      }
    }
  }

 private:
  struct Step {
    schedule::ClusteredOp::Kind kind;
    int peer;
  };

  BlockTransfer transfer_;
  std::vector<Step> steps_;
};

schedule::ModelResult factor_hier_cost(const schedule::ModelInputs& inputs, const Params&) {
  return schedule::model_factor_hier(inputs);
}

constexpr std::string_view kFactor = "factor";
constexpr std::string_view kExamples[] = {"factor"};
constexpr std::string_view kHierExamples[] = {"factor-hier"};

}  // namespace

extern const ExchangeInfo kFactorExchange = {
    .name = kFactor,
    .summary = "1-factorization with self-loops: one pairwise swap per round, P rounds",
    .source = "[hier-factor-2002] §2, Lemma 1",
    .layouts = "any",
    .params = {},
    .examples = kExamples,
    .validate = nullptr,
    .make = make_plan<FactorExchange>,
    .scratch = {},
    .auto_candidates = defaults_only<kFactor>,
    .cost = direct_cost<kFactor>,
};

extern const ExchangeInfo kFactorHierExchange = {
    .name = "factor-hier",
    .summary = "ClusteredAllToAll: factor over nodes of any sizes, one rank per node talks at once",
    .source = "[hier-factor-2002] §3, Fig. 2 and Theorem 1",
    .layouts = "any, uneven nodes included",
    .params = {},
    .examples = kHierExamples,
    .validate = nullptr,
    .make = make_plan<FactorHierExchange>,
    .scratch = {},
    .auto_candidates = nullptr,
    .cost = factor_hier_cost,
};

}  // namespace a2afft::detail::algorithms
