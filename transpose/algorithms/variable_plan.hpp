#pragma once

#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "registry.hpp"
#include "topology/topology.hpp"

// What the variable-size exchanges' files share.
namespace a2afft::detail::algorithms {

/// `make` for a variable backend without parameters.
template <typename Plan>
std::unique_ptr<VariableExchangePlan> make_variable_plan(const VariableProblem& problem,
                                                         const Params&) {
  return std::make_unique<Plan>(problem);
}

/// `auto_candidates` for a variable backend that auto times with its defaults only.
template <const std::string_view& kName>
std::vector<Spec> variable_defaults_only(const RankLayout&) {
  return {Spec{std::string(kName), {}}};
}

/// Our own segment, moved by a local copy rather than a message to ourselves.
class OwnSegment {
 public:
  explicit OwnSegment(const VariableProblem& problem) {
    const auto rank = static_cast<std::size_t>(problem.topology.rank());
    from_ = problem.send.offsets[rank];
    to_ = problem.recv.offsets[rank];
    bytes_ = problem.send.bytes[rank];
  }
  void copy(const std::byte* send, std::byte* recv) const {
    if (bytes_ > 0) std::memcpy(recv + to_, send + from_, bytes_);
  }

 private:
  std::size_t from_ = 0, to_ = 0, bytes_ = 0;
};

}  // namespace a2afft::detail::algorithms
