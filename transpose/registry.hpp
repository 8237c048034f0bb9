#pragma once

// The backend table: one row per backend (algorithms/backends.def lists them), what `a2afft
// list`, `auto`, the cost model and the node-aware family read. Building plans is
// make_exchange.hpp's interface (included here, since the rows' make() and validate() serve
// it); code that only builds plans includes that header, not this one.

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "exchange.hpp"
#include "make_exchange.hpp"
#include "params.hpp"
#include "schedule/cost_model.hpp"
#include "spec.hpp"
#include "topology/layout.hpp"
#include "variable_exchange.hpp"

namespace a2afft::detail {

/// One parameter a backend accepts, as `a2afft list` shows it.
struct ParamInfo {
  std::string_view key;
  std::string_view default_value;
  std::string_view meaning;
};

/// The most scratch memory a plan allocates per rank (buffers, staging, inner plans), for
/// estimates made before any plan exists: `rank_buffers` times one rank's P blocks, plus, on
/// the ranks that lead a node, `node_buffers` times the largest node's ranks x P blocks.
struct ScratchBound {
  double rank_buffers = 0;
  double node_buffers = 0;
};

/// One row of the backend table (algorithms/backends.def lists the rows): FFTW's solver idea
/// (applicable, make, print) as data, the cost model included.
/// Whether a backend's plans return from start() with messages in flight: no (all the work in
/// start()), yes, or as the plan that `auto` chose.
enum class SplitPhase { no, yes, chosen_plan };

struct ExchangeInfo {
  std::string_view name;
  std::string_view summary;  // one line
  std::string_view source;   // the paper and algorithm it implements
  std::string_view layouts;  // which node layouts it handles
  std::span<const ParamInfo> params;
  /// Specs worth running: shown by `a2afft list` and all run by the conformance test.
  std::span<const std::string_view> examples;
  /// The specs the running MPI library offers, read at run time (the vendor rows
  /// mpi:alg=NAME, one per algorithm MPI_T lists): `a2afft list` shows them, `--exchange all`
  /// and the conformance test run them beside the examples. Local MPI_T calls, legal before
  /// MPI_Init, the same on every rank. nullptr: none.
  std::vector<std::string> (*offered)() = nullptr;
  /// The pure check before any plan: throws UsageError for a bad parameter value (a spec
  /// error on every layout) and returns why `layout` cannot run the backend, or "" when it can.
  /// No MPI call (the vendor row's local MPI_T queries of the library aside), so every rank
  /// gets the same answer. nullptr: no values to check, runs anywhere.
  std::string (*validate)(const RankLayout& layout, const Params& params);
  /// Builds the plan of a validated spec.
  std::unique_ptr<ExchangePlan> (*make)(const ExchangeProblem& problem, const Params& params);
  ScratchBound scratch;
  /// The specs of this backend that `auto` times on `layout` with `block_bytes` blocks (auto
  /// leaves out those the layout refuses). nullptr: auto never picks it.
  std::vector<Spec> (*auto_candidates)(const RankLayout& layout, std::size_t block_bytes) = nullptr;
  /// The alpha-beta model's price of one spec of this backend (pure schedule math,
  /// schedule/cost_model): K, D, bytes per rank and seconds on `inputs`. `a2afft model` prints
  /// it and `auto:mode=estimate` ranks by it. nullptr: the model does not price this backend.
  schedule::ModelResult (*cost)(const schedule::ModelInputs& inputs,
                                const Params& params) = nullptr;
  /// The specs of this backend that auto:mode=estimate prices on `inputs` (e.g. tra at every
  /// radix). nullptr: its defaults alone. Only rows with a cost are priced.
  std::vector<Spec> (*cost_sweep)(const schedule::ModelInputs& inputs) = nullptr;
  /// Whether `cost` prices only specs that name their schedule (the vendor row: the library's
  /// own choice is unknown, mpi:alg=pair is not): such a row is left out of what prices defaults,
  /// `a2afft model`'s table without --exchange and auto:mode=estimate.
  bool cost_needs_named_schedule = false;
  /// Runs inner exchanges of its own (the node-aware family), so it cannot be one.
  bool hierarchical = false;
  /// Whether its plans overlap between ExchangePlan::start() and finish().
  SplitPhase split_phase = SplitPhase::no;
};

/// Every backend, in the order `a2afft list` and `--exchange all` use.
std::span<const ExchangeInfo* const> registered_exchanges();

/// The row for `name`; throws UsageError listing the valid names if there is none.
const ExchangeInfo& find_exchange(std::string_view name);

/// The backends the node-aware family accepts as `inner`, e.g. "mpi, pairwise, ...".
std::string flat_exchange_names();

/// Bytes of scratch a plan of `spec` may allocate per rank with `block_bytes` blocks on `ranks`
/// ranks whose largest node has `largest_node` ranks (its row's ScratchBound). Pure.
double scratch_bytes_bound(const Spec& spec, int ranks, int largest_node, std::size_t block_bytes);

/// The model's price of `spec` on `inputs` (its row's cost), after checking name and keys;
/// throws UsageError for a backend the model does not price, or a bad value. Pure.
schedule::ModelResult modelled_cost(const Spec& spec, const schedule::ModelInputs& inputs);

/// Every spec the model prices on `inputs`, with its price: each costed row's cost_sweep (or
/// its defaults), in table order. What auto:mode=estimate chooses from. Pure.
struct PricedSpec {
  Spec spec;
  schedule::ModelResult result;
};
std::vector<PricedSpec> priced_specs(const schedule::ModelInputs& inputs);

// ---- Variable-size exchanges (MPI_Alltoallv semantics; variable_exchange.hpp) ----

/// One row of the variable backends' table: the variable-size counterpart of ExchangeInfo,
/// listed in the same algorithms/backends.def (A2AFFT_VARIABLE_BACKEND). A spec whose name is
/// no variable row but a uniform one runs that uniform backend when the counts happen to be
/// uniform (and is refused with the reason otherwise).
struct VariableExchangeInfo {
  std::string_view name;
  std::string_view summary;  // one line
  std::string_view source;
  std::string_view layouts;
  std::span<const ParamInfo> params;
  /// Specs worth running: all run by the variable conformance test.
  std::span<const std::string_view> examples;
  /// As ExchangeInfo::validate: pure, throws UsageError for a bad value, returns why `layout`
  /// cannot run it or "". nullptr: no values to check, runs anywhere.
  std::string (*validate)(const RankLayout& layout, const Params& params);
  /// Builds the plan of a validated spec on a checked problem. Collective.
  std::unique_ptr<VariableExchangePlan> (*make)(const VariableProblem& problem,
                                                const Params& params);
  /// The specs of this row that variable `auto` times. nullptr: auto never picks it.
  std::vector<Spec> (*auto_candidates)(const RankLayout& layout) = nullptr;
};

/// Every variable backend, in table order.
std::span<const VariableExchangeInfo* const> registered_variable_exchanges();

/// The variable row named `name`, or nullptr (then a uniform row of that name may serve).
const VariableExchangeInfo* find_variable_exchange(std::string_view name);

}  // namespace a2afft::detail
