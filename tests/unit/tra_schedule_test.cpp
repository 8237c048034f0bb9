#include "schedule/tra.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace a2afft::detail::schedule {
namespace {

TEST(RadixDigits, integer_arithmetic_at_the_edges) {
  EXPECT_EQ(radix_digits(0, 2), 0);
  EXPECT_EQ(radix_digits(1, 2), 1);
  EXPECT_EQ(radix_digits(7, 2), 3);
  EXPECT_EQ(radix_digits(8, 2), 4);
  EXPECT_EQ(radix_digits(16383, 128), 2);
  EXPECT_EQ(radix_digits(999999, 1000), 2);  // log() would round 10^6-1 in base 1000 badly
  EXPECT_EQ(radix_digits(242, 3), 5);        // 3^5 - 1
  EXPECT_EQ(radix_digit(5, 0, 3), 2);        // 5 = 12 in base 3
  EXPECT_EQ(radix_digit(5, 1, 3), 1);
}

// Simulates TRA on all P ranks in one process: each rank starts with block i (by distance) for
// rank p + i; every round moves the listed blocks to rank p + distance. At the end rank q must
// hold, at distance i, exactly the block that rank q - i sent, each moved once per round.
TEST(TraSchedule, every_block_arrives_exactly_once_for_every_p_and_radix) {
  for (long ranks = 1; ranks <= 64; ++ranks) {
    for (long radix = 2; radix <= std::max(2L, ranks); ++radix) {
      // holder[p][i] = the source rank of the block rank p holds at distance slot i.
      std::vector<std::vector<long>> origin(ranks, std::vector<long>(ranks));
      for (long p = 0; p < ranks; ++p) {
        for (long i = 0; i < ranks; ++i)
          origin[p][i] = p;
      }
      std::vector<long> moves(ranks, 0);
      for (const TraRound& round : tra_rounds(ranks, radix)) {
        ASSERT_FALSE(round.blocks.empty());
        auto next = origin;
        for (long p = 0; p < ranks; ++p) {
          const long to = rank_after(p, round.distance, ranks);
          for (long i : round.blocks) {
            ASSERT_EQ(radix_digit(i, round.position, radix), round.value);
            next[to][i] = origin[p][i];
            ++moves[i];
          }
        }
        origin = std::move(next);
      }
      for (long p = 0; p < ranks; ++p) {
        for (long i = 0; i < ranks; ++i) {
          ASSERT_EQ(origin[p][i], rank_before(p, i, ranks))
              << "P=" << ranks << " r=" << radix << " rank " << p << " distance " << i;
        }
      }
      // Each block moves once per hop: it reaches its rank exactly once.
      for (long i = 1; i < ranks; ++i) {
        ASSERT_EQ(moves[i], tra_hops(i, radix).count * ranks)
            << "P=" << ranks << " r=" << radix << " i=" << i;
      }
    }
  }
}

TEST(TraHops, one_per_non_zero_digit_lowest_first) {
  const TraHops hops = tra_hops(47, 3);  // 47 = 1202 in base 3
  EXPECT_EQ(hops.count, 3);
  EXPECT_EQ(hops.first_position, 0);
  EXPECT_EQ(hops.last_position, 3);
  EXPECT_EQ(tra_hops(9, 3).count, 1);  // 100: one hop, at digit 2
  EXPECT_EQ(tra_hops(9, 3).first_position, 2);
  EXPECT_EQ(tra_hops(0, 3).count, 0);
  EXPECT_EQ(rank_after(5, 4, 7), 2);
  EXPECT_EQ(rank_before(1, 4, 7), 4);
  EXPECT_EQ(rank_before(1, 11, 7), 4);  // distances beyond P wrap
}

TEST(TraCounts, formulas_equal_the_counted_schedule_for_p_up_to_300) {
  for (long ranks = 1; ranks <= 300; ++ranks) {
    for (long radix = 2; radix <= std::max(2L, ranks); ++radix) {
      const TraCounts counted = tra_counts_by_schedule(ranks, radix);
      ASSERT_EQ(tra_counts_by_formula(ranks, radix), counted) << "P=" << ranks << " r=" << radix;
      long listed_blocks = 0;
      const auto rounds = tra_rounds(ranks, radix);
      for (const TraRound& round : rounds) {
        listed_blocks += static_cast<long>(round.blocks.size());
        ASSERT_EQ(tra_round_blocks_by_formula(ranks, radix, round.position, round.value),
                  static_cast<long>(round.blocks.size()));
      }
      ASSERT_EQ(counted, (TraCounts{static_cast<long>(rounds.size()), listed_blocks}));
    }
  }
}

TEST(TraCounts, the_papers_figures) {
  EXPECT_EQ(tra_counts_by_formula(16384, 128), (TraCounts{254, 32512}));
  EXPECT_EQ(tra_counts_by_formula(16384, 2).blocks, 114688);
  EXPECT_EQ(tra_counts_by_formula(11, 3).rounds, 5);
  EXPECT_EQ(tra_counts_by_schedule(16384, 128), (TraCounts{254, 32512}));
  EXPECT_EQ(tra_counts_by_schedule(16384, 2).blocks, 114688);
  // r = P is the direct algorithm: P-1 rounds of one block.
  EXPECT_EQ(tra_counts_by_formula(1000, 1000), (TraCounts{999, 999}));
}

TEST(TraCounts, formulas_scale_to_a_million_ranks) {
  EXPECT_EQ(tra_counts_by_formula(1000000, 1000), tra_counts_by_schedule(1000000, 1000));
  EXPECT_EQ(tra_counts_by_formula(1000000, 2).rounds, 20);
}

TEST(Tra2Counts, phases_are_tra_on_super_blocks) {
  // 4 nodes of 8: intra TRA on 8 ranks carries super-blocks of 4, inter TRA on 4 of 8.
  const Tra2Counts counts = tra2_counts(8, 4, 3, 4);
  EXPECT_EQ(counts.intra.rounds, tra_counts_by_formula(8, 3).rounds);
  EXPECT_EQ(counts.intra.blocks, tra_counts_by_formula(8, 3).blocks * 4);
  EXPECT_EQ(counts.inter.rounds, 3);
  EXPECT_EQ(counts.inter.blocks, 3 * 8);
  EXPECT_EQ(tra2_counts(1, 6, 2, 6).intra, (TraCounts{}));
}

TEST(DefaultRadix, is_the_ceiling_of_the_square_root) {
  EXPECT_EQ(default_radix(1), 2);
  EXPECT_EQ(default_radix(2), 2);
  EXPECT_EQ(default_radix(5), 3);
  EXPECT_EQ(default_radix(16), 4);
  EXPECT_EQ(default_radix(17), 5);
  EXPECT_EQ(default_radix(16384), 128);
}

}  // namespace
}  // namespace a2afft::detail::schedule
