// Uniform backends serving variable-size problems: when a reshape's counts happen to be uniform
// (every rank sends every peer b bytes, in rank order), its buffers are exactly those of a
// uniform all-to-all of b-byte blocks, and every uniform backend (tra, node-aware, onmpml, ...)
// can run it unchanged. Otherwise they refuse, saying which rank's counts differ, and the
// variable backends (mpi, neighbor, sparse, node-aggregate) serve.
//
// Source: a2afft's own contract (docs/design.md §2).
// Steps: at construction, check uniformity on every rank and agree (MPI_Allreduce of the
//   smallest and largest block, then the lowest refusing rank's reason); build the uniform
//   plan for b-byte blocks. run() is the uniform plan's run().
// Cost: the uniform backend's.
// Parameters: the uniform backend's.

#include "algorithms/variable_uniform.hpp"

#include <climits>
#include <cstdint>

#include "mpi/comm.hpp"
#include "topology/topology.hpp"

namespace a2afft::detail::algorithms {
namespace {

// Why this rank's counts are not one block size in rank order, or "".
std::string local_refusal(const VariableProblem& problem, std::size_t block_bytes) {
  using Side = std::pair<const PeerBytes*, const char*>;
  for (const auto& [side, what] : {Side{&problem.send, "sends"}, Side{&problem.recv, "receives"}}) {
    for (std::size_t j = 0; j < side->bytes.size(); ++j) {
      if (side->bytes[j] != block_bytes) {
        return std::string(what) + " " + std::to_string(side->bytes[j]) + " bytes with rank " +
               std::to_string(j) + " but " + std::to_string(block_bytes) + " with rank 0";
      }
      if (side->offsets[j] != j * block_bytes) {
        return std::string(what) + " rank " + std::to_string(j) + "'s block at offset " +
               std::to_string(side->offsets[j]) + ", not " + std::to_string(j * block_bytes) +
               " (blocks in rank order)";
      }
    }
  }
  return "";
}

class UniformServing final : public VariableExchangePlan {
 public:
  UniformServing(const Spec& spec, const VariableProblem& problem)
      : uniform_(make_exchange(spec, ExchangeProblem{problem.topology, problem.send.bytes[0]})) {}

  std::string describe() const override { return uniform_->describe(); }
  void run(const std::byte* send, std::byte* recv) override { uniform_->run(send, recv); }
  void attach_timer(PhaseTimer* timer) override { uniform_->attach_timer(timer); }

 private:
  std::unique_ptr<ExchangePlan> uniform_;
};

}  // namespace

std::string uniform_refusal(const VariableProblem& problem) {
  const MPI_Comm comm = problem.topology.comm();
  const std::size_t block_bytes = problem.send.bytes.empty() ? 0 : problem.send.bytes[0];
  const std::string mine = local_refusal(problem, block_bytes);
  if (const mpi::RankMessage why = mpi::agreed_message(mine, comm); !why.empty()) {
    return "a uniform backend moves equal blocks in rank order, and rank " +
           std::to_string(why.rank) + " " + why.text +
           "; the variable-size backends (mpi, neighbor, sparse, node-aggregate) serve this";
  }
  std::uint64_t range[2] = {block_bytes, ~std::uint64_t{block_bytes}};  // min, and max as ~min
  mpi::check(MPI_Allreduce(MPI_IN_PLACE, range, 2, MPI_UINT64_T, MPI_MIN, comm),
             "MPI_Allreduce(block range)");
  const std::uint64_t smallest = range[0], largest = ~range[1];
  if (smallest != largest) {
    return "a uniform backend moves one block size on every rank, and blocks here range from " +
           std::to_string(smallest) + " to " + std::to_string(largest) + " bytes";
  }
  if (smallest == 0) {
    return "every count is 0, and a uniform backend moves blocks of at least 1 byte";
  }
  return "";
}

std::unique_ptr<VariableExchangePlan> make_uniform_serving(const Spec& spec,
                                                           const VariableProblem& problem) {
  return std::make_unique<UniformServing>(spec, problem);
}

}  // namespace a2afft::detail::algorithms
