#include "schedule/cost_model.hpp"

#include <algorithm>

#include "schedule/tra.hpp"

namespace a2afft::detail::schedule {
namespace {

double message_seconds(const LinkCost& link, double bytes) {
  return link.alpha_seconds + bytes * link.beta_seconds_per_byte;
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
  const double bytes = static_cast<double>(inputs.block_bytes);
  for (long distance = 1; distance < inputs.ranks; ++distance) {
    const long leaving = ranks_leaving_node(inputs.ranks, inputs.ranks_per_node, distance);
    ++result.rounds;
    ++result.blocks;
    result.inter_node_messages_per_node += leaving;
    result.seconds += message_seconds(leaving > 0 ? inputs.inter : inputs.intra, bytes);
  }
  result.bytes_per_rank = static_cast<double>(result.blocks) * bytes;
  return result;
}

}  // namespace a2afft::detail::schedule
