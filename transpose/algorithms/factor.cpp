// factor: the 1-factor all-to-all, one bidirectional exchange per round.
//
// Source: seed hierarchical-factor-alltoall §2 (Sanders & Träff), Lemma 1 and Figure 1.
// Steps: the complete graph with self-loops splits into P 1-factors; in round i rank u pairs
//   with v = (i - u) mod P and the two swap blocks with one MPI_Sendrecv (a self-loop is a
//   local copy). For even P the self-loops are concentrated into one local round, so P-1
//   rounds communicate. The schedule lives in schedule/factor.
// Cost: (P-1)(alpha + b*beta) with every round a perfect matching (single-ported optimal).
// Parameters: none.

#include "schedule/factor.hpp"
#include "algorithms/algorithms.hpp"
#include "algorithms/block_transfer.hpp"
#include "topology/topology.hpp"

namespace a2afft::algorithms {
namespace {

class FactorExchange final : public Exchange {
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
    for (const int partner : partners_) {
      if (partner == transfer_.rank()) {
        if (!own_block) continue;
        const auto timed = phase("copy");
        transfer_.copy_own(send, recv);
      } else {
        const auto timed = phase("p2p");
        transfer_.sendrecv(send, partner, recv, partner);
      }
    }
  }

  BlockTransfer transfer_;
  std::vector<int> partners_;
};

constexpr std::string_view kExamples[] = {"factor"};

}  // namespace

const ExchangeInfo kFactorExchange = {
    .name = "factor",
    .summary = "1-factorization with self-loops: one pairwise swap per round, P rounds",
    .source = "seed hierarchical-factor §2, Lemma 1",
    .layouts = "any",
    .params = {},
    .examples = kExamples,
    .refusal = nullptr,
    .make = make_plan<FactorExchange>,
};

}  // namespace a2afft::algorithms
