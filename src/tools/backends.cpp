// The tools' backend checks (include/a2afft/tools/backends.hpp): the registry's pure refusal and
// scratch bound, on spec texts and rank maps instead of the internal Spec and RankLayout.

#include <a2afft/tools/backends.hpp>

#include "registry.hpp"
#include "spec.hpp"
#include "topology/layout.hpp"

namespace a2afft {
namespace {

// The layout a RankMap describes. Its description is kept only to mark a virtual layout: the
// backends check nodes and NUMA domains, and is_virtual() is all they ask of the origin.
detail::RankLayout layout_of(const RankMap& ranks) {
  detail::NodeLayout nodes{ranks.node_of_rank, ranks.local_rank_of_rank, ranks.node_sizes,
                           ranks.leader_of_node, ranks.is_virtual ? ranks.layout : std::string()};
  return detail::RankLayout(std::move(nodes), ranks.numa_of_rank);
}

}  // namespace

std::string backend_refusal(std::string_view spec, const RankMap& ranks) {
  return detail::exchange_refusal(detail::parse_spec(spec), layout_of(ranks));
}

double backend_scratch_bytes(std::string_view spec, int ranks, int largest_node_size,
                             std::size_t block_bytes) {
  return detail::scratch_bytes_bound(detail::parse_spec(spec), ranks, largest_node_size,
                                     block_bytes);
}

}  // namespace a2afft
