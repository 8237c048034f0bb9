#pragma once

#include <cstddef>
#include <string>
#include <vector>

// The cost model's data, defined once: the tools' a2afft::model names (model.hpp) and the
// engine's schedule math (transpose/schedule/cost_model.hpp re-exports them into
// a2afft::detail::schedule) are the same types, so nothing converts between them. Plain structs
// with no dependencies, so that the engine can include them without the tools' functions.
namespace a2afft::model {

/// A message of m bytes costs alpha + m * beta.
struct LinkCost {
  double alpha_seconds;          ///< the latency of a message
  double beta_seconds_per_byte;  ///< the time per byte of one rank's message: 1 / its bandwidth
};

/// A factor of a message's latency or rate by the message's size, as SimGrid's SMPI states its
/// network model (smpi/lat-factor, smpi/bw-factor, "threshold:value;..."): a message of m bytes
/// takes the value of the largest threshold below m, and 1 when there is none (SimGrid 3.32's
/// NetworkSmpiModel::get_latency_factor and get_bandwidth_factor).
struct SizeFactor {
  double above_bytes;  ///< the threshold: messages larger than this take `factor`
  double factor;       ///< what alpha is multiplied by (latency) or a rate (bandwidth)
};

/// The links of a real machine, as measure_link_costs() (topology.hpp) measures them: one message
/// inside a node and one between nodes. A layout without two ranks on one node (or without two
/// nodes) cannot measure that link; it then holds the other link's cost, and its flag is false.
/// The rates of many ranks at once (the max-rate model's node terms) are 0 where not measured.
struct MeasuredLinks {
  LinkCost intra{0, 0};         ///< a message inside a node
  LinkCost inter{0, 0};         ///< a message between nodes
  bool intra_measured = false;  ///< whether `intra` was measured (else it is `inter`)
  bool inter_measured = false;  ///< whether `inter` was measured (else it is `intra`)
  /// R_N: bytes per second that k ranks of one node, each sending to its own partner on another
  /// node at once, get out of the node together; 0: not measured (a single node).
  double node_injection_bytes_per_second = 0;
  /// How many ranks of the node injected at once when R_N was measured.
  long injecting_ranks = 0;
  /// Bytes per second that all ranks of one node, exchanging in pairs inside it at once, move
  /// together (shared memory under contention); 0: not measured (one rank per node).
  double node_copy_bytes_per_second = 0;
  /// How many ranks of the node copied at once when the copy rate was measured.
  long copying_ranks = 0;
  /// The gap between small messages of one rank in flight at once (LogGP's o, or g where larger):
  /// what each further message of a round costs its sender; 0: not measured.
  double message_overhead_seconds = 0;
  /// What a round of an exchange costs beyond its messages: the exchange's own work per round
  /// (its loop, packing, bookkeeping; in a simulator, the host time it injects), measured as
  /// the residual per round of `pairwise` with 1 B blocks over the model's price; 0: not
  /// measured.
  double round_overhead_seconds = 0;
  /// What one rank's memcpy moves per second when it copies alone through memory (a 64 MiB
  /// buffer, beyond the caches): the rate of the packing, unpacking and leader aggregation the
  /// exchanges do on the host; 0: not measured.
  double host_copy_bytes_per_second = 0;
  /// What one memcpy call costs beyond its bytes (8 B blocks copied one call each by every rank
  /// of a node at once, sharing the caches as an exchange's copies do, less their bytes at
  /// host_copy_bytes_per_second): the exchanges copy block by block; 0: not measured.
  double host_copy_call_seconds = 0;
  /// How the message time bends away from alpha + m beta between the 8 B and 1 MiB trips that
  /// set alpha and beta (a protocol switch such as eager to rendezvous, or caches), measured by
  /// ping-pongs of a few sizes between them on the inter-node link where there is one, else the
  /// intra-node one: at each size m the latency factor takes what the trip adds above the line
  /// and the bandwidth factor what it saves below it, for messages from m up to the next size.
  /// Empty: not measured (the line alone).
  std::vector<SizeFactor> latency_factors{};
  std::vector<SizeFactor> bandwidth_factors{};  ///< see latency_factors
  /// What each of the ceil(log2 q) stages of a node synchronisation costs: the q ranks of a node
  /// make their stores to node shared memory visible as the shared-memory leader rows do
  /// (MPI_Win_sync, a barrier of the node, MPI_Win_sync), timed 20 in a row on rank 0's node,
  /// the slowest rank's mean divided by the stages; 0: not measured (one rank per node).
  double node_sync_stage_seconds = 0;
};

/// The machine the model runs on: `ranks` ranks numbered node by node, `ranks_per_node` per
/// node, blocks of `block_bytes`, one LinkCost inside a node and one between nodes. A round
/// costs what its slowest message costs. The trailing terms make it a max-rate model
/// ([max-rate-2016]): the k ranks of a node that send off-node in a round share the node's
/// injection rate R_N, so a message of m bytes costs alpha + max(m * beta, k * m / R_N); the j
/// ranks copying inside a node share its memory the same way; each message after a rank's first
/// in a round costs the overhead o. A rate of 0 means no such limit (the alpha-beta model).
struct ModelInputs {
  long ranks;               ///< P
  long ranks_per_node;      ///< Q
  std::size_t block_bytes;  ///< the exchange's blocks
  LinkCost intra;           ///< a message inside a node
  LinkCost inter;           ///< a message between nodes
  /// R_N: the node's injection rate shared by its ranks sending off-node; 0: unlimited.
  double node_injection_bytes_per_second = 0;
  /// The node's shared-memory rate shared by its ranks copying inside it; 0: unlimited.
  double node_copy_bytes_per_second = 0;
  /// o: what each message costs its sender beyond the first of a round; 0: nothing.
  double message_overhead_seconds = 0;
  /// What each round costs beyond its messages (MeasuredLinks::round_overhead_seconds).
  double round_overhead_seconds = 0;
  /// The host's copy rate and cost per copy call (MeasuredLinks::host_copy_bytes_per_second,
  /// host_copy_call_seconds): each row's local copies (its packing, unpacking and a leader's
  /// aggregation) cost calls x the call cost + bytes / the rate on the rank that copies most.
  /// Both 0: copies are free (the model before them). In a simulation SMPI injects the host's
  /// own time between MPI calls, so there too the simulating machine's rate is the parameter.
  double host_copy_bytes_per_second = 0;
  /// What one of those memcpy calls costs beyond its bytes (MeasuredLinks::host_copy_call_seconds).
  double host_copy_call_seconds = 0;
  /// A message's alpha times the factor of its size (SizeFactor); empty: 1 (a real machine,
  /// whose alpha is measured). Simulated platforms state SimGrid's defaults.
  std::vector<SizeFactor> latency_factors{};
  /// Every rate a message of m bytes gets (1/beta, R_N, the switch links) times the factor of
  /// its size; empty: 1.
  std::vector<SizeFactor> bandwidth_factors{};
  /// What each of the ceil(log2 Q) stages of a node synchronisation of shared memory costs
  /// (MeasuredLinks::node_sync_stage_seconds); 0: a zero-byte message inside the node (a
  /// recursive-doubling barrier's stage).
  double node_sync_stage_seconds = 0;
  /// The share of a link's rate that each flow the other way takes (SimGrid's
  /// network/crosstraffic: 0.05, the acknowledgements). In an exchange each direction of a link
  /// carries the other direction's flows at this weight, so off-node rates are divided by
  /// 1 + this share; 0: none.
  double reverse_flow_share = 0;
  /// The nodes behind one switch whose link to each other switch carries all of that switch
  /// pair's traffic (a dragonfly chassis's green links, one per pair of routers); 0: no such
  /// level (every node's traffic meets only its own link).
  long nodes_per_switch = 0;
  /// The rate of the link from one switch to another (its parallel links together); 0: unlimited.
  double switch_link_bytes_per_second = 0;
};

/// Where a prediction's time goes: the terms add up to ModelResult::seconds.
struct ModelTerms {
  double latency_seconds = 0;    ///< alpha of every round's slowest message
  double overhead_seconds = 0;   ///< o of further messages, and each round's own overhead
  double bandwidth_seconds = 0;  ///< bytes * beta: one rank's own link or copy rate
  /// What the shared links add: the node's link out (max-rate), and the links between switches
  double injection_seconds = 0;
  double copy_seconds = 0;  ///< what the node's shared memory adds under contention
  /// The charged rank's own memcpys on the host: packing, unpacking, a leader's aggregation
  double host_copy_seconds = 0;
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
  /// `seconds`, term by term.
  ModelTerms terms;
};

/// How a factor schedule loads the network ports of nodes (ranks numbered node by node): its
/// steps, the steps in which a node has a rank talking off-node (fewest and most over nodes),
/// and the most of a node's ranks talking off-node in one step.
struct FactorNodeLoad {
  long steps = 0;                    ///< the schedule's steps
  long fewest_inter_node_steps = 0;  ///< of a node with a rank talking off-node: fewest
  long most_inter_node_steps = 0;    ///< ... and most, over the nodes
  long most_off_node_at_once = 0;    ///< most of a node's ranks talking off-node in a step
};

}  // namespace a2afft::model
