#include "topology/layout.hpp"

#include <gtest/gtest.h>

#include "error.hpp"

namespace a2afft::detail {
namespace {

const std::vector<std::string> kOneHost(8, "host-a");

std::string error_of(const std::vector<int>& real_nodes, const std::vector<std::string>& hosts,
                     const LayoutRequest& request) {
  try {
    resolve_node_layout(real_nodes, hosts, request);
  } catch (const UsageError& error) {
    return error.what();
  }
  return "";
}

TEST(NodeLayout, real_nodes_need_not_be_consecutive) {
  const NodeLayout layout = resolve_node_layout({7, 9, 7, 9, 9}, kOneHost, {});
  EXPECT_EQ(layout.node_of_rank, (std::vector<int>{0, 1, 0, 1, 1}));
  EXPECT_EQ(layout.local_rank_of_rank, (std::vector<int>{0, 0, 1, 1, 2}));
  EXPECT_EQ(layout.node_sizes, (std::vector<int>{2, 3}));
  EXPECT_EQ(layout.leader_of_node, (std::vector<int>{0, 1}));
  EXPECT_TRUE(layout.virtual_origin.empty());
}

TEST(NodeLayout, ranks_per_node_leaves_a_smaller_last_node) {
  LayoutRequest request;
  request.ranks_per_node = LayoutSetting{"A2AFFT_RANKS_PER_NODE", "2"};
  const NodeLayout layout = resolve_node_layout(std::vector<int>(5, 0), kOneHost, request);
  EXPECT_EQ(layout.node_sizes, (std::vector<int>{2, 2, 1}));
  EXPECT_EQ(layout.node_of_rank, (std::vector<int>{0, 0, 1, 1, 2}));
  EXPECT_EQ(layout.leader_of_node, (std::vector<int>{0, 2, 4}));
  EXPECT_EQ(layout.virtual_origin, "A2AFFT_RANKS_PER_NODE=2");
}

TEST(NodeLayout, uneven_node_sizes) {
  LayoutRequest request;
  request.node_sizes = LayoutSetting{"--node-sizes", "3,1,2"};
  const NodeLayout layout = resolve_node_layout(std::vector<int>(6, 0), kOneHost, request);
  EXPECT_EQ(layout.node_of_rank, (std::vector<int>{0, 0, 0, 1, 2, 2}));
  EXPECT_EQ(layout.local_rank_of_rank, (std::vector<int>{0, 1, 2, 0, 0, 1}));
}

TEST(NodeLayout, errors_quote_the_setting_and_say_what_is_valid) {
  LayoutRequest sum;
  sum.node_sizes = LayoutSetting{"A2AFFT_NODE_SIZES", "3,1"};
  EXPECT_NE(error_of(std::vector<int>(6, 0), kOneHost, sum)
                .find("A2AFFT_NODE_SIZES=3,1 adds up "
                      "to 4"),
            std::string::npos);
  for (const char* bad : {"", "0", "-2", "abc", "3,,1", "3,1,", "2x"}) {
    LayoutRequest garbled;
    garbled.node_sizes = LayoutSetting{"A2AFFT_NODE_SIZES", bad};
    EXPECT_NE(error_of(std::vector<int>(6, 0), kOneHost, garbled).find("is not valid"),
              std::string::npos)
        << bad;
    LayoutRequest per_node;
    per_node.ranks_per_node = LayoutSetting{"A2AFFT_RANKS_PER_NODE", bad};
    if (std::string(bad) != "3,,1" && std::string(bad) != "3,1,") {
      EXPECT_NE(error_of(std::vector<int>(6, 0), kOneHost, per_node).find("is not valid"),
                std::string::npos)
          << bad;
    }
  }
  LayoutRequest both;
  both.node_sizes = LayoutSetting{"A2AFFT_NODE_SIZES", "2,2"};
  both.ranks_per_node = LayoutSetting{"A2AFFT_RANKS_PER_NODE", "2"};
  EXPECT_NE(error_of(std::vector<int>(4, 0), kOneHost, both).find("set only one"),
            std::string::npos);
}

TEST(NodeLayout, a_virtual_node_never_spans_two_real_nodes) {
  LayoutRequest request;
  request.node_sizes = LayoutSetting{"A2AFFT_NODE_SIZES", "3,1"};
  const std::string error =
      error_of({0, 0, 2, 2}, {"host-a", "host-a", "host-b", "host-b"}, request);
  EXPECT_NE(error.find("different machines (host-a, host-b)"), std::string::npos) << error;
  request.node_sizes = LayoutSetting{"A2AFFT_NODE_SIZES", "2,1,1"};
  EXPECT_EQ(error_of({0, 0, 2, 2}, {"host-a", "host-a", "host-b", "host-b"}, request), "");
}

TEST(NodeLayout, cli_settings_replace_the_environment) {
  LayoutRequest environment;
  environment.node_sizes = LayoutSetting{"A2AFFT_NODE_SIZES", "3,1"};
  environment.numa_per_node = LayoutSetting{"A2AFFT_NUMA_PER_NODE", "2"};
  LayoutRequest cli;
  cli.ranks_per_node = LayoutSetting{"--ranks-per-node", "2"};
  const LayoutRequest merged = environment.overridden_by(cli);
  EXPECT_FALSE(merged.node_sizes.has_value());
  EXPECT_EQ(merged.ranks_per_node->quoted(), "--ranks-per-node=2");
  EXPECT_EQ(merged.numa_per_node->quoted(), "A2AFFT_NUMA_PER_NODE=2");
}

TEST(NumaLayout, virtual_domains_split_each_node_evenly) {
  LayoutRequest request;
  request.node_sizes = LayoutSetting{"A2AFFT_NODE_SIZES", "4,2"};
  request.numa_per_node = LayoutSetting{"A2AFFT_NUMA_PER_NODE", "2"};
  const NodeLayout layout = resolve_node_layout(std::vector<int>(6, 0), kOneHost, request);
  EXPECT_EQ(resolve_numa(layout, std::vector<int>(6, 0), request),
            (std::vector<int>{0, 0, 1, 1, 0, 1}));
  request.numa_per_node = LayoutSetting{"A2AFFT_NUMA_PER_NODE", "3"};
  EXPECT_THROW(resolve_numa(layout, std::vector<int>(6, 0), request), UsageError);
  EXPECT_EQ(resolve_numa(layout, {0, 1, 0, 1, 1, 1}, {}), (std::vector<int>{0, 1, 0, 1, 1, 1}));
}

TEST(RankLayout, written_down_and_subset_as_a_communicator_sees_it) {
  const RankLayout layout = RankLayout::of_node_sizes({3, 1, 2}, 1);
  EXPECT_EQ(layout.size(), 6);
  EXPECT_EQ(layout.node_count(), 3);
  EXPECT_FALSE(layout.nodes_equal());
  EXPECT_EQ(layout.largest_node_size(), 3);
  EXPECT_EQ(layout.smallest_node_size(), 1);
  EXPECT_EQ(layout.local_rank_of(5), 1);
  // Ranks 5, 0 and 2: nodes numbered in order of appearance, local ranks by position.
  const RankLayout subset = layout.subset({5, 0, 2});
  EXPECT_EQ(subset.size(), 3);
  EXPECT_EQ(subset.node_count(), 2);
  EXPECT_EQ(subset.node_of(0), 0);
  EXPECT_EQ(subset.node_of(1), 1);
  EXPECT_EQ(subset.local_rank_of(2), 1);
  EXPECT_EQ(subset.node_sizes(), (std::vector<int>{1, 2}));

  const RankLayout numa = RankLayout::of_node_sizes({4, 4}, 2);
  EXPECT_EQ(numa.numa_domains_on(1), 2);
  EXPECT_EQ(numa.numa_of(5), numa.numa_of(4));
  EXPECT_NE(numa.numa_of(6), numa.numa_of(5));
  EXPECT_EQ(numa.subset({1, 2}).numa_domains_on(0), 2);
}

}  // namespace
}  // namespace a2afft::detail
