#pragma once

// Rank arithmetic of the node-aware family ([node-aware-2025] §3, Algorithms 3-5).
// Pure math, no MPI.
//
// Every algorithm of the family works on the ranks in a canonical order: node by node, and
// inside a node region by region (a region is a locality group: a NUMA domain or a block of
// consecutive local ranks), then by local rank. In that order rank c sits on node c / ppn,
// belongs to leader group c / ppl (its member index c % ppl; member 0 leads), and leader group
// sigma sits in region sigma / m at index sigma % m, where m is the number of leader groups per
// region.

#include <cstddef>
#include <string>
#include <vector>

namespace a2afft::detail::schedule {

/// The canonical order: position c -> rank. `region_of_rank` numbers each rank's region
/// within its node (0 for every rank when regions are whole nodes). Ties keep rank order.
std::vector<int> canonical_order(const std::vector<int>& node_of_rank,
                                 const std::vector<int>& region_of_rank,
                                 const std::vector<int>& local_rank_of_rank);

/// True when canonical position c holds rank c for every c: nothing to permute.
bool is_identity(const std::vector<int>& order);

/// How the ranks group: P = nodes * ranks_per_node, leader groups of ranks_per_leader
/// consecutive canonical ranks, and (for the two-step exchanges) regions of
/// groups_per_region leader groups each.
struct NodeAwareShape {
  int ranks = 1;
  int ranks_per_node = 1;
  int ranks_per_leader = 1;   // ppl: 1 = every rank is its own leader (no gather/scatter)
  int groups_per_region = 1;  // m: leader groups per region of the two-step exchange
  int leader_groups() const { return ranks / ranks_per_leader; }
  int regions() const { return leader_groups() / groups_per_region; }
};

/// Why `shape` cannot be built ("" when it can): every divisor relation the family needs.
std::string node_aware_refusal(const NodeAwareShape& shape);

}  // namespace a2afft::detail::schedule
