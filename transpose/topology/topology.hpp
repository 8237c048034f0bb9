#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "mpi/comm.hpp"
#include "topology/layout.hpp"

namespace a2afft::detail {

/// Where every rank of a communicator lives: node, local rank, NUMA domain, host. Built once,
/// collectively; the same facts on every rank. Nodes are real shared-memory nodes
/// (MPI_Comm_split_type) unless a virtual layout asks otherwise (see layout.hpp).
class Topology {
 public:
  /// Collective over `comm`. Throws UsageError for a layout that does not fit.
  Topology(MPI_Comm comm, const LayoutRequest& request);
  /// The topology of `subset`, a communicator of some of `parent`'s ranks: each keeps the
  /// (possibly virtual) node, NUMA domain and host it has in `parent`. Collective over `subset`.
  Topology(const Topology& parent, MPI_Comm subset);

  /// Our private duplicate of the communicator the topology was built on.
  MPI_Comm comm() const { return comm_.get(); }
  int rank() const { return comm_.rank(); }
  int size() const { return comm_.size(); }

  /// The ranks of our (possibly virtual) node, ordered by rank.
  MPI_Comm node_comm() const { return node_comm_.get(); }
  /// The ranks that really share memory with us; a virtual node is always inside it.
  MPI_Comm shared_memory_comm() const { return shared_memory_comm_.get(); }

  int node() const { return node_of(rank()); }
  int local_rank() const { return local_rank_of(rank()); }
  /// Where every rank lives, as plain data: what backends validate their specs against.
  const RankLayout& layout() const { return layout_; }
  int node_count() const { return layout_.node_count(); }
  int node_of(int rank) const { return layout_.node_of(rank); }
  int local_rank_of(int rank) const { return layout_.local_rank_of(rank); }
  int node_size(int node) const { return layout_.node_size(node); }
  const std::vector<int>& node_sizes() const { return layout_.node_sizes(); }
  int leader_of(int node) const { return layout_.leader_of(node); }
  bool nodes_equal() const { return layout_.nodes_equal(); }
  /// Ranks on the largest node.
  int largest_node_size() const { return layout_.largest_node_size(); }

  int numa_domain() const { return numa_of(rank()); }
  int numa_of(int rank) const { return layout_.numa_of(rank); }
  /// Distinct NUMA domains among the ranks of `node`.
  int numa_domains_on(int node) const { return layout_.numa_domains_on(node); }
  /// "hwloc", "one domain (no hwloc information)", or the virtual setting.
  const std::string& numa_origin() const { return numa_origin_; }

  const std::string& host_of(int rank) const {
    return host_of_rank_[static_cast<std::size_t>(rank)];
  }
  int host_count() const { return host_count_; }
  /// True when some host runs more ranks than it has cores: times then prove correctness only.
  bool oversubscribed() const { return oversubscribed_; }
  bool is_virtual() const { return layout_.is_virtual(); }

  /// One line, e.g. `6 ranks, 3 nodes of 3+1+2 (virtual: A2AFFT_NODE_SIZES=3,1,2)`.
  std::string describe_layout() const { return layout_.describe(); }

 private:
  mpi::Comm comm_;
  mpi::Comm shared_memory_comm_;
  RankLayout layout_;
  mpi::Comm node_comm_;
  std::vector<std::string> host_of_rank_;
  std::string numa_origin_;
  int host_count_ = 1;
  bool oversubscribed_ = false;
};

}  // namespace a2afft::detail
