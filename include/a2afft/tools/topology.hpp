#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include <a2afft/layout.hpp>
#include <a2afft/tools/model.hpp>

namespace a2afft {

/// Where the ranks of a communicator live, as plain data: the host, node, local rank and NUMA
/// domain of every rank, as the exchanges see them (real shared-memory nodes, or the virtual
/// layout a LayoutRequest asks for). The same on every rank. Made by map_ranks(); what a
/// benchmark prints before it runs and what backend_refusal() checks a spec against.
struct RankMap {
  /// This rank in the communicator.
  int rank = 0;
  /// Per rank of the communicator: its host name, node, rank within the node (0 on the node's
  /// leader) and NUMA domain (an id on its node).
  /// @{
  std::vector<std::string> host_of_rank;
  std::vector<int> node_of_rank;
  std::vector<int> local_rank_of_rank;
  std::vector<int> numa_of_rank;
  /// @}
  /// Per node: its number of ranks, and its leader (its lowest rank).
  /// @{
  std::vector<int> node_sizes;
  std::vector<int> leader_of_node;
  /// @}
  /// One line, e.g. `6 ranks, 3 nodes of 3+1+2 (virtual: A2AFFT_NODE_SIZES=3,1,2)`.
  std::string layout;
  /// Where the NUMA domains come from: "hwloc", "one domain (no hwloc information)", or the
  /// virtual setting.
  std::string numa_origin;
  /// Distinct hosts.
  int host_count = 1;
  /// True when some host runs more ranks than it has cores: times then prove correctness only.
  bool oversubscribed = false;
  /// True when the nodes come from a virtual layout rather than shared memory.
  bool is_virtual = false;

  /// The number of ranks.
  /// @{
  int size() const { return static_cast<int>(node_of_rank.size()); }
  /// Ranks on the largest node.
  int largest_node_size() const {
    int largest = 0;
    for (const int ranks : node_sizes)
      largest = ranks > largest ? ranks : largest;
    return largest;
    /// @}
  }
};

/// Maps the ranks of `comm` as the exchanges on it would see them with `layout`, taken as is,
/// so that LayoutRequest{} is the real machine (plans read the A2AFFT_* variables under their
/// request: pass LayoutRequest::from_environment().overridden_by(mine) to map what they see).
/// Collective over `comm`. Throws UsageError, the same on every rank, for a layout that does not
/// fit the ranks.
RankMap map_ranks(MPI_Comm comm, const LayoutRequest& layout);

/// Measures what a message costs inside a node and between nodes of `comm` as the exchanges see
/// it with `layout` (as map_ranks): ping-pongs of 8 B and 1 MiB between rank 0 and its first
/// node neighbour, and between rank 0 and the first rank of another node; alpha is the 8 B
/// one-way time, beta the slope per byte up to 1 MiB. This is the machine of `auto:mode=estimate`
/// and of `a2afft model --measure`. Collective over `comm`, the same result on every rank; about
/// 50 round trips per link. Throws UsageError for a layout that does not fit the ranks.
model::MeasuredLinks measure_link_costs(MPI_Comm comm, const LayoutRequest& layout);

}  // namespace a2afft
