// The tools' rank map (include/a2afft/tools/topology.hpp): a Topology's facts copied out as
// plain data.

#include <a2afft/tools/topology.hpp>

#include "timing/link_costs.hpp"
#include "topology/topology.hpp"

namespace a2afft {

RankMap map_ranks(MPI_Comm comm, const LayoutRequest& layout) {
  const detail::Topology topology(comm, layout);
  RankMap map;
  map.rank = topology.rank();
  for (int rank = 0; rank < topology.size(); ++rank) {
    map.host_of_rank.push_back(topology.host_of(rank));
    map.node_of_rank.push_back(topology.node_of(rank));
    map.local_rank_of_rank.push_back(topology.local_rank_of(rank));
    map.numa_of_rank.push_back(topology.numa_of(rank));
  }
  map.node_sizes = topology.node_sizes();
  for (int node = 0; node < topology.node_count(); ++node)
    map.leader_of_node.push_back(topology.leader_of(node));
  map.layout = topology.describe_layout();
  map.numa_origin = topology.numa_origin();
  map.host_count = topology.host_count();
  map.oversubscribed = topology.oversubscribed();
  map.is_virtual = topology.is_virtual();
  return map;
}

model::MeasuredLinks measure_link_costs(MPI_Comm comm, const LayoutRequest& layout) {
  return detail::measure_links(detail::Topology(comm, layout));
}

}  // namespace a2afft
