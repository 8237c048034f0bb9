#include "schedule/factor.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "schedule/direct.hpp"

namespace a2afft::schedule {
namespace {

// For every P <= 64: each round is a perfect matching (partners agree), and over all rounds
// each rank meets every rank, itself included, exactly once.
TEST(FactorSchedule, every_pair_meets_once_and_partners_agree) {
  for (int ranks = 1; ranks <= 64; ++ranks) {
    ASSERT_EQ(factor_rounds(ranks), ranks);
    std::vector<std::vector<int>> meetings(ranks, std::vector<int>(ranks, 0));
    for (int round = 0; round < factor_rounds(ranks); ++round) {
      for (int rank = 0; rank < ranks; ++rank) {
        const int partner = factor_partner(round, rank, ranks);
        ASSERT_GE(partner, 0);
        ASSERT_LT(partner, ranks);
        ASSERT_EQ(factor_partner(round, partner, ranks), rank)
            << "P=" << ranks << " round " << round << " rank " << rank;
        ++meetings[rank][partner];
      }
    }
    for (int a = 0; a < ranks; ++a) {
      for (int b = 0; b < ranks; ++b) {
        ASSERT_EQ(meetings[a][b], 1) << "P=" << ranks << " ranks " << a << " and " << b;
      }
    }
  }
}

TEST(FactorSchedule, even_counts_concentrate_self_loops_in_the_last_round) {
  for (int ranks = 2; ranks <= 64; ranks += 2) {
    for (int rank = 0; rank < ranks; ++rank) {
      const std::vector<int> partners = factor_partners(rank, ranks);
      EXPECT_EQ(partners.back(), rank);
      for (int round = 0; round + 1 < ranks; ++round)
        EXPECT_NE(partners[round], rank);
    }
  }
}

TEST(FactorSchedule, odd_counts_follow_the_paper) {
  // Lemma 1: round i pairs u with (i - u) mod P; u's self-loop is in round 2u mod P.
  EXPECT_EQ(factor_partner(0, 1, 5), 4);
  EXPECT_EQ(factor_partner(3, 4, 5), 4);
  EXPECT_EQ(factor_partner(2, 1, 5), 1);
}

TEST(ShiftedSchedule, each_step_is_a_permutation_that_inverts) {
  for (int ranks = 1; ranks <= 64; ++ranks) {
    for (int step = 1; step < ranks; ++step) {
      std::vector<int> hits(ranks, 0);
      for (int rank = 0; rank < ranks; ++rank) {
        const int destination = shifted_destination(step, rank, ranks);
        ++hits[destination];
        ASSERT_EQ(shifted_source(step, destination, ranks), rank);
      }
      for (int count : hits)
        ASSERT_EQ(count, 1);
    }
  }
}

}  // namespace
}  // namespace a2afft::schedule
