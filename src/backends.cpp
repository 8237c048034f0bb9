// The public backend catalogue (include/a2afft/backends.hpp): the registry's rows and checks,
// on spec texts and rank maps instead of the internal Spec and RankLayout.

#include <a2afft/backends.hpp>

#include "registry.hpp"
#include "spec.hpp"
#include "topology/layout.hpp"

namespace a2afft {
namespace {

// The layout a RankMap describes. Its description is kept only to mark a virtual layout: the
// backends check nodes and NUMA domains, and is_virtual() is all they ask of the origin.
RankLayout layout_of(const RankMap& ranks) {
  NodeLayout nodes{ranks.node_of_rank, ranks.local_rank_of_rank, ranks.node_sizes,
                   ranks.leader_of_node, ranks.is_virtual ? ranks.layout : std::string()};
  return RankLayout(std::move(nodes), ranks.numa_of_rank);
}

}  // namespace

std::vector<BackendInfo> backends() {
  std::vector<BackendInfo> infos;
  for (const ExchangeInfo* info : registered_exchanges()) {
    BackendInfo& row = infos.emplace_back();
    row.name = info->name;
    row.summary = info->summary;
    row.source = info->source;
    row.layouts = info->layouts;
    for (const ParamInfo& param : info->params) {
      row.parameters.push_back(
          {std::string(param.key), std::string(param.default_value), std::string(param.meaning)});
    }
    row.examples.assign(info->examples.begin(), info->examples.end());
    row.split_phase = info->split_phase == SplitPhase::yes           ? "yes"
                      : info->split_phase == SplitPhase::chosen_plan ? "as chosen"
                                                                     : "no";
  }
  return infos;
}

std::vector<std::string> split_specs(std::string_view list) {
  return split_spec_list(list);
}

std::string canonical_spec(std::string_view text) {
  const Spec spec = parse_spec(text);
  check_spec(spec);
  return spec.to_string();
}

std::string backend_refusal(std::string_view spec, const RankMap& ranks) {
  return exchange_refusal(parse_spec(spec), layout_of(ranks));
}

double backend_scratch_bytes(std::string_view spec, int ranks, int largest_node_size,
                             std::size_t block_bytes) {
  return scratch_bytes_bound(parse_spec(spec), ranks, largest_node_size, block_bytes);
}

}  // namespace a2afft
