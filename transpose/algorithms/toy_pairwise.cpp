// toy-pairwise: pairwise's schedule under another name, to show what a new backend takes
// (docs/new-backend.md); deleted after the walk-through.
//
// Source: seed node-aware-multileader-alltoall §3, Algorithm 1 (as pairwise).
// Steps: copy our own block; in step s = 1..P-1 MPI_Sendrecv to rank+s while receiving from
//   rank-s (schedule/direct.hpp).
// Cost: (P-1)(alpha + b*beta), the direct schedule's (schedule/cost_model).
// Parameters: none.

#include "algorithms/algorithms.hpp"
#include "algorithms/block_transfer.hpp"
#include "schedule/cost_model.hpp"
#include "schedule/direct.hpp"

namespace a2afft::detail::algorithms {
namespace {

class ToyPairwiseExchange final : public ExchangePlan {
 public:
  explicit ToyPairwiseExchange(const ExchangeProblem& problem)
      : transfer_(problem.topology.comm(), problem.block_bytes) {}

  std::string describe() const override { return "toy-pairwise"; }

  void run(const std::byte* send, std::byte* recv) override {
    transfer_.copy_own(send, recv);
    const int rank = transfer_.rank();
    const int ranks = transfer_.size();
    for (int step = 1; step < ranks; ++step) {
      const auto timed = phase("p2p", step);
      transfer_.sendrecv(send, schedule::shifted_destination(step, rank, ranks), recv,
                         schedule::shifted_source(step, rank, ranks));
    }
  }

 private:
  BlockTransfer transfer_;
};

constexpr std::string_view kToyPairwise = "toy-pairwise";
constexpr std::string_view kToyPairwiseExamples[] = {"toy-pairwise"};

}  // namespace

extern const ExchangeInfo kToyPairwiseExchange = {
    .name = kToyPairwise,
    .summary = "pairwise's P-1 MPI_Sendrecv steps, as the new-backend walk-through's example",
    .source = "seed node-aware-multileader §3, Algorithm 1",
    .layouts = "any",
    .params = {},
    .examples = kToyPairwiseExamples,
    .validate = nullptr,
    .make = make_plan<ToyPairwiseExchange>,
    .scratch = {},
    .cost = direct_cost<kToyPairwise>,
};

}  // namespace a2afft::detail::algorithms
