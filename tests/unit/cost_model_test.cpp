#include "schedule/cost_model.hpp"

#include <gtest/gtest.h>

#include "schedule/tra.hpp"

namespace a2afft::detail::schedule {
namespace {

// Counts, by brute force, node 0's ranks whose partner at `distance` sits on another node.
long leaving_by_brute_force(long ranks, long per_node, long distance) {
  long leaving = 0;
  for (long l = 0; l < per_node; ++l)
    leaving += (l + distance) % ranks / per_node != 0;
  return leaving;
}

TEST(CostModel, ranks_leaving_node_matches_brute_force) {
  for (long ranks = 1; ranks <= 48; ++ranks) {
    for (long per_node = 1; per_node <= ranks; ++per_node) {
      if (ranks % per_node != 0) continue;
      for (long distance = 0; distance < 2 * ranks; ++distance) {
        ASSERT_EQ(ranks_leaving_node(ranks, per_node, distance),
                  leaving_by_brute_force(ranks, per_node, distance))
            << ranks << " " << per_node << " " << distance;
      }
    }
  }
}

TEST(CostModel, tra_counts_and_time_follow_the_schedule) {
  const ModelInputs inputs{16384, 64, 1024, {1e-6, 1e-10}, {2e-6, 2e-10}};
  const ModelResult tra = model_tra(inputs, 128);
  EXPECT_EQ(tra.rounds, 254);
  EXPECT_EQ(tra.blocks, 32512);
  EXPECT_DOUBLE_EQ(tra.bytes_per_rank, 32512.0 * 1024);
  // Every round crosses nodes here, so the time is K alpha + D b beta at the inter-node rate.
  EXPECT_NEAR(tra.seconds, 254 * 2e-6 + 32512.0 * 1024 * 2e-10, 1e-12);
  // On one node nothing leaves it.
  const ModelResult one_node = model_tra({64, 64, 8, {1e-6, 1e-10}, {2e-6, 2e-10}}, 8);
  EXPECT_EQ(one_node.inter_node_messages_per_node, 0);
  EXPECT_NEAR(one_node.seconds, 14 * 1e-6 + 8.0 * 8 * 14 * 1e-10, 1e-12);
}

TEST(CostModel, tra2_sends_fewer_inter_node_messages_than_tra) {
  const ModelInputs inputs{1024, 32, 64, {0.3e-6, 1e-10}, {2e-6, 1e-10}};
  const ModelResult tra2 = model_tra2(inputs, 6, 32);
  const ModelResult direct = model_direct(inputs, "pairwise");
  EXPECT_EQ(direct.rounds, 1023);
  EXPECT_EQ(tra2.inter_node_messages_per_node, 31 * 32);
  EXPECT_LT(tra2.inter_node_messages_per_node, direct.inter_node_messages_per_node);
  EXPECT_EQ(tra2.rounds, tra_counts_by_formula(32, 6).rounds + 31);
}

}  // namespace
}  // namespace a2afft::detail::schedule
