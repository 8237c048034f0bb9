// sparse (variable size): nonblocking point-to-point with the real partners only, a bounded
// number of messages in flight.
//
// Source: the direct exchange of [node-aware-2025] §2, Algorithm 2, restricted to the peers
// with bytes, as heFFTe's point-to-point reshapes do ([heffte-2020]).
// Steps: copy our own segment; steps s = 1..P-1 pair us with rank+s (send) and rank-s
//   (receive); `batch` consecutive steps form a round, and each round posts its receives, then
//   its sends, and waits for them all. Peers of 0 bytes get no message and rounds left empty
//   are skipped (schedule/variable.hpp: sparse_rounds), so a rank with k partners posts k
//   messages, never P-1. A message is posted in the round of the same number on both sides, so
//   waiting never depends on a later round.
// Cost: k (alpha) + (bytes sent) beta for k partners; batch bounds the requests in flight at
//   2 * batch (receives and sends).
// Parameters: batch = steps per round, >= 1 (default: all P-1 steps in one round).

#include <algorithm>
#include <climits>

#include "algorithms/algorithms.hpp"
#include "algorithms/variable_plan.hpp"
#include "mpi/comm.hpp"
#include "mpi/datatype.hpp"
#include "mpi/requests.hpp"
#include "schedule/variable.hpp"

namespace a2afft::detail::algorithms {
namespace {

// One message of a round: a peer, our buffer offset, and its bytes as an MPI (type, count).
struct Message {
  int peer;
  std::size_t offset;
  mpi::ContiguousBytes bytes;
};

struct Round {
  long number;  // from 1, for error messages
  std::vector<Message> receives, sends;
};

class VariableSparseExchange final : public VariableExchangePlan {
 public:
  VariableSparseExchange(const VariableProblem& problem, int batch)
      : own_(problem), comm_(mpi::Comm::duplicate(problem.topology.comm())), batch_(batch) {
    const int rank = problem.topology.rank();
    std::size_t most = 0;
    for (const schedule::SparseRound& planned :
         schedule::sparse_rounds(problem.send.bytes, problem.recv.bytes, rank, batch)) {
      Round& round = rounds_.emplace_back();
      round.number = planned.number + 1;
      for (const int peer : planned.recv_from) {
        const auto j = static_cast<std::size_t>(peer);
        round.receives.push_back(
            {peer, problem.recv.offsets[j], mpi::ContiguousBytes(problem.recv.bytes[j])});
      }
      for (const int peer : planned.send_to) {
        const auto j = static_cast<std::size_t>(peer);
        round.sends.push_back(
            {peer, problem.send.offsets[j], mpi::ContiguousBytes(problem.send.bytes[j])});
      }
      most = std::max(most, round.receives.size() + round.sends.size());
    }
    requests_ = mpi::RequestSet(most);
  }

  std::string describe() const override { return "sparse(batch=" + std::to_string(batch_) + ")"; }

  void run(const std::byte* send, std::byte* recv) override {
    {
      const auto timed = phase("copy");
      own_.copy(send, recv);
    }
    for (const Round& round : rounds_) {
      const auto timed = phase("p2p", round.number);
      for (const Message& message : round.receives) {
        mpi::check(MPI_Irecv(recv + message.offset, message.bytes.count(), message.bytes.type(),
                             message.peer, 0, comm_.get(), requests_.next()),
                   "MPI_Irecv", {.from = message.peer});
      }
      for (const Message& message : round.sends) {
        mpi::check(MPI_Isend(send + message.offset, message.bytes.count(), message.bytes.type(),
                             message.peer, 0, comm_.get(), requests_.next()),
                   "MPI_Isend", {.to = message.peer});
      }
      requests_.wait_all();
    }
  }

 private:
  OwnSegment own_;
  mpi::Comm comm_;
  int batch_;
  std::vector<Round> rounds_;  // only those with messages for us
  mpi::RequestSet requests_;
};

// Steps per round: batch bounds them, so any batch >= P-1 means all of them.
Resolved<int> sparse_batch(const RankLayout& layout, const Params& params) {
  const long steps = std::max(1, layout.size() - 1);
  const long batch = params.integer("batch", steps, 1, INT_MAX, {{"all", steps}});
  return {static_cast<int>(std::min(batch, steps)), ""};
}

std::unique_ptr<VariableExchangePlan> make_sparse(const VariableProblem& problem,
                                                  const Params& params) {
  return std::make_unique<VariableSparseExchange>(
      problem, sparse_batch(problem.topology.layout(), params).settings);
}

constexpr std::string_view kName = "sparse";
constexpr ParamInfo kParams[] = {
    {"batch", "all",
     "steps per round (>= 1; P-1 or more means all): at most 2 x batch messages in flight"},
};
constexpr std::string_view kExamples[] = {"sparse", "sparse:batch=1", "sparse:batch=2"};

}  // namespace

extern const VariableExchangeInfo kVariableSparseExchange = {
    .name = kName,
    .summary = "Irecv/Isend with the real partners only, batch steps in flight, then Waitall",
    .source = "[node-aware-2025] §2, Algorithm 2, on the partners with bytes",
    .layouts = "any",
    .params = kParams,
    .examples = kExamples,
    .validate = refusal_of<sparse_batch>,
    .make = make_sparse,
    .auto_candidates = variable_defaults_only<kName>,
};

}  // namespace a2afft::detail::algorithms
