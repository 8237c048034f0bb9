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
  /// The predicted time of one exchange.
  double seconds = 0;
};

/// tra with `radix`; radix P gives the direct schedule's counts.
ModelResult model_tra(const ModelInputs& inputs, long radix);
/// tra2 with radices r1 (among a node's Q ranks) and r2 (among the N nodes).
ModelResult model_tra2(const ModelInputs& inputs, long intra_radix, long inter_radix);
/// The direct algorithms (pairwise, nonblocking, factor): P-1 rounds of one block each.
ModelResult model_direct(const ModelInputs& inputs, const std::string& algorithm);

/// How many of a node's ranks send to another node in a round with shift `distance`.
long ranks_leaving_node(long ranks, long ranks_per_node, long distance);

}  // namespace a2afft::detail::schedule
