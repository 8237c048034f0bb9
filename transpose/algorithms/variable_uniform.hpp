#pragma once

#include <memory>
#include <string>

#include "registry.hpp"

// The uniform backends serving a variable-size problem whose counts happen to be uniform.
namespace a2afft::detail::algorithms {

/// Why no uniform backend can serve `problem`, or "" when every rank sends every peer (itself
/// included) the same number of bytes, b >= 1, at offsets 0, b, 2b, ... on both sides: then
/// the buffers are exactly a uniform exchange's. Collective; every rank gets the lowest
/// refusing rank's reason.
std::string uniform_refusal(const VariableProblem& problem);

/// The uniform backend `spec` on the problem's blocks; uniform_refusal must be "" and the
/// spec valid on the layout. Collective.
std::unique_ptr<VariableExchangePlan> make_uniform_serving(const Spec& spec,
                                                           const VariableProblem& problem);

}  // namespace a2afft::detail::algorithms
