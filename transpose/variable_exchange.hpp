#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "exchange.hpp"

namespace a2afft::detail {

/// Where the bytes for (or from) each peer sit in one buffer: peer j's `bytes[j]` bytes start at
/// byte `offsets[j]`. Sizes are size_t, so a buffer and any one peer's part may pass 2^31
/// bytes. A peer with 0 bytes is no partner: no message goes to or comes from it.
struct PeerBytes {
  std::vector<std::size_t> bytes;
  std::vector<std::size_t> offsets;

  /// The bytes a buffer needs: the largest offset + bytes over the non-empty peers (0 if none).
  std::size_t extent() const;
  /// The sum of `bytes`.
  std::size_t total() const;
  /// `bytes` per peer, packed in rank order (offsets 0, b0, b0 + b1, ...).
  static PeerBytes packed(std::vector<std::size_t> bytes);
};

/// What a variable-size exchange plan is built for: the communicator and node layout of
/// `topology`, and this rank's counts. `send.bytes[j]` on rank i must equal `recv.bytes[i]`
/// on rank j (checked collectively when the plan is made). Fixed for the plan's life: a reshape
/// between two decompositions knows them at plan time and runs the same plan many times. As
/// with ExchangeProblem, `topology` must outlive the plans made on it.
struct VariableProblem {
  const Topology& topology;
  PeerBytes send;
  PeerBytes recv;
};

/// A plan for MPI_Alltoallv on bytes, built collectively for one communicator and one set of
/// counts. Construction does the expensive work (the set of real partners, graph
/// communicators, node aggregation layouts, derived datatypes, scratch); run() only moves data.
/// Make plans with make_variable_exchange() in registry.hpp.
class VariableExchangePlan : public DescribedPlan {
 public:
  VariableExchangePlan(const VariableExchangePlan&) = delete;
  VariableExchangePlan& operator=(const VariableExchangePlan&) = delete;

  /// MPI_Alltoallv semantics: the `send.bytes[j]` bytes at `send + send.offsets[j]` go to rank
  /// j; afterwards `recv + recv.offsets[j]` holds the `recv.bytes[j]` bytes rank j sent here.
  /// `send` is never written, nothing outside the receive segments of `recv` is written, and
  /// the two buffers must not overlap. Collective over the plan's communicator, blocking.
  virtual void run(const std::byte* send, std::byte* recv) = 0;

  /// Phase timings (`copy`, `intra`, `inter`, ...) accumulate into `timer` from now on;
  /// nullptr detaches. The timer must outlive the runs that write to it.
  virtual void attach_timer(PhaseTimer* timer) { timer_ = timer; }

 protected:
  VariableExchangePlan() = default;
  /// Times phase `name` and records it (and `round`, from 1) for error messages.
  PhaseScope phase(std::string_view name, long round = -1) const {
    return PhaseScope(this, timer_, name, round);
  }

 private:
  PhaseTimer* timer_ = nullptr;
};

/// Throws UsageError on every rank unless the problem is consistent: P counts and offsets on
/// each side, no two receive segments overlapping, and what each rank sends each peer equal to
/// what that peer expects from it (the lowest offending rank's message, naming ranks and
/// bytes). Collective over the problem's communicator.
void check_variable_problem(const VariableProblem& problem);

}  // namespace a2afft::detail
