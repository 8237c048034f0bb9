#include "mpi/error_scope.hpp"

namespace a2afft::detail::mpi {
namespace {
// The scopes of this thread, innermost first (each points to the one outside it).
thread_local const ErrorScope* innermost_scope = nullptr;
}  // namespace

ErrorScope::ErrorScope(const DescribedPlan* plan, std::string_view phase, long round)
    : plan_(plan), phase_(phase), round_(round), outer_(innermost_scope) {
  innermost_scope = this;
}

ErrorScope::~ErrorScope() {
  innermost_scope = outer_;
}

std::string ErrorScope::describe_current() {
  std::string text;
  const DescribedPlan* described = nullptr;
  for (const ErrorScope* scope = innermost_scope; scope != nullptr; scope = scope->outer_) {
    if (scope->plan_ == described) continue;  // an outer phase of the same plan
    text += described == nullptr ? " in " : " (inside ";
    text += scope->plan_->describe() + ", phase '" + std::string(scope->phase_) + "'";
    if (scope->round_ >= 0) text += ", round " + std::to_string(scope->round_);
    if (described != nullptr) text += ")";
    described = scope->plan_;
  }
  return text;
}

}  // namespace a2afft::detail::mpi
