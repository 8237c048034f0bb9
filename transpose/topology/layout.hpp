#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <a2afft/layout.hpp>

// Virtual node layouts (LayoutSetting and LayoutRequest are public: a2afft/layout.hpp), pure (no
// MPI), so that one machine can act as a cluster.
namespace a2afft::detail {

/// Which node each rank is on, and the derived per-node facts.
struct NodeLayout {
  std::vector<int> node_of_rank;
  std::vector<int> local_rank_of_rank;
  std::vector<int> node_sizes;
  std::vector<int> leader_of_node;  // the node's lowest rank
  std::string virtual_origin;       // the setting that made it, "" for real nodes
};

/// Where every rank of a communicator lives, as plain data: node, local rank, NUMA domain. What
/// each backend checks its parameter values and the layout against before any plan is built,
/// so that a bad spec fails on every rank alike with no MPI call. Topology holds one.
class RankLayout {
 public:
  RankLayout() = default;
  /// `numa_of_rank` holds a domain id per rank of `nodes`.
  RankLayout(NodeLayout nodes, std::vector<int> numa_of_rank);
  /// Consecutive nodes of `node_sizes` ranks, each split into `numa_per_node` near-equal NUMA
  /// domains: a layout without a job, for tests and estimates.
  static RankLayout of_node_sizes(const std::vector<int>& node_sizes, int numa_per_node = 1);
  /// What a communicator of `ranks` (in this order) sees: each keeps its node and NUMA domain.
  RankLayout subset(const std::vector<int>& ranks) const;

  int size() const { return static_cast<int>(nodes_.node_of_rank.size()); }
  int node_count() const { return static_cast<int>(nodes_.node_sizes.size()); }
  int node_of(int rank) const { return nodes_.node_of_rank[static_cast<std::size_t>(rank)]; }
  int local_rank_of(int rank) const {
    return nodes_.local_rank_of_rank[static_cast<std::size_t>(rank)];
  }
  int node_size(int node) const { return nodes_.node_sizes[static_cast<std::size_t>(node)]; }
  const std::vector<int>& node_sizes() const { return nodes_.node_sizes; }
  int leader_of(int node) const { return nodes_.leader_of_node[static_cast<std::size_t>(node)]; }
  bool nodes_equal() const;
  /// Ranks on the largest and on the smallest node.
  int largest_node_size() const;
  int smallest_node_size() const;
  int numa_of(int rank) const { return numa_of_rank_[static_cast<std::size_t>(rank)]; }
  /// Distinct NUMA domains among the ranks of `node`.
  int numa_domains_on(int node) const;
  bool is_virtual() const { return !nodes_.virtual_origin.empty(); }
  /// One line, e.g. `6 ranks, 3 nodes of 3+1+2 (virtual: A2AFFT_NODE_SIZES=3,1,2)`.
  std::string describe() const;

 private:
  NodeLayout nodes_;
  std::vector<int> numa_of_rank_;
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

}  // namespace a2afft::detail
