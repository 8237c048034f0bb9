#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Virtual node layouts, pure (no MPI), so that one machine can act as a cluster.
namespace a2afft {

/// One layout setting as the user wrote it, kept verbatim so errors can quote it:
/// {"A2AFFT_NODE_SIZES", "3,1,2"} or {"--node-sizes", "3,1,2"}.
struct LayoutSetting {
  std::string name;
  std::string value;
  std::string quoted() const { return name + "=" + value; }
};

/// Which virtual layout the user asked for. Empty fields mean "the real machine".
struct LayoutRequest {
  std::optional<LayoutSetting> ranks_per_node;  // blocks of q consecutive ranks
  std::optional<LayoutSetting> node_sizes;      // consecutive blocks of the given sizes
  std::optional<LayoutSetting> numa_per_node;   // k NUMA domains per node, split evenly

  /// Reads A2AFFT_RANKS_PER_NODE, A2AFFT_NODE_SIZES and A2AFFT_NUMA_PER_NODE.
  static LayoutRequest from_environment();
  /// `cli` wins: its node settings replace all of ours if it has any; likewise for NUMA.
  LayoutRequest overridden_by(const LayoutRequest& cli) const;
};

/// Which node each rank is on, and the derived per-node facts.
struct NodeLayout {
  std::vector<int> node_of_rank;
  std::vector<int> local_rank_of_rank;
  std::vector<int> node_sizes;
  std::vector<int> leader_of_node;  // the node's lowest rank
  std::string virtual_origin;       // the setting that made it, "" for real nodes
};

/// Parses a positive count (`2`); throws UsageError quoting the setting.
int parse_layout_count(const LayoutSetting& setting);
/// Parses `3,1,2`; throws UsageError quoting the setting.
std::vector<int> parse_node_sizes(const LayoutSetting& setting);

/// Builds the layout of `real_node_of_rank.size()` ranks. `real_node_of_rank` holds any id
/// equal for ranks that share memory; `host_of_rank` names them in errors. Throws UsageError
/// when the request does not fit the rank count, or would put one virtual node on two real ones.
NodeLayout resolve_node_layout(const std::vector<int>& real_node_of_rank,
                               const std::vector<std::string>& host_of_rank,
                               const LayoutRequest& request);

/// The NUMA domain of each rank: `hardware_numa_of_rank`, or with a virtual NUMA count k, the
/// node's ranks split into k consecutive, near-equal groups.
std::vector<int> resolve_numa(const NodeLayout& layout,
                              const std::vector<int>& hardware_numa_of_rank,
                              const LayoutRequest& request);

}  // namespace a2afft
