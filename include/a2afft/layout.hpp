#pragma once

#include <optional>
#include <string>

namespace a2afft {

/// One virtual-layout setting as the user wrote it, kept verbatim so errors can quote it:
/// {"A2AFFT_NODE_SIZES", "3,1,2"} or {"--node-sizes", "3,1,2"}.
struct LayoutSetting {
  std::string name;   ///< where it came from: the variable or the flag
  std::string value;  ///< as written
  /// `name=value`, for messages.
  std::string quoted() const { return name + "=" + value; }
};

/// Which nodes a2afft should see the ranks on. Empty fields mean the real machine: nodes are
/// the ranks that share memory (MPI_Comm_split_type), NUMA domains come from hwloc. A virtual
/// layout lets one machine act as a cluster, for studies of the node-aware backends:
/// - ranks_per_node: nodes of q consecutive ranks (the last may be smaller), e.g. "2";
/// - node_sizes: nodes of the given sizes in rank order, e.g. "3,1,2";
/// - numa_per_node: k NUMA domains per node, consecutive ranks, e.g. "2".
/// A virtual node never spans real nodes. Plans combine the environment
/// (A2AFFT_RANKS_PER_NODE, A2AFFT_NODE_SIZES, A2AFFT_NUMA_PER_NODE) with the request they are
/// given: from_environment().overridden_by(request).
struct LayoutRequest {
  std::optional<LayoutSetting> ranks_per_node;  ///< nodes of q consecutive ranks
  std::optional<LayoutSetting> node_sizes;      ///< nodes of the given sizes, in rank order
  std::optional<LayoutSetting> numa_per_node;   ///< k NUMA domains per node

  /// Reads A2AFFT_RANKS_PER_NODE, A2AFFT_NODE_SIZES and A2AFFT_NUMA_PER_NODE.
  static LayoutRequest from_environment();
  /// `other` wins: its node settings replace all of ours if it has any; likewise for NUMA.
  LayoutRequest overridden_by(const LayoutRequest& other) const;
};

}  // namespace a2afft
