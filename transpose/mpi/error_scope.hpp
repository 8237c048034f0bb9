#pragma once

#include <string>
#include <string_view>

// Where MPI calls are made from, for the errors check() throws: the MPI wrapper layer's own
// record, which the exchange layer's phases (PhaseScope, exchange.hpp) fill in. It lives here, not
// in exchange.hpp, so that this layer needs nothing from the layer above it (issue 44).
namespace a2afft::detail {

/// What every exchange plan, uniform (ExchangePlan) or variable (VariableExchangePlan), has in
/// common for reports and error messages: its resolved spec.
class DescribedPlan {
 public:
  virtual ~DescribedPlan() = default;
  /// The resolved spec with every parameter's actual value, e.g. `nonblocking(batch=7)`.
  virtual std::string describe() const = 0;
};

namespace mpi {

/// Records, while it lives, that this thread's MPI calls run in `plan`'s `phase` (and `round`,
/// from 1; -1 when the phase has no rounds). Scopes nest: a hierarchical plan's inner exchange
/// runs inside the outer plan's phase.
class ErrorScope {
 public:
  ErrorScope(const DescribedPlan* plan, std::string_view phase, long round);
  ~ErrorScope();
  ErrorScope(const ErrorScope&) = delete;
  ErrorScope& operator=(const ErrorScope&) = delete;

  /// The innermost scope's place, e.g. ` in tra(radix=2), phase 'p2p', round 3`; empty outside
  /// every scope. Calls describe(), so only for error messages.
  static std::string describe_current();

 private:
  const DescribedPlan* plan_;
  std::string_view phase_;
  long round_;
  const ErrorScope* outer_;
};

}  // namespace mpi
}  // namespace a2afft::detail
