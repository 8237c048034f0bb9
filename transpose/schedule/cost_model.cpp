#include "schedule/cost_model.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "schedule/tra.hpp"

namespace a2afft::detail::schedule {
namespace {

double message_seconds(const LinkCost& link, double bytes) {
  return link.alpha_seconds + bytes * link.beta_seconds_per_byte;
}

// The P - 1 rounds of a direct exchange among `members` numbered node by node, `per_node` on
// each node, every message `blocks` blocks: round d pairs member i with i + d, and costs its
// slowest message, inter-node when any member's partner is on another node. Each member's
// message is sent by `senders` ranks (the leaders of a region), for the inter-node count.
void add_direct_rounds(ModelResult& result, const ModelInputs& inputs, long members, long per_node,
                       long blocks, long senders) {
  const double bytes = static_cast<double>(blocks) * static_cast<double>(inputs.block_bytes);
  for (long distance = 1; distance < members; ++distance) {
    const long leaving = ranks_leaving_node(members, per_node, distance);
    ++result.rounds;
    result.blocks += blocks;
    result.inter_node_messages_per_node += leaving * senders;
    result.inter_node_bytes_per_node += static_cast<double>(leaving * senders) * bytes;
    result.seconds += message_seconds(leaving > 0 ? inputs.inter : inputs.intra, bytes);
  }
}

// `count` rounds of one intra-node message of `blocks` blocks each, sent by the charged rank
// when `sends` (a scatter, the second step) and received by it otherwise (a gather).
void add_intra_rounds(ModelResult& result, const ModelInputs& inputs, long count, long blocks,
                      bool sends) {
  const double bytes = static_cast<double>(blocks) * static_cast<double>(inputs.block_bytes);
  result.rounds += count;
  if (sends) result.blocks += count * blocks;
  result.seconds += static_cast<double>(count) * message_seconds(inputs.intra, bytes);
}

void require(bool condition, const std::string& what) {
  if (!condition) throw std::invalid_argument(what);
}

}  // namespace

long ranks_leaving_node(long ranks, long ranks_per_node, long distance) {
  // Node 0's ranks l < Q stay home when (l + d) mod P < Q, i.e. l < Q - d or l >= P - d.
  const long shift = distance % ranks;
  const long stay_below = std::max(0L, ranks_per_node - shift);
  const long stay_wrapped = std::max(0L, ranks_per_node - (ranks - shift));
  return ranks_per_node - std::min(ranks_per_node, stay_below + stay_wrapped);
}

ModelResult model_tra(const ModelInputs& inputs, long radix) {
  ModelResult result;
  result.algorithm = "tra(radix=" + std::to_string(radix) + ")";
  const long width = radix_digits(inputs.ranks - 1, radix);
  for (int position = 0; position < width; ++position) {
    const long place = integer_power(radix, position);
    for (long value = 1; value < radix; ++value) {
      const long blocks = tra_round_blocks_by_formula(inputs.ranks, radix, position, value);
      if (blocks == 0) continue;
      const long leaving = ranks_leaving_node(inputs.ranks, inputs.ranks_per_node, value * place);
      const double bytes = static_cast<double>(blocks) * static_cast<double>(inputs.block_bytes);
      ++result.rounds;
      result.blocks += blocks;
      result.inter_node_messages_per_node += leaving;
      result.inter_node_bytes_per_node += static_cast<double>(leaving) * bytes;
      result.seconds += message_seconds(leaving > 0 ? inputs.inter : inputs.intra, bytes);
    }
  }
  result.bytes_per_rank =
      static_cast<double>(result.blocks) * static_cast<double>(inputs.block_bytes);
  return result;
}

ModelResult model_tra2(const ModelInputs& inputs, long intra_radix, long inter_radix) {
  const long nodes = inputs.ranks / inputs.ranks_per_node;
  const Tra2Counts counts = tra2_counts(inputs.ranks_per_node, nodes, intra_radix, inter_radix);
  const double block_bytes = static_cast<double>(inputs.block_bytes);
  ModelResult result;
  result.algorithm =
      "tra2(r1=" + std::to_string(intra_radix) + ",r2=" + std::to_string(inter_radix) + ")";
  result.rounds = counts.intra.rounds + counts.inter.rounds;
  result.blocks = counts.intra.blocks + counts.inter.blocks;
  result.bytes_per_rank = static_cast<double>(result.blocks) * block_bytes;
  result.inter_node_messages_per_node = counts.inter.rounds * inputs.ranks_per_node;
  result.inter_node_bytes_per_node =
      static_cast<double>(counts.inter.blocks * inputs.ranks_per_node) * block_bytes;
  // Every round of a phase carries the same super-block size on average; charge D per phase.
  result.seconds =
      static_cast<double>(counts.intra.rounds) * inputs.intra.alpha_seconds +
      static_cast<double>(counts.intra.blocks) * block_bytes * inputs.intra.beta_seconds_per_byte +
      static_cast<double>(counts.inter.rounds) * inputs.inter.alpha_seconds +
      static_cast<double>(counts.inter.blocks) * block_bytes * inputs.inter.beta_seconds_per_byte;
  return result;
}

ModelResult model_direct(const ModelInputs& inputs, const std::string& algorithm) {
  ModelResult result;
  result.algorithm = algorithm;
  add_direct_rounds(result, inputs, inputs.ranks, inputs.ranks_per_node, 1, 1);
  result.bytes_per_rank =
      static_cast<double>(result.blocks) * static_cast<double>(inputs.block_bytes);
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
  ModelResult result;
  result.algorithm = family.algorithm;
  add_intra_rounds(result, inputs, ppl - 1, inputs.ranks, false);  // gather
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
    add_intra_rounds(result, inputs, m - 1, regions * super_block, true);
  }
  add_intra_rounds(result, inputs, ppl - 1, inputs.ranks, true);  // scatter
  result.bytes_per_rank =
      static_cast<double>(result.blocks) * static_cast<double>(inputs.block_bytes);
  return result;
}

