#pragma once

// Rank arithmetic of the shared-memory leader family ([onmpml-glex] §5,
// Algorithms 2-5): which local ranks lead, which node offsets each leader serves, and how a
// node's ranks group into runs of consecutive ranks. Pure math, no MPI.

#include <vector>

namespace a2afft::detail::schedule {

/// Local ranks [first_local, first_local + count) of a node are the consecutive ranks
/// [first_rank, first_rank + count) of the communicator.
struct RankRun {
  int first_local;
  int first_rank;
  int count;
  bool operator==(const RankRun&) const = default;
};

/// A node's members (ranks in local-rank order) as maximal runs of consecutive ranks: one run
/// when the node's ranks are numbered together, as block placement does.
std::vector<RankRun> consecutive_runs(const std::vector<int>& members);

/// MPML's leaders ([onmpml-glex] Algorithm 2): local ranks 0..leaders-1, leader id = local rank.
std::vector<int> first_leaders(int leaders);

/// NMPML's leaders, spread over the node's NUMA domains ([onmpml-glex] Algorithm 4, which assumes
/// ranks numbered domain by domain; this works from each rank's domain). With D domains, leader l
/// goes to the (l * D / leaders)-th domain in order of first appearance, so a domain gets
/// floor or ceil of leaders / D of them and fewer leaders than domains spread across the node;
/// a domain with more leaders than ranks passes the rest on to the next domain. Inside its
/// domain a leader sits as near as it can to position l * Q / leaders of the node's Q ranks
/// listed domain by domain, which is Algorithm 4's choice when domains are equal. Returns
/// local ranks in ascending order (leader id = index). Requires 1 <= leaders <= Q.
std::vector<int> numa_spread_leaders(const std::vector<int>& numa_of_local, int leaders);

/// The node offsets 1..nodes-1 that leader `leader_id` of `leaders` serves: leader_id,
/// leader_id + leaders, ... ([onmpml-glex] Algorithm 3's multi-port loop). Offset i pairs a node n
/// with target node n + i and source node n - i (mod nodes); offset 0, the node itself, needs no
/// message and is left out.
std::vector<int> served_offsets(int leader_id, int leaders, int nodes);

}  // namespace a2afft::detail::schedule
