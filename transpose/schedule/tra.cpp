#include "schedule/tra.hpp"

#include <algorithm>

namespace a2afft::detail::schedule {

int radix_digits(long value, long radix) {
  int digits = 0;
  for (; value > 0; value /= radix)
    ++digits;
  return digits;
}

long radix_digit(long value, int position, long radix) {
  for (int i = 0; i < position; ++i)
    value /= radix;
  return value % radix;
}

long integer_power(long radix, int exponent) {
  long result = 1;
  for (int i = 0; i < exponent; ++i)
    result *= radix;
  return result;
}

long rank_after(long rank, long distance, long ranks) {
  return (rank + distance % ranks) % ranks;
}

long rank_before(long rank, long distance, long ranks) {
  return (rank - distance % ranks + ranks) % ranks;
}

TraHops tra_hops(long distance, long radix) {
  TraHops hops;
  for (int position = 0; position < radix_digits(distance, radix); ++position) {
    if (radix_digit(distance, position, radix) == 0) continue;
    ++hops.count;
    if (hops.first_position < 0) hops.first_position = position;
    hops.last_position = position;
  }
  return hops;
}

// One pass over the blocks per digit position, each block dealt to the round of its digit: w P
// steps per rank. Scanning every block for every digit value, as the rounds are defined, took
// w (r - 1) P: P^1.5 at the default radix sqrt(P), P^2 at radix P (the planning study at scale,
// docs/results/simulated-scale.md).
std::vector<TraRound> tra_rounds(long ranks, long radix) {
  std::vector<TraRound> rounds;
  const int width = radix_digits(ranks - 1, radix);
  for (int position = 0; position < width; ++position) {
    const long place = integer_power(radix, position);
    // Digit values above (P - 1) / r^x never occur: no more rounds than there are values.
    const long values = std::min(radix, (ranks - 1) / place + 1);
    std::vector<TraRound> by_value;
    for (long value = 0; value < values; ++value)
      by_value.push_back({position, value, value * place, {}});
    for (long block = 1; block < ranks; ++block)
      by_value[static_cast<std::size_t>((block / place) % radix)].blocks.push_back(block);
    for (long value = 1; value < values; ++value) {
      TraRound& round = by_value[static_cast<std::size_t>(value)];
      if (!round.blocks.empty()) rounds.push_back(std::move(round));
    }
  }
  return rounds;
}

TraCounts tra_counts_by_schedule(long ranks, long radix) {
  TraCounts counts;
  const int width = radix_digits(ranks - 1, radix);
  for (int position = 0; position < width; ++position) {
    // How many distances i < P carry each digit value at this position.
    std::vector<long> carried(static_cast<std::size_t>(radix), 0);
    const long place = integer_power(radix, position);
    for (long block = 1; block < ranks; ++block)
      ++carried[(block / place) % radix];
    for (long value = 1; value < radix; ++value) {
      if (carried[value] == 0) continue;
      ++counts.rounds;
      counts.blocks += carried[value];
    }
  }
  return counts;
}

long tra_round_blocks_by_formula(long ranks, long radix, int position, long value) {
  const long place = integer_power(radix, position);      // r^x
  const long group = place * radix;                       // r^(x+1)
  const long last_group_blocks = ranks % group;           // lgc
  const long excess = last_group_blocks - value * place;  // t
  const long whole_groups = ranks / group * place;        // lc
  if (excess <= 0) return whole_groups;
  if (excess / place > 0) return whole_groups + place;
  return whole_groups + excess % place;
}

TraCounts tra_counts_by_formula(long ranks, long radix) {
  if (ranks <= 1) return {};
  const int width = radix_digits(ranks - 1, radix);  // w, so that r^(w-1) < P <= r^w
  const long full = integer_power(radix, width);
  TraCounts counts;
  if (ranks == full) {
    counts.rounds = width * (radix - 1);                                    // Proposition 1
    counts.blocks = width * (radix - 1) * integer_power(radix, width - 1);  // Proposition 2
    return counts;
  }
  counts.rounds = width * (radix - 1) - (full - ranks) / integer_power(radix, width - 1);  // 3
  for (int position = 0; position < width; ++position) {                                   // 4
    for (long value = 1; value < radix; ++value) {
      counts.blocks += tra_round_blocks_by_formula(ranks, radix, position, value);
    }
  }
  return counts;
}

Tra2Counts tra2_counts(long ranks_per_node, long nodes, long intra_radix, long inter_radix) {
  Tra2Counts counts{tra_counts_by_formula(ranks_per_node, intra_radix),
                    tra_counts_by_formula(nodes, inter_radix)};
  counts.intra.blocks *= nodes;
  counts.inter.blocks *= ranks_per_node;
  return counts;
}

long default_radix(long ranks) {
  long radix = 1;
  while (radix * radix < ranks)
    ++radix;
  return radix < 2 ? 2 : radix;
}

}  // namespace a2afft::detail::schedule