ModelResult model_shared_leaders(const ModelInputs& inputs, const SharedLeaderModel& row) {
  const long per_node = inputs.ranks_per_node;
  require(row.leaders >= 1 && row.leaders <= per_node,
          row.algorithm + ": leaders=" + std::to_string(row.leaders) +
              " is not 1..Q=" + std::to_string(per_node));
  const long nodes = inputs.ranks / per_node;
  const long served = (nodes - 1 + row.leaders - 1) / row.leaders;  // node offsets per leader
  const double block_bytes = static_cast<double>(inputs.block_bytes);
  const double message_bytes = static_cast<double>(per_node * per_node) * block_bytes;
  const double gather = message_bytes * inputs.intra.beta_seconds_per_byte;
  const double send = message_seconds(inputs.inter, message_bytes);
  const double scatter = gather;
  const double own_node =
      static_cast<double>(per_node) * block_bytes * inputs.intra.beta_seconds_per_byte;
  const double barriers =
      2 * std::ceil(std::log2(static_cast<double>(per_node))) * inputs.intra.alpha_seconds;
  double messages = static_cast<double>(served) * (gather + send + scatter);
  if (row.overlap && served > 0) {
    messages = gather + send + scatter +
               static_cast<double>(served - 1) * std::max({gather, send, scatter});
  }
  ModelResult result;
  result.algorithm = row.algorithm;
  result.rounds = served;
  result.blocks = served * per_node * per_node;
  result.bytes_per_rank = static_cast<double>(result.blocks) * block_bytes;
  result.inter_node_messages_per_node = nodes - 1;
  result.inter_node_bytes_per_node = static_cast<double>(nodes - 1) * message_bytes;
  result.seconds = (row.overlap ? std::max(messages, own_node) : messages + own_node) + barriers;
  return result;
}

}  // namespace a2afft::detail::schedule
