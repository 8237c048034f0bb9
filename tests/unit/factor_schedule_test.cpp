#include "schedule/factor.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "schedule/direct.hpp"
#include "simulator/smpi_rules.hpp"

namespace a2afft::detail::schedule {
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

// nonblocking's batch: natively all P-1 by default; simulated, the default is capped (and says
// so), an explicit batch is honoured, and batches measured to crash SMPI 3.32 are refused.
TEST(SimulatedCrashes, all_at_once_is_refused_only_in_simulation_from_256_ranks) {
  EXPECT_FALSE(simulator::all_at_once_crashes(255, true));
  EXPECT_TRUE(simulator::all_at_once_crashes(256, true));
  EXPECT_TRUE(simulator::all_at_once_crashes(4096, true));
  EXPECT_FALSE(simulator::all_at_once_crashes(4096, false));
}

TEST(NonblockingBatch, native_default_is_all_partners_and_explicit_batches_are_capped_at_them) {
  for (const int ranks : {1, 2, 64, 256, 1024}) {
    const NonblockingBatch all = nonblocking_batch(ranks, std::nullopt, false);
    EXPECT_EQ(all.batch, std::max(1, ranks - 1)) << ranks;
    EXPECT_FALSE(all.bounded_in_simulation);
    EXPECT_FALSE(all.crashes_simulator);
    const NonblockingBatch given = nonblocking_batch(ranks, 5000, false);
    EXPECT_EQ(given.batch, std::max(1, ranks - 1)) << ranks;
    EXPECT_FALSE(given.crashes_simulator) << ranks;
  }
  EXPECT_EQ(nonblocking_batch(64, 7, false).batch, 7);
}

TEST(NonblockingBatch, simulated_default_is_bounded_only_where_it_would_be_more) {
  const int bound = simulator::kNonblockingBatch;
  const NonblockingBatch small = nonblocking_batch(bound + 1, std::nullopt, true);
  EXPECT_EQ(small.batch, bound);
  EXPECT_FALSE(small.bounded_in_simulation);
  for (const int ranks : {bound + 2, 64, 256, 1024, 4096}) {
    const NonblockingBatch bounded = nonblocking_batch(ranks, std::nullopt, true);
    EXPECT_EQ(bounded.batch, bound) << ranks;
    EXPECT_TRUE(bounded.bounded_in_simulation) << ranks;
    EXPECT_FALSE(bounded.crashes_simulator) << ranks;
  }
}

TEST(NonblockingBatch, simulated_explicit_batch_is_honoured_unless_measured_to_crash) {
  const int ranks_crash = simulator::kCrashRanks;
  const int batch_crash = simulator::kCrashBatch;
  ASSERT_LT(simulator::kNonblockingBatch, batch_crash);  // the default never crashes
  const NonblockingBatch below = nonblocking_batch(ranks_crash - 1, ranks_crash - 2, true);  // all
  EXPECT_EQ(below.batch, ranks_crash - 2);
  EXPECT_FALSE(below.crashes_simulator);
  EXPECT_FALSE(below.bounded_in_simulation);
  for (const int ranks : {ranks_crash, 1024}) {
    for (const long given : {long{batch_crash}, long{ranks - 1}, 1L << 30}) {
      const NonblockingBatch large = nonblocking_batch(ranks, given, true);
      EXPECT_EQ(large.batch, std::min<long>(given, ranks - 1));
      EXPECT_TRUE(large.crashes_simulator) << ranks << " " << given;
      EXPECT_FALSE(nonblocking_batch(ranks, given, false).crashes_simulator);  // natively: runs
    }
    const NonblockingBatch fewer = nonblocking_batch(ranks, batch_crash - 1, true);
    EXPECT_EQ(fewer.batch, batch_crash - 1);
    EXPECT_FALSE(fewer.crashes_simulator) << ranks;
    EXPECT_FALSE(fewer.bounded_in_simulation) << ranks;
  }
}

// ClusteredAllToAll simulated for every rank in one process. Returns "" or what is wrong.
std::string check_clustered(const std::vector<int>& sizes) {
  const int nodes = static_cast<int>(sizes.size());
  std::vector<int> first_rank(sizes.size() + 1, 0);
  for (int n = 0; n < nodes; ++n)
    first_rank[n + 1] = first_rank[n] + sizes[n];
  const int ranks = first_rank.back();
  const auto rank_of = [&](int node, int local) { return first_rank[node] + local; };
  std::vector<std::vector<ClusteredOp>> ops(ranks);
  for (int n = 0; n < nodes; ++n) {
    for (int l = 0; l < sizes[n]; ++l)
      ops[rank_of(n, l)] = clustered_ops(sizes, n, l);
  }
  std::vector<int> delivered(static_cast<std::size_t>(ranks) * ranks, 0);
  long last_step = -1;
  // (step, node) -> ranks of the node exchanging with another node in that step
  std::map<std::pair<long, int>, int> inter_node_talkers;
  std::vector<long> inter_node_steps(nodes, 0);
  for (int n = 0; n < nodes; ++n) {
    for (int l = 0; l < sizes[n]; ++l) {
      const int me = rank_of(n, l);
      long previous = -1;
      for (const ClusteredOp& op : ops[me]) {
        if (op.step <= previous) return "rank " + std::to_string(me) + ": steps out of order";
        previous = op.step;
        last_step = std::max(last_step, op.step);
        const int peer = rank_of(op.peer_node, op.peer_local);
        // The partner does the matching half in the same step.
        const ClusteredOp::Kind expected = op.kind == ClusteredOp::send      ? ClusteredOp::receive
                                           : op.kind == ClusteredOp::receive ? ClusteredOp::send
                                                                             : op.kind;
        const bool matched = std::find(ops[peer].begin(), ops[peer].end(),
                                       ClusteredOp{op.step, expected, n, l}) != ops[peer].end();
        if (!matched)
          return "rank " + std::to_string(me) + ": unmatched step " + std::to_string(op.step);
        if (op.kind == ClusteredOp::copy && peer != me) return "copy to another rank";
        if (op.kind != ClusteredOp::receive) ++delivered[me * ranks + peer];
        if (op.kind == ClusteredOp::exchange) {
          if (op.peer_node == n) return "an exchange inside a node";
          if (++inter_node_talkers[{op.step, n}] > 1) {
            return "node " + std::to_string(n) + " has two ranks off-node in step " +
                   std::to_string(op.step);
          }
          ++inter_node_steps[n];
        }
      }
    }
  }
  for (int i = 0; i < ranks * ranks; ++i) {
    if (delivered[i] != 1) {
      return "message " + std::to_string(i / ranks) + "->" + std::to_string(i % ranks) +
             " delivered " + std::to_string(delivered[i]) + " times";
    }
  }
  const int largest = *std::max_element(sizes.begin(), sizes.end());
  if (last_step + 1 != static_cast<long>(largest) * ranks ||
      clustered_steps(sizes) != static_cast<long>(largest) * ranks) {
    return "took " + std::to_string(last_step + 1) + " steps, Theorem 1 says " +
           std::to_string(static_cast<long>(largest) * ranks);
  }
  for (int n = 0; n < nodes; ++n) {
    if (inter_node_steps[n] != clustered_inter_node_steps(sizes, n)) {
      return "node " + std::to_string(n) + " talks off-node in " +
             std::to_string(inter_node_steps[n]) + " steps";
    }
  }
  return "";
}

std::string describe(const std::vector<int>& sizes) {
  std::string text;
  for (int size : sizes)
    text += (text.empty() ? "" : "+") + std::to_string(size);
  return text;
}

TEST(ClusteredSchedule, equal_organ_pipe_and_the_papers_1_2_3) {
  for (const std::vector<int>& sizes : std::vector<std::vector<int>>{{1},
                                                                     {4},
                                                                     {2, 2},
                                                                     {3, 3, 3},
                                                                     {4, 4, 4, 4},
                                                                     {1, 2, 3, 4, 3, 2, 1},
                                                                     {1, 2, 3},
                                                                     {3, 1},
                                                                     {2, 2, 1, 3}}) {
    EXPECT_EQ(check_clustered(sizes), "") << describe(sizes);
  }
  // Fig. 3's layout: the last rank of the largest node talks in the last phase's last step.
  EXPECT_EQ(clustered_ops({1, 2, 3}, 2, 2).back().step + 1, clustered_steps({1, 2, 3}));
  EXPECT_EQ(clustered_steps({1, 2, 3}), 18);
}

TEST(ClusteredSchedule, random_layouts_of_up_to_8_nodes_of_1_to_8_ranks) {
  std::mt19937 random(20261121);
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<int> sizes(1 + random() % 8);
    for (int& size : sizes)
      size = 1 + static_cast<int>(random() % 8);
    ASSERT_EQ(check_clustered(sizes), "") << describe(sizes);
  }
}

