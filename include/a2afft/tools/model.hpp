#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <a2afft/layout.hpp>

// The cost model of the exchanges, for studies without a machine (what `a2afft model` prints):
// rounds K, blocks D, bytes and the alpha-beta (Hockney) time of the algorithms for any rank
// count, and the factor schedules' load on each node's network port. Pure math, no MPI.
namespace a2afft::model {

/// A message of m bytes costs alpha + m * beta.
struct LinkCost {
  double alpha_seconds;          ///< the latency of a message
  double beta_seconds_per_byte;  ///< the time per byte: 1 / bandwidth
};

/// The links of a real machine, as measure_link_costs() (topology.hpp) measures them: one message
/// inside a node and one between nodes. A layout without two ranks on one node (or without two
/// nodes) cannot measure that link; it then holds the other link's cost, and its flag is false.
struct MeasuredLinks {
  LinkCost intra{0, 0};         ///< a message inside a node
  LinkCost inter{0, 0};         ///< a message between nodes
  bool intra_measured = false;  ///< whether `intra` was measured (else it is `inter`)
  bool inter_measured = false;  ///< whether `inter` was measured (else it is `intra`)
};

/// The machine the model runs on: `ranks` ranks numbered node by node, `ranks_per_node` per
/// node, blocks of `block_bytes`, one LinkCost inside a node and one between nodes. A round
/// costs what its slowest message costs.
struct ModelInputs {
  long ranks;               ///< P
  long ranks_per_node;      ///< Q
  std::size_t block_bytes;  ///< the exchange's blocks
  LinkCost intra;           ///< a message inside a node
  LinkCost inter;           ///< a message between nodes
};

/// What one algorithm costs on ModelInputs.
struct ModelResult {
  /// As Exchange::describe() would print it.
  std::string algorithm;
  /// K: rounds of messages.
  long rounds = 0;
  /// D: blocks each rank sends, forwarded ones included.
  long blocks = 0;
  /// The bytes each rank sends: D blocks.
  double bytes_per_rank = 0;
  /// The messages that leave each node in one exchange.
  long inter_node_messages_per_node = 0;
  /// Bytes one node sends to other nodes, forwarded ones included: what its link out carries.
  double inter_node_bytes_per_node = 0;
  /// The predicted time of one exchange.
  double seconds = 0;
};

/// tra with `radix`; radix P gives the direct schedule's counts.
ModelResult tra_cost(const ModelInputs& inputs, long radix);
/// tra2 with radices r1 (among a node's ranks) and r2 (among the nodes).
ModelResult tra2_cost(const ModelInputs& inputs, long intra_radix, long inter_radix);
/// The direct algorithms (pairwise, nonblocking, factor), named `algorithm` in the result: P-1
/// rounds of one block each.
ModelResult direct_cost(const ModelInputs& inputs, const std::string& algorithm);
/// The model's price of one backend spec, e.g. `pairwise`, `tra:radix=8` or `tra2:r1=2`
/// (unset parameters take the backend's defaults), as the backend's registry row computes it.
/// Throws UsageError for a backend the model does not price, an unknown key or a bad value.
ModelResult spec_cost(const ModelInputs& inputs, std::string_view spec);
/// The backends the model prices, in `a2afft list` order (each row that has a cost).
std::vector<std::string> modelled_backends();
/// tra's default radix ceil(sqrt(ranks)), at least 2: the knee of the K and D curves.
long default_radix(long ranks);

/// How a factor schedule loads the network ports of nodes (ranks numbered node by node): its
/// steps, the steps in which a node has a rank talking off-node (fewest and most over nodes),
/// and the most of a node's ranks talking off-node in one step.
struct FactorNodeLoad {
  long steps = 0;                    ///< the schedule's steps
  long fewest_inter_node_steps = 0;  ///< of a node with a rank talking off-node: fewest
  long most_inter_node_steps = 0;    ///< ... and most, over the nodes
  long most_off_node_at_once = 0;    ///< most of a node's ranks talking off-node in a step
};

/// Rounds of the flat factor schedule on `ranks` ranks.
int factor_rounds(int ranks);
/// The flat factor schedule's load on nodes of `node_sizes` ranks, counted round by round
/// (P^2 work: keep P to some thousands).
FactorNodeLoad factor_node_load(const std::vector<int>& node_sizes);
/// factor-hier's (ClusteredAllToAll) load by its closed forms: one rank per node talks at a time.
FactorNodeLoad clustered_node_load(const std::vector<int>& node_sizes);

/// Parses node sizes such as `3,1,2`; throws UsageError quoting the setting.
std::vector<int> parse_node_sizes(const LayoutSetting& setting);

}  // namespace a2afft::model
