#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "registry.hpp"
#include "topology/topology.hpp"

// What the algorithm files share to fill in their registry rows.
namespace a2afft::detail::algorithms {

/// `make` for a backend without parameters: its plan is built from the problem alone.
template <typename Plan>
std::unique_ptr<ExchangePlan> make_plan(const ExchangeProblem& problem, const Params&) {
  return std::make_unique<Plan>(problem);
}

/// `auto_candidates` for a backend that auto times with its defaults only.
template <const std::string_view& kName>
std::vector<Spec> defaults_only(const RankLayout&, std::size_t) {
  return {Spec{std::string(kName), {}}};
}

/// The cost of a direct schedule (pairwise, nonblocking, factor): P-1 rounds of one block each.
template <const std::string_view& kName>
schedule::ModelResult direct_cost(const schedule::ModelInputs& inputs, const Params&) {
  return schedule::model_direct(inputs, std::string(kName));
}

/// One spec's settings on one layout, or why the layout cannot run it. A backend's settings
/// function (`Resolved<S> settings(const RankLayout&, const Params&)`) reads and checks every
/// value first, throwing UsageError, so a bad value is an error on every layout.
template <typename Settings>
struct Resolved {
  Settings settings;
  std::string refusal;
};

/// `validate` from a settings function.
template <auto kSettings>
std::string refusal_of(const RankLayout& layout, const Params& params) {
  return kSettings(layout, params).refusal;
}

/// `make` from a settings function and a plan built from (problem, settings). make_exchange
/// has validated the spec, so the settings hold no refusal here.
template <typename Plan, auto kSettings>
std::unique_ptr<ExchangePlan> make_settled(const ExchangeProblem& problem, const Params& params) {
  return std::make_unique<Plan>(problem, kSettings(problem.topology.layout(), params).settings);
}

}  // namespace a2afft::detail::algorithms
