#pragma once

// How code outside the backend table builds exchange plans: the documented internal interface
// that the drop-in (preload/), the FFT engines (fft/) and the public face (src/, which the
// command and the Python package reach plans through) use.
// A caller parses a spec (spec.hpp), checks it before any communicator exists (check_spec,
// check_variable_spec), builds the Topology of its communicator once, asks why a spec would be
// refused on it (exchange_refusal, agreed_refusal, variable_exchange_refusal) and makes the plan
// (make_exchange, make_variable_exchange), which it then only runs (exchange.hpp,
// variable_exchange.hpp). The rows behind these calls, and the table's own queries (`a2afft
// list`, the model, scratch bounds), are registry.hpp's; callers that only build plans include
// this header, so a change to the rows' layout does not reach them.
//
// topology/topology.hpp is part of this interface: every plan is built on a Topology that the
// caller constructs itself (collectively, once per communicator, from its LayoutRequest) and
// keeps for as long as its plans live; ExchangeProblem and VariableProblem hold it by reference.

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "exchange.hpp"
#include "spec.hpp"
#include "topology/layout.hpp"
#include "topology/topology.hpp"
#include "variable_exchange.hpp"

namespace a2afft::detail {

// ---- Uniform exchanges (MPI_Alltoall semantics; exchange.hpp) ----

/// Throws UsageError unless the spec names a backend and only keys that backend declares.
void check_spec(const Spec& spec);

/// Validates `spec` against `layout` (pure, no plan built): throws UsageError for an unknown
/// name or key or a bad value; returns why the layout cannot run it, or "" when it can.
std::string exchange_refusal(const Spec& spec, const RankLayout& layout);
/// The same on the problem's topology.
std::string exchange_refusal(const Spec& spec, const ExchangeProblem& problem);

/// exchange_refusal, agreed over `across` (a communicator holding every rank that builds a plan
/// on some sub-communicator): every rank gets the refusal of the lowest refusing rank, or "".
/// Plans on different sub-communicators (the rows of a process grid) can otherwise refuse on
/// some ranks only, and the others would wait forever in the next collective. A bad value on
/// some ranks is likewise a UsageError (the lowest such rank's) on every rank.
std::string agreed_refusal(const Spec& spec, const ExchangeProblem& problem, MPI_Comm across);

/// Builds a plan; collective over the topology's communicator. Throws UsageError for an
/// unknown name or key, a bad value, or a layout the backend refuses (naming the reason).
std::unique_ptr<ExchangePlan> make_exchange(const Spec& spec, const ExchangeProblem& problem);
std::unique_ptr<ExchangePlan> make_exchange(std::string_view spec, const Topology& topology,
                                            std::size_t block_bytes);

// ---- Variable-size exchanges (MPI_Alltoallv semantics; variable_exchange.hpp) ----

/// Checks `spec` as a variable-size exchange before any layout is known: a variable row's name
/// with only its keys, or any valid uniform spec (which serves counts that happen to be uniform).
/// Throws UsageError naming what is valid. Values are checked when a plan is made.
void check_variable_spec(const Spec& spec);

/// Why `spec` cannot run `problem`, or "": unknown names and keys and bad values throw
/// UsageError (naming the variable and the uniform backends); a uniform backend refuses unless
/// the counts are uniform (every peer the same bytes on every rank, in rank order).
/// Collective over the problem's communicator: every rank gets the same answer.
std::string variable_exchange_refusal(const Spec& spec, const VariableProblem& problem);

/// Builds a variable plan; collective. Checks the problem (check_variable_problem) and throws
/// UsageError for an unknown name or key, a bad value, or a refusal (naming the reason).
std::unique_ptr<VariableExchangePlan> make_variable_exchange(const Spec& spec,
                                                             const VariableProblem& problem);
std::unique_ptr<VariableExchangePlan> make_variable_exchange(std::string_view spec,
                                                             const VariableProblem& problem);

}  // namespace a2afft::detail
