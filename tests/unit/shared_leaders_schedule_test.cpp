#include "schedule/shared_leaders.hpp"

#include <gtest/gtest.h>

#include <set>

namespace a2afft::detail::schedule {
namespace {

TEST(SharedLeadersSchedule, runs_of_consecutive_ranks) {
  EXPECT_EQ(consecutive_runs({4, 5, 6}), (std::vector<RankRun>{{0, 4, 3}}));
  EXPECT_EQ(consecutive_runs({0, 2, 3, 7}),
            (std::vector<RankRun>{{0, 0, 1}, {1, 2, 2}, {3, 7, 1}}));
  EXPECT_EQ(consecutive_runs({3}), (std::vector<RankRun>{{0, 3, 1}}));
}

// [onmpml-glex] Algorithm 4, for ranks numbered domain by domain.
std::vector<int> algorithm4_leaders(int node_size, int leaders) {
  const int dist = std::max(node_size / leaders, 1);
  std::vector<int> locals;
  for (int local = 0; local < node_size; ++local) {
    if (local % dist == 0 && local / dist < leaders) locals.push_back(local);
  }
  return locals;
}

TEST(SharedLeadersSchedule, numa_spread_is_algorithm_4_on_equal_consecutive_domains) {
  for (int node_size = 1; node_size <= 16; ++node_size) {
    for (int domains = 1; domains <= node_size; ++domains) {
      if (node_size % domains != 0) continue;
      std::vector<int> numa(static_cast<std::size_t>(node_size));
      for (int local = 0; local < node_size; ++local)
        numa[static_cast<std::size_t>(local)] = local / (node_size / domains);
      for (int leaders = 1; leaders <= node_size; ++leaders) {
        if (node_size % leaders != 0) continue;
        EXPECT_EQ(numa_spread_leaders(numa, leaders), algorithm4_leaders(node_size, leaders))
            << node_size << " ranks, " << domains << " domains, " << leaders << " leaders";
      }
    }
  }
}

TEST(SharedLeadersSchedule, numa_spread_covers_domains_and_never_overfills_one) {
  // Interleaved domains (round-robin placement) and a domain of one rank.
  const std::vector<int> interleaved{0, 1, 0, 1, 0, 1};
  EXPECT_EQ(numa_spread_leaders(interleaved, 2), (std::vector<int>{0, 1}));
  const std::vector<int> lopsided{7, 7, 7, 7, 7, 3};
  EXPECT_EQ(numa_spread_leaders(lopsided, 2), (std::vector<int>{0, 5}));
  for (int leaders = 1; leaders <= 6; ++leaders) {
    for (const auto& numa : {interleaved, lopsided}) {
      const std::vector<int> chosen = numa_spread_leaders(numa, leaders);
      EXPECT_EQ(chosen.size(), static_cast<std::size_t>(leaders));
      EXPECT_EQ(std::set<int>(chosen.begin(), chosen.end()).size(), chosen.size());
      std::set<int> domains;
      for (int local : chosen)
        domains.insert(numa[static_cast<std::size_t>(local)]);
      EXPECT_EQ(domains.size(), std::min<std::size_t>(2, static_cast<std::size_t>(leaders)));
    }
  }
  EXPECT_EQ(first_leaders(3), (std::vector<int>{0, 1, 2}));
}

// Every ordered pair of different nodes is served by exactly one leader id, the same one on
// the sending and on the receiving node, so each aggregated message has one sender and one
// receiver.
TEST(SharedLeadersSchedule, offsets_pair_every_node_pair_once) {
  for (int nodes = 1; nodes <= 9; ++nodes) {
    for (int leaders = 1; leaders <= 5; ++leaders) {
      std::multiset<std::pair<int, int>> sent, received;
      for (int node = 0; node < nodes; ++node) {
        for (int id = 0; id < leaders; ++id) {
          for (int offset : served_offsets(id, leaders, nodes)) {
            EXPECT_EQ(offset % leaders, id);
            sent.insert({node, (node + offset) % nodes});
            received.insert({(node - offset + nodes) % nodes, node});
          }
        }
      }
      EXPECT_EQ(sent, received);
      EXPECT_EQ(sent.size(), static_cast<std::size_t>(nodes * (nodes - 1)));
      const std::set<std::pair<int, int>> distinct(sent.begin(), sent.end());
      EXPECT_EQ(distinct.size(), sent.size());
      for (const auto& [from, to] : sent)
        EXPECT_NE(from, to);
    }
  }
}

}  // namespace
}  // namespace a2afft::detail::schedule
