#include "registry.hpp"

#include <algorithm>
#include <functional>
#include <stdexcept>

#include "algorithms/variable_uniform.hpp"
#include "mpi/comm.hpp"

#include "error.hpp"
#include "topology/topology.hpp"

namespace a2afft::detail {

// Each row is defined in its algorithm's file and listed once, in algorithms/backends.def.
namespace algorithms {
#define A2AFFT_BACKEND(row) extern const ExchangeInfo row;
#define A2AFFT_VARIABLE_BACKEND(row) extern const VariableExchangeInfo row;
#include "algorithms/backends.def"
}  // namespace algorithms

namespace {

// The one table of backends, from algorithms/backends.def: `auto`'s candidates, the cost model's
// rows and the node-aware family's inner backends all come from these rows.
constexpr const ExchangeInfo* kExchanges[] = {
#define A2AFFT_BACKEND(row) &algorithms::row,
#include "algorithms/backends.def"
};

// The variable rows of the same file, in its order.
constexpr const VariableExchangeInfo* kVariableExchanges[] = {
#define A2AFFT_VARIABLE_BACKEND(row) &algorithms::row,
#include "algorithms/backends.def"
};

// The names of the rows that `keep` accepts, comma-separated.
std::string names_of(bool (*keep)(const ExchangeInfo&)) {
  std::string names;
  for (const ExchangeInfo* info : kExchanges) {
    if (keep(*info)) names += (names.empty() ? "" : ", ") + std::string(info->name);
  }
  return names;
}

void check_keys(const Spec& spec, std::string_view name, std::span<const ParamInfo> params) {
  for (const SpecParam& param : spec.params) {
    const bool known = std::any_of(params.begin(), params.end(),
                                   [&](const ParamInfo& p) { return p.key == param.key; });
    if (known) continue;
    std::string valid;
    for (const ParamInfo& p : params)
      valid += (valid.empty() ? "" : ", ") + std::string(p.key);
    throw UsageError(std::string(name) + " has no parameter '" + param.key +
                     "'; valid: " + (valid.empty() ? "none" : valid));
  }
}

void check_keys(const Spec& spec, const ExchangeInfo& info) {
  check_keys(spec, info.name, info.params);
}

}  // namespace

std::span<const ExchangeInfo* const> registered_exchanges() {
  return kExchanges;
}

const ExchangeInfo& find_exchange(std::string_view name) {
  for (const ExchangeInfo* info : kExchanges) {
    if (info->name == name) return *info;
  }
  throw UsageError("unknown exchange '" + std::string(name) + "'; valid: " +
                   names_of([](const ExchangeInfo&) { return true; }) + " (see 'a2afft list')");
}

void check_spec(const Spec& spec) {
  check_keys(spec, find_exchange(spec.name));
}

std::string flat_exchange_names() {
  return names_of([](const ExchangeInfo& info) { return !info.hierarchical; });
}

std::string exchange_refusal(const Spec& spec, const RankLayout& layout) {
  check_spec(spec);
  const ExchangeInfo& info = find_exchange(spec.name);
  if (info.validate == nullptr) return {};
  return info.validate(layout, Params(spec));
}

std::string exchange_refusal(const Spec& spec, const ExchangeProblem& problem) {
  return exchange_refusal(spec, problem.topology.layout());
}

namespace {

// `refusal()` on every rank of `across`, agreed: a UsageError (a bad value) on some ranks is one
// on every rank, then the lowest refusing rank's reason, or "". A value can be bad on some
// sub-communicators only (a radix beyond their size): then it is an error on every rank, never
// a throw on some while the others wait in a collective.
std::string agreed(const std::function<std::string()>& refusal, MPI_Comm across) {
  std::string why, bad_value;
  try {
    why = refusal();
  } catch (const UsageError& error) {
    bad_value = error.what();
  }
  if (const mpi::RankMessage error = mpi::agreed_message(bad_value, across); !error.empty()) {
    throw UsageError(error.text);
  }
  return mpi::agreed_message(why, across).text;
}

}  // namespace

std::string agreed_refusal(const Spec& spec, const ExchangeProblem& problem, MPI_Comm across) {
  return agreed([&] { return exchange_refusal(spec, problem); }, across);
}

double scratch_bytes_bound(const Spec& spec, int ranks, int largest_node, std::size_t block_bytes) {
  const ScratchBound& bound = find_exchange(spec.name).scratch;
  const double rank_bytes = static_cast<double>(block_bytes) * ranks;
  return (bound.rank_buffers + bound.node_buffers * largest_node) * rank_bytes;
}

schedule::ModelResult modelled_cost(const Spec& spec, const schedule::ModelInputs& inputs) {
  check_spec(spec);
  const ExchangeInfo& info = find_exchange(spec.name);
  if (info.cost == nullptr) {
    throw UsageError("the cost model does not price " + std::string(info.name) + "; it prices " +
                     names_of([](const ExchangeInfo& row) { return row.cost != nullptr; }));
  }
  return info.cost(inputs, Params(spec));
}

std::vector<PricedSpec> priced_specs(const schedule::ModelInputs& inputs) {
  std::vector<PricedSpec> priced;
  for (const ExchangeInfo* info : kExchanges) {
    if (info->cost == nullptr || info->cost_needs_named_schedule) continue;
    const std::vector<Spec> specs = info->cost_sweep != nullptr
                                        ? info->cost_sweep(inputs)
                                        : std::vector<Spec>{Spec{std::string(info->name), {}}};
    for (const Spec& spec : specs)
      priced.push_back({spec, info->cost(inputs, Params(spec))});
  }
  return priced;
}

std::unique_ptr<ExchangePlan> make_exchange(const Spec& spec, const ExchangeProblem& problem) {
  if (problem.block_bytes == 0) {
    throw UsageError("block_bytes=0 is not valid; an exchange block holds at least 1 byte");
  }
  if (const std::string why = exchange_refusal(spec, problem); !why.empty()) {
    throw UsageError(spec.to_string() + " cannot run on " + problem.topology.describe_layout() +
                     ": " + why);
  }
  return find_exchange(spec.name).make(problem, Params(spec));
}

std::unique_ptr<ExchangePlan> make_exchange(std::string_view spec, const Topology& topology,
                                            std::size_t block_bytes) {
  return make_exchange(parse_spec(spec), ExchangeProblem{topology, block_bytes});
}

std::span<const VariableExchangeInfo* const> registered_variable_exchanges() {
  return kVariableExchanges;
}

const VariableExchangeInfo* find_variable_exchange(std::string_view name) {
  for (const VariableExchangeInfo* info : kVariableExchanges) {
    if (info->name == name) return info;
  }
  return nullptr;
}

void check_variable_spec(const Spec& spec) {
  if (const VariableExchangeInfo* info = find_variable_exchange(spec.name)) {
    check_keys(spec, info->name, info->params);
    return;
  }
  try {
    check_spec(spec);
  } catch (const UsageError& error) {
    std::string names;
    for (const VariableExchangeInfo* row : kVariableExchanges)
      names += (names.empty() ? "" : ", ") + std::string(row->name);
    throw UsageError(std::string(error.what()) + " (variable-size exchanges also take " + names +
                     ")");
  }
}

namespace {

// The variable row's pure refusal; throws UsageError for an unknown name (listing both tables),
// key or value. A name of the uniform table only returns nullptr: the caller checks uniformity.
const VariableExchangeInfo* variable_row(const Spec& spec, const RankLayout& layout,
                                         std::string* why) {
  const VariableExchangeInfo* info = find_variable_exchange(spec.name);
  if (info == nullptr) {
    const bool uniform =
        std::any_of(std::begin(kExchanges), std::end(kExchanges),
                    [&](const ExchangeInfo* row) { return row->name == spec.name; });
    if (!uniform) {
      std::string names;
      for (const VariableExchangeInfo* row : kVariableExchanges)
        names += (names.empty() ? "" : ", ") + std::string(row->name);
      throw UsageError("unknown exchange '" + spec.name +
                       "'; valid variable-size exchanges: " + names + "; a uniform one (" +
                       names_of([](const ExchangeInfo&) { return true; }) +
                       ") serves uniform counts only");
    }
    *why = exchange_refusal(spec, layout);
    return nullptr;
  }
  check_keys(spec, info->name, info->params);
  if (info->validate != nullptr) *why = info->validate(layout, Params(spec));
  return info;
}

}  // namespace

std::string variable_exchange_refusal(const Spec& spec, const VariableProblem& problem) {
  const VariableExchangeInfo* info = nullptr;
  const std::string why = agreed(
      [&] {
        std::string refusal;
        info = variable_row(spec, problem.topology.layout(), &refusal);
        return refusal;
      },
      problem.topology.comm());
  if (!why.empty() || info != nullptr) return why;
  return algorithms::uniform_refusal(problem);  // collective, agreed
}

std::unique_ptr<VariableExchangePlan> make_variable_exchange(const Spec& spec,
                                                             const VariableProblem& problem) {
  check_variable_problem(problem);
  if (const std::string why = variable_exchange_refusal(spec, problem); !why.empty()) {
    throw UsageError(spec.to_string() + " cannot run this variable-size exchange on " +
                     problem.topology.describe_layout() + ": " + why);
  }
  if (const VariableExchangeInfo* info = find_variable_exchange(spec.name)) {
    return info->make(problem, Params(spec));
  }
  return algorithms::make_uniform_serving(spec, problem);
}

std::unique_ptr<VariableExchangePlan> make_variable_exchange(std::string_view spec,
                                                             const VariableProblem& problem) {
  return make_variable_exchange(parse_spec(spec), problem);
}

}  // namespace a2afft::detail
