#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <a2afft/tools/model_types.hpp>

// The cost model of the exchanges: each row's schedule, priced round by round (closed forms
// where the rounds are alike). A message of m bytes costs alpha + m * beta (Hockney), with
// separate costs inside a node and between nodes; ranks are numbered node by node, Q per node.
// On top of that, the max-rate model of Gropp, Olson and Samfass ([max-rate-2016]): the k ranks
// of a node that send off-node at once share its injection rate R_N, so each of their messages
// takes alpha + max(m * beta, k * m / R_N) = alpha + k * m / min(R_N, k / beta); the ranks
// copying inside a node share its memory rate the same way; and every further message a rank
// sends in one round costs the LogGP overhead o. A round costs what its slowest message costs
// and rounds follow one another (each waits for its data: the synchronisation). Pure math.
namespace a2afft::detail::schedule {

// The model's data is the tools' (include/a2afft/tools/model_types.hpp), used here as it is:
// one definition, no converters.
using model::LinkCost;
using model::MeasuredLinks;
using model::ModelInputs;
using model::ModelResult;
using model::ModelTerms;
using model::SizeFactor;

/// One round as one node sees it: every sending rank sends `messages` messages of `bytes`
/// each; `off_node` of the node's ranks send off-node and `on_node` send inside it, at once;
/// `crossing` ranks' messages go through the busiest link from the node's switch to another
/// (switch_link_flows).
struct RoundLoad {
  double bytes = 0;
  long messages = 1;
  long off_node = 0;
  long on_node = 0;
  long crossing = 0;
};

/// The factor of a message of `message_bytes` in `factors` (SizeFactor): the value of the
/// largest threshold below the size, 1 when none.
double size_factor(const std::vector<SizeFactor>& factors, double message_bytes);

/// In a round where member i (of `members`, numbered node by node, `per_node` on each node)
/// sends to member i + `distance`: the most members of one switch's nodes (`per_switch` nodes
/// per switch, in order) whose messages share one link to another switch. Counted for the first
/// switch (every switch alike when the switches divide the nodes). 0 when all nodes are behind
/// one switch or per_switch is 0.
long switch_link_flows(long members, long per_node, long per_switch, long distance);

/// The terms of one round: its slower side, off-node (inter alpha, beta, and the share of R_N
/// or of the busiest switch link, whichever is slower) or on-node (intra alpha, beta, and the
/// share of the node's copy rate), plus (messages - 1) o and the round's own overhead. Alpha
/// takes the latency factor of the message's size, every rate its bandwidth factor, and the
/// off-node rates are divided by 1 + the reverse flows' share.
ModelTerms round_terms(const ModelInputs& inputs, const RoundLoad& round);
/// The host copy term: `calls` memcpys moving `bytes` in all on one rank, each call at
/// ModelInputs::host_copy_call_seconds and the bytes at host_copy_bytes_per_second (0: free).
double host_copy_seconds(const ModelInputs& inputs, double calls, double bytes);
/// The blocks a TRA among `members` with `radix` packs (and unpacks again): those of every
/// round that sends more than one (TraExchange packs those; a round of one block goes without).
long tra_packed_blocks(long members, long radix);

/// One measured ping-pong: half a round trip of a message of `bytes`.
struct MessageTrip {
  double bytes;
  double seconds;
};

/// Size factors in SimGrid's form (SizeFactor), latency and bandwidth.
struct SizeFactors {
  std::vector<SizeFactor> latency, bandwidth;
};

/// The factors that bend the line alpha + m beta of `line` onto each of `trips` (sizes ascending,
/// below `line_end_bytes`, where the line was drawn through the trip): for messages from a
/// trip's size up to the next one's, a latency factor (trip - m beta) / alpha where the trip runs
/// above the line, or a bandwidth factor m beta / (trip - alpha) where it runs below (caches),
/// and 1 within 5% of the line (noise); from line_end_bytes on, 1.
SizeFactors bent_line(const LinkCost& line, const std::vector<MessageTrip>& trips,
                      double line_end_bytes);

/// The sum of the terms: a prediction's seconds.
double total_seconds(const ModelTerms& terms);
/// terms += times * more.
void add_terms(ModelTerms& terms, const ModelTerms& more, double times = 1);

/// The model's machine from measured links: P, Q and blocks, both links and the node terms.
ModelInputs measured_inputs(long ranks, long ranks_per_node, std::size_t block_bytes,
                            const MeasuredLinks& links);

/// tra with `radix`; radix P gives the direct schedule's counts.
ModelResult model_tra(const ModelInputs& inputs, long radix);
/// tra2 with radices r1 (among a node's Q ranks) and r2 (among the N nodes).
ModelResult model_tra2(const ModelInputs& inputs, long intra_radix, long inter_radix);
/// The direct algorithms (pairwise, nonblocking, factor): P-1 rounds of one block each.
ModelResult model_direct(const ModelInputs& inputs, const std::string& algorithm);

/// P - 1 rounds of one block where round d pairs rank i with i XOR d: SMPI's `pair` alltoall
/// (SimGrid 3.32's alltoall-pair.cpp), `mpi:alg=pair`'s schedule. Each round charges node 0's
/// ranks leaving it and the busiest link from its switch, as the shift rounds do; unlike a shift,
/// XOR sends every rank of a switch to one other switch at once. Throws std::invalid_argument
/// when P is not a power of two.
ModelResult model_xor_pairs(const ModelInputs& inputs, const std::string& algorithm);

/// factor-hier (ClusteredAllToAll, [hier-factor-2002] §3) on N equal nodes of Q: N node rounds
/// (a node meets every node once, itself included), each of Q^2 logical steps. Nothing holds the
/// ranks to those steps, and each rank takes its partners in order, so a round runs as a
/// wavefront of 2Q - 1 message times of one block, up to Q of the node's ranks at once (sharing
/// R_N off-node, the copy rate inside, and the busiest switch link of the round's node pairs).
ModelResult model_factor_hier(const ModelInputs& inputs);

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

/// The family's price, charged on the busiest rank, a leader: gather and scatter inside the node
/// as binomial trees (ceil(log2 ppl) messages, (ppl - 1) P blocks in all); flat: P/ppl - 1 rounds
/// of ppl^2-block super-blocks, each round at the inter-node rate when any leader's partner is on
/// another node; two-step: R - 1 rounds among the R regions (m super-blocks per message, inter-node
/// when regions of different nodes meet), then m - 1 rounds inside each region (R super-blocks,
/// intra-node). The node's Q/ppl leaders gather and scatter at once (sharing its copy rate), and
/// the leaders whose partners are off-node in a round share its injection rate. Throws
/// std::invalid_argument when ppl does not divide Q or m the leader groups of a node.
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
/// blocks; two node synchronisations of ceil(log2 Q) stages
/// (ModelInputs::node_sync_stage_seconds, or where not measured one zero-byte intra-node message
/// each). mpml and nmpml run the messages one after another (k (gather + send + scatter)); onmpml
/// pipelines them (gather + send + scatter + (k - 1) max of the three) while the intra copies
/// overlap. The L leaders copy at once (sharing the node's copy rate) and send at once (sharing
/// R_N, and each round's busiest switch link: round j sends to node offsets jL + 1 .. jL + L); the
/// own node's blocks are copied by all Q ranks at once. Throws std::invalid_argument when `leaders`
/// is not 1..Q.
ModelResult model_shared_leaders(const ModelInputs& inputs, const SharedLeaderModel& row);

/// How many of a node's ranks send to another node in a round with shift `distance`.
long ranks_leaving_node(long ranks, long ranks_per_node, long distance);

}  // namespace a2afft::detail::schedule