TEST(FactorNodeLoad, ports_busy_as_the_rounds_say) {
  const auto expect = [](const FactorNodeLoad& load, long steps, long fewest, long most,
                         long at_once) {
    EXPECT_EQ(load.steps, steps);
    EXPECT_EQ(load.fewest_inter_node_steps, fewest);
    EXPECT_EQ(load.most_inter_node_steps, most);
    EXPECT_EQ(load.most_off_node_at_once, at_once);
  };
  // One node: nothing leaves it. Nodes of one rank: every round but the self-loops' is off-node.
  expect(factor_node_load({4}), 4, 0, 0, 0);
  expect(factor_node_load({1, 1, 1, 1}), 4, 3, 3, 1);  // even P: the last round meets itself
  expect(factor_node_load({1, 1, 1}), 3, 2, 2, 1);     // odd P: one self-loop per rank
  // Two nodes of two: a round either pairs across (both ranks of a node talk off-node) or not.
  const FactorNodeLoad two = factor_node_load({2, 2});
  EXPECT_EQ(two.most_off_node_at_once, 2);
  EXPECT_EQ(two.fewest_inter_node_steps, two.most_inter_node_steps);
  // factor-hier: size(U) * P steps at most, size(U) * (P - size(U)) off-node, one rank at once.
  expect(clustered_node_load({3, 1, 2}), 18, 5, 9, 1);
  expect(clustered_node_load({4}), 16, 0, 0, 0);  // one node: 4 ranks x 4 one-way steps
}

}  // namespace
}  // namespace a2afft::detail::schedule
