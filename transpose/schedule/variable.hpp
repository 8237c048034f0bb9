#pragma once

// Planning math of the variable-size exchanges (algorithms/variable_*.cpp): which peers are
// real partners, in which rounds they meet, and how a node leader lays out the bytes it
// aggregates per destination node. Pure, no MPI.

#include <cstddef>
#include <vector>

namespace a2afft::detail::schedule {

/// One round of a sparse direct exchange: the peers this rank sends to and receives from.
struct SparseRound {
  int number = 0;  // from 0, the same on every rank: steps number * batch + 1 ..
  std::vector<int> send_to;
  std::vector<int> recv_from;
};

/// The rounds of a sparse direct exchange. Step s = 1..P-1 pairs each rank with rank + s (send)
/// and rank - s (receive), as the uniform direct exchanges do; round k holds steps
/// k * steps_per_round + 1 .. (k + 1) * steps_per_round. Peers of 0 bytes are left out, and
/// rounds left empty dropped: a message is then sent and received in the round of the same
/// number on both sides, so waiting for a round's messages never waits on a later round.
/// Our own bytes (step 0) are no message and appear in no round.
std::vector<SparseRound> sparse_rounds(const std::vector<std::size_t>& send_bytes,
                                       const std::vector<std::size_t>& recv_bytes, int rank,
                                       int steps_per_round);

/// The ranks of every node, each in rank order: node_of_rank inverted.
std::vector<std::vector<int>> ranks_of_nodes(const std::vector<int>& node_of_rank);

/// The ranks on nodes other than `own_node`, node by node and in rank order within each: the
/// order in which a rank's segments for (or from) other nodes are listed in the one message it
/// sends to (or receives from) its node leader.
std::vector<int> off_node_ranks(const std::vector<std::vector<int>>& ranks_of_node, int own_node);

/// A node leader's staging buffer for one direction: one contiguous block per other node (0
/// bytes for its own), and in it where each (local rank, off-node rank) segment sits.
struct AggregateLayout {
  std::vector<std::size_t> node_offset;  // per node
  std::vector<std::size_t> node_bytes;   // per node
  /// [local index q][rank r]: where q's segment with r starts (meaningful when it has bytes and
  /// r is on another node).
  std::vector<std::vector<std::size_t>> segment_offset;
  std::size_t total = 0;
};

/// What the leader of `own_node` sends each other node M: for local rank q (in rank order),
/// then each rank d of M (in rank order), the `bytes[q][d]` that q sends d.
AggregateLayout outgoing_layout(const std::vector<std::vector<int>>& ranks_of_node, int own_node,
                                const std::vector<std::vector<std::size_t>>& bytes);

/// What the leader of `own_node` receives from each other node M: for each rank s of M (in rank
/// order), then local rank q, the `bytes[q][s]` that q receives from s. Segment for segment the
/// same as M's outgoing_layout block for this node, so one message carries a whole block.
AggregateLayout incoming_layout(const std::vector<std::vector<int>>& ranks_of_node, int own_node,
                                const std::vector<std::vector<std::size_t>>& bytes);

}  // namespace a2afft::detail::schedule
