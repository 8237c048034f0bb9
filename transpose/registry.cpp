#include "registry.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <stdexcept>

#include "mpi/comm.hpp"

#include "algorithms/algorithms.hpp"
#include "error.hpp"
#include "topology/topology.hpp"

namespace a2afft {

namespace {

// The one table of backends. A new backend adds its row here and nowhere else.
constexpr std::array kExchanges = {
    &algorithms::kVendorExchange,
    &algorithms::kPairwiseExchange,
    &algorithms::kNonblockingExchange,
    &algorithms::kFactorExchange,
    &algorithms::kFactorHierExchange,
    &algorithms::kTraExchange,
    &algorithms::kBruckExchange,
    &algorithms::kTra2Exchange,
    &algorithms::kHierarchicalExchange,
    &algorithms::kMultileaderExchange,
    &algorithms::kNodeAwareExchange,
    &algorithms::kLocalityAwareExchange,
    &algorithms::kMultileaderNodeAwareExchange,
    &algorithms::kMpmlExchange,
    &algorithms::kNmpmlExchange,
    &algorithms::kOnmpmlExchange,
    &algorithms::kAutoExchange,
};

std::string valid_names() {
  std::string names;
  for (const ExchangeInfo* info : kExchanges) {
    names += (names.empty() ? "" : ", ") + std::string(info->name);
  }
  return names;
}

void check_keys(const Spec& spec, const ExchangeInfo& info) {
  for (const SpecParam& param : spec.params) {
    const bool known = std::any_of(info.params.begin(), info.params.end(),
                                   [&](const ParamInfo& p) { return p.key == param.key; });
    if (known) continue;
    std::string valid;
    for (const ParamInfo& p : info.params)
      valid += (valid.empty() ? "" : ", ") + std::string(p.key);
    throw UsageError(std::string(info.name) + " has no parameter '" + param.key +
                     "'; valid: " + (valid.empty() ? "none" : valid));
  }
}

}  // namespace

std::span<const ExchangeInfo* const> registered_exchanges() {
  return kExchanges;
}

const ExchangeInfo& find_exchange(std::string_view name) {
  for (const ExchangeInfo* info : kExchanges) {
    if (info->name == name) return *info;
  }
  throw UsageError("unknown exchange '" + std::string(name) + "'; valid: " + valid_names() +
                   " (see 'a2afft list')");
}

void check_spec(const Spec& spec) {
  check_keys(spec, find_exchange(spec.name));
}

std::string exchange_refusal(const Spec& spec, const ExchangeProblem& problem) {
  check_spec(spec);
  const ExchangeInfo& info = find_exchange(spec.name);
  if (info.refusal == nullptr) return {};
  return info.refusal(problem, Params(spec));
}

std::string agreed_refusal(const Spec& spec, const ExchangeProblem& problem, MPI_Comm across) {
  std::string why = exchange_refusal(spec, problem);
  int rank = 0;
  mpi::check(MPI_Comm_rank(across, &rank), "MPI_Comm_rank");
  const int mine = why.empty() ? INT_MAX : rank;
  int lowest = INT_MAX;
  mpi::check(MPI_Allreduce(&mine, &lowest, 1, MPI_INT, MPI_MIN, across), "MPI_Allreduce(refusal)");
  if (lowest == INT_MAX) return {};
  return mpi::broadcast(why, lowest, across);
}

double scratch_bytes_bound(const Spec& spec, int ranks, int largest_node, std::size_t block_bytes) {
  const ScratchBound& bound = find_exchange(spec.name).scratch;
  const double rank_bytes = static_cast<double>(block_bytes) * ranks;
  return (bound.rank_buffers + bound.node_buffers * largest_node) * rank_bytes;
}

std::unique_ptr<Exchange> make_exchange(const Spec& spec, const ExchangeProblem& problem) {
  if (problem.block_bytes == 0) {
    throw UsageError("block_bytes=0 is not valid; an exchange block holds at least 1 byte");
  }
  if (const std::string why = exchange_refusal(spec, problem); !why.empty()) {
    throw UsageError(spec.to_string() + " cannot run on " + problem.topology.describe_layout() +
                     ": " + why);
  }
  return find_exchange(spec.name).make(problem, Params(spec));
}

std::unique_ptr<Exchange> make_exchange(std::string_view spec, const Topology& topology,
                                        std::size_t block_bytes) {
  return make_exchange(parse_spec(spec), ExchangeProblem{topology, block_bytes});
}

}  // namespace a2afft
