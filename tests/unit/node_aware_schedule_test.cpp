#include "schedule/node_aware.hpp"

#include <gtest/gtest.h>

namespace a2afft::detail::schedule {
namespace {

TEST(NodeAwareSchedule, canonical_order_is_node_region_local_rank) {
  // Ranks placed round-robin over 2 nodes, and the second node's regions out of rank order.
  const std::vector<int> node{0, 1, 0, 1, 0, 1};
  const std::vector<int> region{0, 1, 0, 0, 1, 0};
  const std::vector<int> local{0, 0, 1, 1, 2, 2};
  EXPECT_EQ(canonical_order(node, region, local), (std::vector<int>{0, 2, 4, 3, 5, 1}));
  EXPECT_FALSE(is_identity(canonical_order(node, region, local)));
  EXPECT_TRUE(is_identity(canonical_order({0, 0, 1, 1}, {0, 0, 0, 0}, {0, 1, 0, 1})));
}

TEST(NodeAwareSchedule, refusals_name_what_does_not_divide) {
  EXPECT_EQ(node_aware_refusal({8, 4, 2, 2}), "");
  EXPECT_EQ(node_aware_refusal({8, 4, 4, 1}), "");
  EXPECT_NE(node_aware_refusal({8, 4, 3, 1}).find("ppl=3 does not divide the 4"),
            std::string::npos);
  EXPECT_NE(node_aware_refusal({8, 4, 1, 3}).find("do not divide"), std::string::npos);
  EXPECT_NE(node_aware_refusal({6, 4, 1, 1}).find("equal size"), std::string::npos);
}

}  // namespace
}  // namespace a2afft::detail::schedule
