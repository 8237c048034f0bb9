#pragma once

#include <cstddef>
#include <string>

// The alpha-beta (Hockney) model of the exchanges: a message of m bytes costs alpha + m*beta,
// with separate costs inside a node and between nodes. Ranks are numbered node by node, Q per
// node. A round costs what its slowest message costs, so a round in which any rank talks to
// another node is charged at the inter-node rate. Pure math, no MPI.
namespace a2afft::detail::schedule {

/// A message of m bytes costs alpha + m * beta.
struct LinkCost {
  double alpha_seconds;
  double beta_seconds_per_byte;
};

/// The machine the model runs on: `ranks` ranks numbered node by node, `ranks_per_node` per
/// node, blocks of `block_bytes`, one LinkCost inside a node and one between nodes. A round
/// costs what its slowest message costs.
struct ModelInputs {
  long ranks;
  long ranks_per_node;
  std::size_t block_bytes;
  LinkCost intra;
  LinkCost inter;
};

/// What one algorithm costs on ModelInputs (the tools' a2afft::model::ModelResult converts it).
struct ModelResult {
  /// As ExchangePlan::describe() would print it.
  std::string algorithm;
  /// K: rounds of messages.
  long rounds = 0;
  /// D: blocks each rank sends, forwarded ones included.
  long blocks = 0;
  double bytes_per_rank = 0;
  long inter_node_messages_per_node = 0;
  /// Bytes one node sends to other nodes (what its link out must carry; forwarded ones included).
  double inter_node_bytes_per_node = 0;
  /// The predicted time of one exchange.
  double seconds = 0;
};

/// tra with `radix`; radix P gives the direct schedule's counts.
ModelResult model_tra(const ModelInputs& inputs, long radix);
/// tra2 with radices r1 (among a node's Q ranks) and r2 (among the N nodes).
ModelResult model_tra2(const ModelInputs& inputs, long intra_radix, long inter_radix);
/// The direct algorithms (pairwise, nonblocking, factor): P-1 rounds of one block each.
ModelResult model_direct(const ModelInputs& inputs, const std::string& algorithm);

/// A row of the node-aware family ([node-aware-2025] Algorithms 3-5) on equal nodes, its inner
/// all-to-alls direct (pairwise, nonblocking or factor): `ranks_per_leader` ranks per leader
/// (ppl; 1: no gather and scatter), and either one flat exchange among the P/ppl leaders
/// (hierarchical, multileader) or the two-step one over regions of `groups_per_region` leader
/// groups (node-aware: regions are nodes; locality-aware: g regions per node).
struct NodeAwareModel {
  std::string algorithm;  // as ExchangePlan::describe() prints it
  long ranks_per_leader = 1;
  bool two_step = false;
  long groups_per_region = 1;
};

/// The family's price, charged on the busiest rank, a leader: gather and scatter (ppl - 1)
/// messages of P blocks each inside the node; flat: P/ppl - 1 rounds of ppl^2-block super-blocks,
/// each round at the inter-node rate when any leader's partner is on another node; two-step:
/// R - 1 rounds among the R regions (m super-blocks per message, inter-node when regions of
/// different nodes meet), then m - 1 rounds inside each region (R super-blocks, intra-node).
/// Throws std::invalid_argument when ppl does not divide Q or m the leader groups of a node.
ModelResult model_node_aware(const ModelInputs& inputs, const NodeAwareModel& family);

/// A shared-memory leader row ([onmpml-glex] Algorithms 2-5) with `leaders` leaders per node;
/// `overlap` for onmpml.
struct SharedLeaderModel {
  std::string algorithm;
  long leaders = 1;
  bool overlap = false;
};

/// The shared-leader price on N = P/Q nodes, per leader, each serving k = ceil((N-1)/L) node
/// offsets: per message a gather of Q^2 blocks from node memory (intra beta), one inter-node
/// message of Q^2 blocks, and a scatter of Q^2 blocks (intra beta); every rank's own node's Q
/// blocks; two node barriers of ceil(log2 Q) intra-node latencies. mpml and nmpml run the
/// messages one after another (k (gather + send + scatter)); onmpml pipelines them
/// (gather + send + scatter + (k - 1) max of the three) while the intra copies overlap.
/// Throws std::invalid_argument when `leaders` is not 1..Q.
ModelResult model_shared_leaders(const ModelInputs& inputs, const SharedLeaderModel& row);

/// How many of a node's ranks send to another node in a round with shift `distance`.
long ranks_leaving_node(long ranks, long ranks_per_node, long distance);

}  // namespace a2afft::detail::schedule
