#include "schedule/cost_model.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <utility>

#include "schedule/tra.hpp"

namespace a2afft::detail::schedule {
namespace {

// Flows counted by where they go (another switch, another group): the busiest destination's
// count is what its one link carries. Few destinations, so a short list searched in order.
class BusiestDestination {
 public:
  void add(long destination, long flows) {
    auto found = std::find_if(counts_.begin(), counts_.end(),
                              [&](const auto& entry) { return entry.first == destination; });
    if (found == counts_.end()) found = counts_.insert(counts_.end(), {destination, 0});
    found->second += flows;
    busiest_ = std::max(busiest_, found->second);
  }
  long busiest() const { return busiest_; }

 private:
  std::vector<std::pair<long, long>> counts_;  // (destination, flows)
  long busiest_ = 0;
};

// One side of a round: `senders` ranks of the node send `bytes` each over `link` at once, sharing
// `node_rate` (0: no shared limit); what the sharing adds beyond one rank's own rate is
// `contention` (injection off-node, copy on-node).
ModelTerms side_terms(const LinkCost& link, double bytes, long senders, double node_rate,
                      double ModelTerms::*contention) {
  ModelTerms terms;
  terms.latency_seconds = link.alpha_seconds;
  terms.bandwidth_seconds = bytes * link.beta_seconds_per_byte;
  if (node_rate > 0) {
    const double shared = static_cast<double>(senders) * bytes / node_rate;
    terms.*contention = std::max(0.0, shared - terms.bandwidth_seconds);
  }
  return terms;
}

// A message's link with SimGrid's factors of its size: alpha x the latency factor, beta / the
// bandwidth factor, and off-node also / (1 + the reverse flows' share) (crosstraffic: every
// link of an exchange carries the other direction's flows at that weight).
LinkCost scaled_link(const ModelInputs& inputs, const LinkCost& link, double message_bytes,
                     bool off_node) {
  const double reverse = off_node ? 1 + inputs.reverse_flow_share : 1;
  return {
      link.alpha_seconds * size_factor(inputs.latency_factors, message_bytes),
      link.beta_seconds_per_byte * reverse / size_factor(inputs.bandwidth_factors, message_bytes)};
}

// A shared off-node rate (R_N, a switch link) as messages of `message_bytes` get it.
double scaled_rate(const ModelInputs& inputs, double rate, double message_bytes) {
  return rate * size_factor(inputs.bandwidth_factors, message_bytes) /
         (1 + inputs.reverse_flow_share);
}

// The busiest switch link's share: `crossing` ranks' `bytes` through it, beyond what the
// node's own link and R_N already charge, is added to the injection term (the shared links).
void add_switch_link(ModelTerms& off, const ModelInputs& inputs, const RoundLoad& round,
                     double bytes) {
  if (round.crossing <= 0 || inputs.switch_link_bytes_per_second <= 0) return;
  const double rate = scaled_rate(inputs, inputs.switch_link_bytes_per_second, round.bytes);
  const double shared = static_cast<double>(round.crossing) * bytes / rate;
  off.injection_seconds = std::max(off.injection_seconds, shared - off.bandwidth_seconds);
}

ModelResult priced(std::string algorithm) {
  ModelResult result;
  result.algorithm = std::move(algorithm);
  return result;
}

// Sets bytes per rank from D and seconds from the terms.
void finish(ModelResult& result, const ModelInputs& inputs) {
  result.bytes_per_rank =
      static_cast<double>(result.blocks) * static_cast<double>(inputs.block_bytes);
  result.seconds = total_seconds(result.terms);
}

double bytes_of(const ModelInputs& inputs, long blocks) {
  return static_cast<double>(blocks) * static_cast<double>(inputs.block_bytes);
}

// The charged rank copies `calls` chunks of `chunk_blocks` blocks each on the host.
void add_host_copies(ModelResult& result, const ModelInputs& inputs, long calls,
                     long chunk_blocks) {
  result.terms.host_copy_seconds +=
      host_copy_seconds(inputs, static_cast<double>(calls),
                        static_cast<double>(calls) * bytes_of(inputs, chunk_blocks));
}

// What a TRA among `members` with `radix` copies on the host, every block `unit` blocks: its
// own block (BlockTransfer::copy_own) and each packed round's blocks twice (pack, unpack).
void add_tra_copies(ModelResult& result, const ModelInputs& inputs, long members, long radix,
                    long unit) {
  add_host_copies(result, inputs, 1, unit);
  add_host_copies(result, inputs, 2 * tra_packed_blocks(members, radix), unit);
}

// The P - 1 rounds of a direct exchange among `members` numbered node by node, `per_node` on
// each node, every message `blocks` blocks: round d pairs member i with i + d, and costs its
// slowest message. Each member's message is sent by `senders` ranks (the leaders of a region):
// they share the node's links together.
void add_direct_rounds(ModelResult& result, const ModelInputs& inputs, long members, long per_node,
                       long blocks, long senders) {
  const double bytes = bytes_of(inputs, blocks);
  for (long distance = 1; distance < members; ++distance) {
    const long leaving = ranks_leaving_node(members, per_node, distance);
    ++result.rounds;
    result.blocks += blocks;
    result.inter_node_messages_per_node += leaving * senders;
    result.inter_node_bytes_per_node += static_cast<double>(leaving * senders) * bytes;
    const long crossing =
        switch_link_flows(members, per_node, inputs.nodes_per_switch, distance) * senders;
    add_terms(result.terms, round_terms(inputs, {bytes, 1, leaving * senders,
                                                 (per_node - leaving) * senders, crossing}));
  }
}

// `count` rounds of one intra-node message of `blocks` blocks each, `concurrent` of the node's
// ranks sending at once; sent by the charged rank when `sends` (the second step) and received by
// it otherwise.
void add_intra_rounds(ModelResult& result, const ModelInputs& inputs, long count, long blocks,
                      long concurrent, bool sends) {
  if (count <= 0) return;
  result.rounds += count;
  if (sends) result.blocks += count * blocks;
  add_terms(result.terms, round_terms(inputs, {bytes_of(inputs, blocks), 1, 0, concurrent}),
            static_cast<double>(count));
}

// An MPI_Gather (or, `sends`, an MPI_Scatter) of `chunk_blocks` blocks per member among
// `members` ranks of a node, `groups` of them on the node at once, as a binomial tree: what the
// simulated studies run (gather/scatter:ompi_binomial, scripts/simulate) and Open MPI's choice
// for small messages. The root meets ceil(log2 n) messages, the one of span s (1, 2, 4, ...)
// carrying min(s, n - s) chunks, (n - 1) chunks in all; in that round every member whose index
// is s modulo 2s sends. One MPI call: the rounds run inside the library, so a2afft's own work
// between MPI calls (the round overhead) is paid once for the call.
void add_binomial_collective(ModelResult& result, const ModelInputs& inputs, long members,
                             long chunk_blocks, long groups, bool sends) {
  long rounds = 0;
  for (long span = 1; span < members; span *= 2, ++rounds) {
    const long blocks = std::min(span, members - span) * chunk_blocks;
    const long senders = groups * ((members - 1 - span) / (2 * span) + 1);
    ++result.rounds;
    if (sends) result.blocks += blocks;
    add_terms(result.terms, round_terms(inputs, {bytes_of(inputs, blocks), 1, 0, senders}));
  }
  if (rounds > 1)
    result.terms.overhead_seconds -=
        static_cast<double>(rounds - 1) * inputs.round_overhead_seconds;
}

// tra2's phase 2: TRA among the N nodes with `radix`, every message Q times the node-level
// blocks (one super-block per local rank), all Q ranks of a node leaving it at once.
void add_tra2_inter_rounds(ModelResult& result, const ModelInputs& inputs, long radix) {
  const long per_node = inputs.ranks_per_node;
  const long nodes = inputs.ranks / per_node;
  if (nodes < 2) return;
  const int width = radix_digits(nodes - 1, radix);
  for (int position = 0; position < width; ++position) {
    const long place = integer_power(radix, position);
    for (long value = 1; value < radix; ++value) {
      const long blocks = tra_round_blocks_by_formula(nodes, radix, position, value) * per_node;
      if (blocks == 0) continue;
      const long distance = value * place * per_node;
      const long crossing =
          switch_link_flows(inputs.ranks, per_node, inputs.nodes_per_switch, distance);
      add_terms(result.terms,
                round_terms(inputs, {bytes_of(inputs, blocks), 1, per_node, 0, crossing}));
    }
  }
}

// tra2's host copies (Tra2Exchange::run): with both layers, the P blocks packed into
// super-blocks by local rank, the intra TRA's copies (super-blocks of N blocks), the P blocks
// transposed by node, and the inter TRA's (super-blocks of Q blocks); ranks numbered node by
// node, so no unpack. With one layer, that layer's TRA alone, block by block.
void add_tra2_copies(ModelResult& result, const ModelInputs& inputs, long intra_radix,
                     long inter_radix) {
  const long per_node = inputs.ranks_per_node;
  const long nodes = inputs.ranks / per_node;
  if (nodes == 1 || per_node == 1) {
    add_tra_copies(result, inputs, inputs.ranks, nodes == 1 ? intra_radix : inter_radix, 1);
    return;
  }
  add_host_copies(result, inputs, 2 * inputs.ranks, 1);
  add_tra_copies(result, inputs, per_node, intra_radix, nodes);
  add_tra_copies(result, inputs, nodes, inter_radix, per_node);
}

// The node-aware family's host copies on a leader (NodeAwareFamilyExchange, ranks in canonical
// order): with ppl > 1 the gathered ppl x P blocks transposed into super-blocks (P chunks of ppl
// blocks) and back out per member (ppl P chunks of one block); two-step, the R x m super-blocks
// transposed twice (P/ppl chunks of ppl^2 blocks each time); each inner direct exchange's own
// (super-)block. hierarchical's one leader copies its whole node's 2 Q P blocks.
void add_family_copies(ModelResult& result, const ModelInputs& inputs, long ppl, bool two_step,
                       long groups_per_region) {
  const long super_block = ppl * ppl;
  const long leaders = inputs.ranks / ppl;
  if (ppl > 1) {
    add_host_copies(result, inputs, inputs.ranks, ppl);
    add_host_copies(result, inputs, inputs.ranks * ppl, 1);
  }
  if (!two_step) {
    add_host_copies(result, inputs, 1, super_block);
    return;
  }
  add_host_copies(result, inputs, 2 * leaders, super_block);
  add_host_copies(result, inputs, 1, groups_per_region * super_block);
  add_host_copies(result, inputs, 1, leaders / groups_per_region * super_block);
}

void require(bool condition, const std::string& what) {
  if (!condition) throw std::invalid_argument(what);
}

}  // namespace

ModelTerms round_terms(const ModelInputs& inputs, const RoundLoad& round) {
  const double bytes = static_cast<double>(round.messages) * round.bytes;
  ModelTerms slower;
  if (round.on_node > 0 || round.off_node == 0) {
    slower = side_terms(scaled_link(inputs, inputs.intra, round.bytes, false), bytes, round.on_node,
                        inputs.node_copy_bytes_per_second, &ModelTerms::copy_seconds);
  }
  if (round.off_node > 0) {
    ModelTerms off =
        side_terms(scaled_link(inputs, inputs.inter, round.bytes, true), bytes, round.off_node,
                   scaled_rate(inputs, inputs.node_injection_bytes_per_second, round.bytes),
                   &ModelTerms::injection_seconds);
    add_switch_link(off, inputs, round, bytes);
    if (round.on_node == 0 || total_seconds(off) >= total_seconds(slower)) slower = off;
  }
  slower.overhead_seconds =
      static_cast<double>(std::max(0L, round.messages - 1)) * inputs.message_overhead_seconds +
      inputs.round_overhead_seconds;
  return slower;
}

double size_factor(const std::vector<SizeFactor>& factors, double message_bytes) {
  double factor = 1;
  double threshold = -1;
  for (const SizeFactor& entry : factors) {
    if (message_bytes > entry.above_bytes && entry.above_bytes > threshold) {
      threshold = entry.above_bytes;
      factor = entry.factor;
    }
  }
  return factor;
}

long switch_link_flows(long members, long per_node, long per_switch, long distance) {
  const long nodes = members / per_node;
  const long shift = distance % members;
  if (per_switch <= 0 || nodes <= per_switch || shift == 0) return 0;
  // Members l < per_node - spill of a node go node_shift nodes on, the other spill one further.
  const long node_shift = shift / per_node;
  const long spill = shift % per_node;
  BusiestDestination to_switch;
  for (long node = 0; node < per_switch; ++node) {
    const std::pair<long, long> parts[] = {{node_shift, per_node - spill}, {node_shift + 1, spill}};
    for (const auto& [offset, count] : parts) {
      const long target = (node + offset) % nodes / per_switch;
      if (count != 0 && target != 0) to_switch.add(target, count);
    }
  }
  return to_switch.busiest();
}

ModelInputs measured_inputs(long ranks, long ranks_per_node, std::size_t block_bytes,
                            const MeasuredLinks& links) {
  ModelInputs inputs{ranks, ranks_per_node, block_bytes, links.intra, links.inter};
  inputs.node_injection_bytes_per_second = links.node_injection_bytes_per_second;
  inputs.node_copy_bytes_per_second = links.node_copy_bytes_per_second;
  inputs.message_overhead_seconds = links.message_overhead_seconds;
  inputs.round_overhead_seconds = links.round_overhead_seconds;
  inputs.host_copy_bytes_per_second = links.host_copy_bytes_per_second;
  inputs.host_copy_call_seconds = links.host_copy_call_seconds;
  inputs.latency_factors = links.latency_factors;
  inputs.bandwidth_factors = links.bandwidth_factors;
  inputs.node_sync_stage_seconds = links.node_sync_stage_seconds;
  return inputs;
}

SizeFactors bent_line(const LinkCost& line, const std::vector<MessageTrip>& trips,
                      double line_end_bytes) {
  constexpr double kOnTheLine = 0.05;  // within this share of the line: noise, not a bend
  SizeFactors factors;
  for (const MessageTrip& trip : trips) {
    const double on_line = line.alpha_seconds + trip.bytes * line.beta_seconds_per_byte;
    double latency = 1, bandwidth = 1;
    if (trip.seconds > on_line * (1 + kOnTheLine) && line.alpha_seconds > 0) {
      latency = (trip.seconds - trip.bytes * line.beta_seconds_per_byte) / line.alpha_seconds;
    } else if (trip.seconds < on_line * (1 - kOnTheLine) && trip.seconds > line.alpha_seconds) {
      bandwidth = trip.bytes * line.beta_seconds_per_byte / (trip.seconds - line.alpha_seconds);
    }
    // SizeFactor applies to messages larger than its threshold: from trip.bytes on.
    factors.latency.push_back({trip.bytes - 1, latency});
    factors.bandwidth.push_back({trip.bytes - 1, bandwidth});
  }
  factors.latency.push_back({line_end_bytes - 1, 1});
  factors.bandwidth.push_back({line_end_bytes - 1, 1});
  return factors;
}

double total_seconds(const ModelTerms& terms) {
  return terms.latency_seconds + terms.overhead_seconds + terms.bandwidth_seconds +
         terms.injection_seconds + terms.copy_seconds + terms.host_copy_seconds;
}

void add_terms(ModelTerms& terms, const ModelTerms& more, double times) {
  terms.latency_seconds += times * more.latency_seconds;
  terms.overhead_seconds += times * more.overhead_seconds;
  terms.bandwidth_seconds += times * more.bandwidth_seconds;
  terms.injection_seconds += times * more.injection_seconds;
  terms.copy_seconds += times * more.copy_seconds;
  terms.host_copy_seconds += times * more.host_copy_seconds;
}

double host_copy_seconds(const ModelInputs& inputs, double calls, double bytes) {
  const double rate = inputs.host_copy_bytes_per_second;
  return calls * inputs.host_copy_call_seconds + (rate > 0 ? bytes / rate : 0);
}

long tra_packed_blocks(long members, long radix) {
  if (members < 2) return 0;
  long packed = 0;
  const int width = radix_digits(members - 1, radix);
  for (int position = 0; position < width; ++position) {
    for (long value = 1; value < radix; ++value) {
      const long blocks = tra_round_blocks_by_formula(members, radix, position, value);
      if (blocks > 1) packed += blocks;
    }
  }
  return packed;
}

long ranks_leaving_node(long ranks, long ranks_per_node, long distance) {
  // Node 0's ranks l < Q stay home when (l + d) mod P < Q, i.e. l < Q - d or l >= P - d.
  const long shift = distance % ranks;
  const long stay_below = std::max(0L, ranks_per_node - shift);
  const long stay_wrapped = std::max(0L, ranks_per_node - (ranks - shift));
  return ranks_per_node - std::min(ranks_per_node, stay_below + stay_wrapped);
}

ModelResult model_tra(const ModelInputs& inputs, long radix) {
  ModelResult result = priced("tra(radix=" + std::to_string(radix) + ")");
  const long width = radix_digits(inputs.ranks - 1, radix);
  const long per_node = inputs.ranks_per_node;
  for (int position = 0; position < width; ++position) {
    const long place = integer_power(radix, position);
    for (long value = 1; value < radix; ++value) {
      const long blocks = tra_round_blocks_by_formula(inputs.ranks, radix, position, value);
      if (blocks == 0) continue;
      const long leaving = ranks_leaving_node(inputs.ranks, per_node, value * place);
      const double bytes = bytes_of(inputs, blocks);
      ++result.rounds;
      result.blocks += blocks;
      result.inter_node_messages_per_node += leaving;
      result.inter_node_bytes_per_node += static_cast<double>(leaving) * bytes;
      const long crossing =
          switch_link_flows(inputs.ranks, per_node, inputs.nodes_per_switch, value * place);
      add_terms(result.terms,
                round_terms(inputs, {bytes, 1, leaving, per_node - leaving, crossing}));
    }
  }
  add_tra_copies(result, inputs, inputs.ranks, radix, 1);
  finish(result, inputs);
  return result;
}

ModelResult model_tra2(const ModelInputs& inputs, long intra_radix, long inter_radix) {
  const long per_node = inputs.ranks_per_node;
  const long nodes = inputs.ranks / per_node;
  const Tra2Counts counts = tra2_counts(per_node, nodes, intra_radix, inter_radix);
  ModelResult result =
      priced("tra2(r1=" + std::to_string(intra_radix) + ",r2=" + std::to_string(inter_radix) + ")");
  result.rounds = counts.intra.rounds + counts.inter.rounds;
  result.blocks = counts.intra.blocks + counts.inter.blocks;
  result.inter_node_messages_per_node = counts.inter.rounds * per_node;
  result.inter_node_bytes_per_node = bytes_of(inputs, counts.inter.blocks * per_node);
  // Phase 1 is priced as its rounds of the mean super-block, all Q ranks inside the node at
  // once; phase 2 round by round (its node distance decides the switch links it loads), all Q
  // ranks leaving the node at once.
  if (counts.intra.rounds > 0) {
    const double bytes =
        bytes_of(inputs, counts.intra.blocks) / static_cast<double>(counts.intra.rounds);
    add_terms(result.terms, round_terms(inputs, {bytes, 1, 0, per_node}),
              static_cast<double>(counts.intra.rounds));
  }
  add_tra2_inter_rounds(result, inputs, inter_radix);
  add_tra2_copies(result, inputs, intra_radix, inter_radix);
  finish(result, inputs);
  return result;
}

ModelResult model_direct(const ModelInputs& inputs, const std::string& algorithm) {
  ModelResult result = priced(algorithm);
  add_direct_rounds(result, inputs, inputs.ranks, inputs.ranks_per_node, 1, 1);
  add_host_copies(result, inputs, 1, 1);  // its own block
  finish(result, inputs);
  return result;
}

namespace {

// In a round pairing i with i XOR `distance`: of members 0 .. group - 1, how many pair outside
// the group, and the most that pair into one other group.
struct XorSpread {
  long leaving = 0;
  long busiest = 0;
};

XorSpread xor_spread(long group, long distance) {
  if ((group & (group - 1)) == 0) {  // a power of two: all or none leave, all to one group
    const long all = distance >= group ? group : 0;
    return {all, all};
  }
  XorSpread spread;
  BusiestDestination to_group;
  for (long member = 0; member < group; ++member) {
    const long target = (member ^ distance) / group;
    if (target == 0) continue;
    ++spread.leaving;
    to_group.add(target, 1);
  }
  spread.busiest = to_group.busiest();
  return spread;
}

}  // namespace

ModelResult model_xor_pairs(const ModelInputs& inputs, const std::string& algorithm) {
  const long ranks = inputs.ranks;
  const long per_node = inputs.ranks_per_node;
  require(ranks >= 1 && (ranks & (ranks - 1)) == 0,
          algorithm + ": XOR pairs need P a power of two, not P=" + std::to_string(ranks));
  const long per_switch = inputs.nodes_per_switch;
  const bool switches = per_switch > 0 && ranks / per_node > per_switch;
  const double bytes = bytes_of(inputs, 1);
  ModelResult result = priced(algorithm);
  for (long distance = 1; distance < ranks; ++distance) {
    const long leaving = xor_spread(per_node, distance).leaving;
    const long crossing = switches ? xor_spread(per_switch * per_node, distance).busiest : 0;
    ++result.rounds;
    ++result.blocks;
    result.inter_node_messages_per_node += leaving;
    result.inter_node_bytes_per_node += static_cast<double>(leaving) * bytes;
    add_terms(result.terms, round_terms(inputs, {bytes, 1, leaving, per_node - leaving, crossing}));
  }
  add_host_copies(result, inputs, 1, 1);  // its own block
  finish(result, inputs);
  return result;
}

namespace {

// The most of one switch's nodes (the first switch's) whose partner in node round `round` of
// ClusteredAllToAll, (round - a) mod N, is behind one other switch: they share its link.
long factor_hier_crossing_nodes(long nodes, long per_switch, long round) {
  if (per_switch <= 0 || nodes <= per_switch) return 0;
  BusiestDestination to_switch;
  for (long node = 0; node < per_switch; ++node) {
    const long target = ((round - node) % nodes + nodes) % nodes / per_switch;
    if (target != 0) to_switch.add(target, 1);
  }
  return to_switch.busiest();
}

// One node round of ClusteredAllToAll as it runs. Rank u's messages go to v = 0, 1, ... in turn
// and v's come from u = 0, 1, ... in turn; with no global step clock the round's Q^2 steps run
// as a wavefront, u meeting v at time u + v: 2Q - 1 message times, the t-th with
// min(t + 1, 2Q - 1 - t) of the node's ranks talking at once, off-node (each node's
// `crossing_nodes` ranks at that width through the busiest switch link) or, in the node's round
// with itself (`inside`), on-node.
ModelTerms wavefront_terms(const ModelInputs& inputs, bool inside, long crossing_nodes) {
  const double bytes = bytes_of(inputs, 1);
  ModelTerms terms;
  for (long width = 1; width <= inputs.ranks_per_node; ++width) {
    const RoundLoad load = inside ? RoundLoad{bytes, 1, 0, width}
                                  : RoundLoad{bytes, 1, width, 0, crossing_nodes * width};
    add_terms(terms, round_terms(inputs, load), width == inputs.ranks_per_node ? 1 : 2);
  }
  return terms;
}

}  // namespace

ModelResult model_factor_hier(const ModelInputs& inputs) {
  const long per_node = inputs.ranks_per_node;
  const long nodes = inputs.ranks / per_node;
  ModelResult result = priced("factor-hier");
  // Node 0 meets node `round` in that round (itself in round 0); equal crossings cost alike.
  std::map<long, ModelTerms> inter_by_crossing;
  for (long round = 0; round < nodes; ++round) {
    result.rounds += 2 * per_node - 1;
    if (round == 0) {
      add_terms(result.terms, wavefront_terms(inputs, true, 0));
      continue;
    }
    const long crossing = factor_hier_crossing_nodes(nodes, inputs.nodes_per_switch, round);
    auto found = inter_by_crossing.find(crossing);
    if (found == inter_by_crossing.end())
      found = inter_by_crossing.emplace(crossing, wavefront_terms(inputs, false, crossing)).first;
    add_terms(result.terms, found->second);
  }
  result.blocks = inputs.ranks - 1;
  result.inter_node_messages_per_node = per_node * (inputs.ranks - per_node);
  result.inter_node_bytes_per_node =
      static_cast<double>(result.inter_node_messages_per_node) * bytes_of(inputs, 1);
  add_host_copies(result, inputs, 1, 1);  // its own block
  finish(result, inputs);
  return result;
}

ModelResult model_node_aware(const ModelInputs& inputs, const NodeAwareModel& family) {
  const long per_node = inputs.ranks_per_node;
  const long ppl = family.ranks_per_leader;
  require(ppl >= 1 && per_node % ppl == 0, family.algorithm + ": ppl=" + std::to_string(ppl) +
                                               " does not divide Q=" + std::to_string(per_node));
  const long leaders_per_node = per_node / ppl;
  const long leaders = inputs.ranks / ppl;
  const long super_block = ppl * ppl;  // blocks from a leader group to a leader group
  ModelResult result = priced(family.algorithm);
  add_binomial_collective(result, inputs, ppl, inputs.ranks, leaders_per_node, false);
  if (!family.two_step) {
    add_direct_rounds(result, inputs, leaders, leaders_per_node, super_block, 1);
  } else {
    const long m = family.groups_per_region;
    require(m >= 1 && leaders_per_node % m == 0,
            family.algorithm + ": " + std::to_string(m) +
                " leader groups per region do not divide the " + std::to_string(leaders_per_node) +
                " of a node");
    const long regions = leaders / m;
    add_direct_rounds(result, inputs, regions, leaders_per_node / m, m * super_block, m);
    add_intra_rounds(result, inputs, m - 1, regions * super_block, leaders_per_node, true);
  }
  add_binomial_collective(result, inputs, ppl, inputs.ranks, leaders_per_node, true);
  add_family_copies(result, inputs, ppl, family.two_step, family.groups_per_region);
  finish(result, inputs);
  return result;
}

namespace {

// The stages of one shared-leader message: gather from node memory, send, scatter.
struct LeaderStages {
  ModelTerms gather, send, scatter;
};

// A shared-leader copy from or into node memory: `calls` memcpys of `bytes` in all, by
// `copying` ranks at once. With the host's copy rate given it is what it is, the rank's memcpy
// (host_copy_seconds); without, as before the host term, the intra-node link's beta with the
// node's copy rate shared by the copying ranks.
ModelTerms node_memory_copy(const ModelInputs& inputs, double calls, double bytes, long copying) {
  if (inputs.host_copy_bytes_per_second > 0 || inputs.host_copy_call_seconds > 0) {
    ModelTerms terms;
    terms.host_copy_seconds = host_copy_seconds(inputs, calls, bytes);
    return terms;
  }
  return side_terms({0, inputs.intra.beta_seconds_per_byte}, bytes, copying,
                    inputs.node_copy_bytes_per_second, &ModelTerms::copy_seconds);
}

// Q ranks per node: the gather reads Q runs of Q blocks (one per peer), the scatter writes Q^2
// blocks one by one (SharedLeaderExchange::gather, scatter).
LeaderStages leader_stages(const ModelInputs& inputs, long leaders, double message_bytes) {
  const auto per_node = static_cast<double>(inputs.ranks_per_node);
  LeaderStages stages;
  stages.gather = node_memory_copy(inputs, per_node, message_bytes, leaders);
  stages.scatter = node_memory_copy(inputs, per_node * per_node, message_bytes, leaders);
  stages.send =
      side_terms(scaled_link(inputs, inputs.inter, message_bytes, true), message_bytes, leaders,
                 scaled_rate(inputs, inputs.node_injection_bytes_per_second, message_bytes),
                 &ModelTerms::injection_seconds);
  stages.send.overhead_seconds = inputs.round_overhead_seconds;
  return stages;
}

// The most messages from one switch's nodes (the first switch's) that share its link to another
// switch when every node sends one to each node offset first..last: the shared leaders' round.
long switch_link_messages(long nodes, long per_switch, long first, long last) {
  if (per_switch <= 0 || nodes <= per_switch) return 0;
  BusiestDestination to_switch;
  for (long node = 0; node < per_switch; ++node) {
    for (long offset = first; offset <= last; ++offset) {
      const long target = (node + offset) % nodes / per_switch;
      if (target != 0) to_switch.add(target, 1);
    }
  }
  return to_switch.busiest();
}

}  // namespace

ModelResult model_shared_leaders(const ModelInputs& inputs, const SharedLeaderModel& row) {
  const long per_node = inputs.ranks_per_node;
  require(row.leaders >= 1 && row.leaders <= per_node,
          row.algorithm + ": leaders=" + std::to_string(row.leaders) +
              " is not 1..Q=" + std::to_string(per_node));
  const long nodes = inputs.ranks / per_node;
  const long served = (nodes - 1 + row.leaders - 1) / row.leaders;  // node offsets per leader
  const double message_bytes = bytes_of(inputs, per_node * per_node);
  const LeaderStages stages = leader_stages(inputs, row.leaders, message_bytes);
  // Every rank copies its own node's Q blocks, all Q ranks at once.
  const ModelTerms own_node =
      node_memory_copy(inputs, static_cast<double>(per_node), bytes_of(inputs, per_node), per_node);
  ModelTerms messages;
  for (long round = 0; round < served; ++round) {
    // Round j's leaders send to node offsets jL + 1 .. jL + L (served_offsets).
    const long first = round * row.leaders + 1;
    const long last = std::min(nodes - 1, first + row.leaders - 1);
    ModelTerms send = stages.send;
    const long crossing = switch_link_messages(nodes, inputs.nodes_per_switch, first, last);
    add_switch_link(send, inputs, {message_bytes, 1, row.leaders, 0, crossing}, message_bytes);
    const ModelTerms* sending = &send;
    if (!row.overlap || round == 0) {
      for (const ModelTerms* stage : {&stages.gather, sending, &stages.scatter})
        add_terms(messages, *stage);
      continue;
    }
    const ModelTerms* slowest = &stages.gather;
    for (const ModelTerms* stage : {sending, &stages.scatter})
      if (total_seconds(*stage) > total_seconds(*slowest)) slowest = stage;
    add_terms(messages, *slowest);
  }
  ModelResult result = priced(row.algorithm);
  result.rounds = served;
  result.blocks = served * per_node * per_node;
  result.inter_node_messages_per_node = nodes - 1;
  result.inter_node_bytes_per_node = static_cast<double>(nodes - 1) * message_bytes;
  const bool own_hidden = row.overlap && total_seconds(messages) >= total_seconds(own_node);
  result.terms = row.overlap && !own_hidden ? own_node : messages;
  if (!row.overlap) add_terms(result.terms, own_node);
  // Two node synchronisations of ceil(log2 Q) stages: measured, or each stage one zero-byte
  // message inside the node (a recursive-doubling barrier's).
  const double stage_seconds = inputs.node_sync_stage_seconds > 0
                                   ? inputs.node_sync_stage_seconds
                                   : scaled_link(inputs, inputs.intra, 0, false).alpha_seconds;
  result.terms.latency_seconds +=
      2 * std::ceil(std::log2(static_cast<double>(per_node))) * stage_seconds;
  finish(result, inputs);
  return result;
}

}  // namespace a2afft::detail::schedule
