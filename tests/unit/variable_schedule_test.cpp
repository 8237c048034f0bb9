#include "schedule/variable.hpp"

#include <gtest/gtest.h>

#include <map>
#include <numeric>
#include <random>
#include <set>
#include <tuple>

namespace a2afft::detail::schedule {
namespace {

using Counts = std::vector<std::vector<std::size_t>>;  // [source][destination] bytes

// Sparse, uneven counts: about a third of the pairs empty, a whole rank empty sometimes.
Counts random_counts(int ranks, unsigned seed) {
  std::mt19937 generator(seed);
  Counts counts(static_cast<std::size_t>(ranks), std::vector<std::size_t>(ranks));
  const int silent = static_cast<int>(generator() % static_cast<unsigned>(ranks + 2));
  for (int s = 0; s < ranks; ++s) {
    for (int d = 0; d < ranks; ++d) {
      const bool empty = s == silent || d == silent || generator() % 3 == 0;
      counts[s][d] = empty ? 0 : 1 + generator() % 97;
    }
  }
  return counts;
}

std::vector<std::size_t> column(const Counts& counts, int destination) {
  std::vector<std::size_t> values;
  for (const auto& row : counts)
    values.push_back(row[static_cast<std::size_t>(destination)]);
  return values;
}

// Every message with bytes is sent and received exactly once, in the round of the same number
// on both sides; no empty peer and no self message; at most batch sends and receives per round.
TEST(VariableSchedule, sparse_rounds_pair_every_partner_once_in_the_same_round) {
  for (int ranks = 1; ranks <= 9; ++ranks) {
    for (unsigned seed = 0; seed < 5; ++seed) {
      const Counts counts = random_counts(ranks, seed);
      for (int batch = 1; batch <= ranks; ++batch) {
        std::map<std::pair<int, int>, int> sent_in, received_in;
        for (int rank = 0; rank < ranks; ++rank) {
          const auto rounds = sparse_rounds(counts[rank], column(counts, rank), rank, batch);
          int previous = -1;
          for (const SparseRound& round : rounds) {
            EXPECT_GT(round.number, previous);
            previous = round.number;
            EXPECT_FALSE(round.send_to.empty() && round.recv_from.empty());
            EXPECT_LE(round.send_to.size(), static_cast<std::size_t>(batch));
            EXPECT_LE(round.recv_from.size(), static_cast<std::size_t>(batch));
            for (const int to : round.send_to) {
              EXPECT_NE(to, rank);
              EXPECT_GT(counts[rank][to], 0u);
              EXPECT_TRUE(sent_in.emplace(std::pair{rank, to}, round.number).second);
            }
            for (const int from : round.recv_from) {
              EXPECT_NE(from, rank);
              EXPECT_TRUE(received_in.emplace(std::pair{from, rank}, round.number).second);
            }
          }
        }
        EXPECT_EQ(sent_in, received_in) << ranks << " ranks, batch " << batch;
        std::size_t messages = 0;
        for (int s = 0; s < ranks; ++s) {
          for (int d = 0; d < ranks; ++d)
            messages += s != d && counts[s][d] > 0;
        }
        EXPECT_EQ(sent_in.size(), messages);
      }
    }
  }
}

TEST(VariableSchedule, ranks_of_nodes_and_off_node_ranks_keep_rank_order) {
  const std::vector<int> node_of_rank{1, 0, 1, 2, 0};
  const auto nodes = ranks_of_nodes(node_of_rank);
  EXPECT_EQ(nodes, (std::vector<std::vector<int>>{{1, 4}, {0, 2}, {3}}));
  EXPECT_EQ(off_node_ranks(nodes, 1), (std::vector<int>{1, 4, 3}));
}

// The sending leader's block for node M and M's leader's block from it agree segment for
// segment; blocks are packed and hold exactly the node pair's bytes.
void expect_layouts_agree(const std::vector<int>& node_of_rank, const Counts& counts) {
  const auto nodes = ranks_of_nodes(node_of_rank);
  std::vector<AggregateLayout> out, in;
  for (int node = 0; node < static_cast<int>(nodes.size()); ++node) {
    Counts sends, receives;
    for (const int rank : nodes[static_cast<std::size_t>(node)]) {
      sends.push_back(counts[rank]);
      receives.push_back(column(counts, rank));
    }
    out.push_back(outgoing_layout(nodes, node, sends));
    in.push_back(incoming_layout(nodes, node, receives));
  }
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    std::size_t off_node_bytes = 0;
    for (std::size_t m = 0; m < nodes.size(); ++m) {
      if (n == m) {
        EXPECT_EQ(out[n].node_bytes[m], 0u);
        continue;
      }
      std::size_t pair_bytes = 0;
      for (std::size_t qs = 0; qs < nodes[n].size(); ++qs) {
        for (std::size_t qd = 0; qd < nodes[m].size(); ++qd) {
          const int s = nodes[n][qs], d = nodes[m][qd];
          pair_bytes += counts[s][d];
          if (counts[s][d] == 0) continue;
          const std::size_t sent = out[n].segment_offset[qs][d] - out[n].node_offset[m];
          const std::size_t arrived = in[m].segment_offset[qd][s] - in[m].node_offset[n];
          EXPECT_EQ(sent, arrived) << "segment " << s << "->" << d;
          EXPECT_LE(sent + counts[s][d], pair_bytes == 0 ? 0 : out[n].node_bytes[m]);
        }
      }
      EXPECT_EQ(out[n].node_bytes[m], pair_bytes);
      EXPECT_EQ(in[m].node_bytes[n], pair_bytes);
      off_node_bytes += pair_bytes;
    }
    EXPECT_EQ(out[n].total, off_node_bytes);
  }
}

TEST(VariableSchedule, aggregate_layouts_agree_between_sending_and_receiving_leaders) {
  const std::vector<std::vector<int>> layouts = {{0},
                                                 {0, 0, 0},
                                                 {0, 0, 1, 1},
                                                 {0, 1, 0, 1, 0, 1},
                                                 {0, 0, 0, 1},
                                                 {0, 1, 1, 2, 2, 2},
                                                 {2, 0, 1, 0, 2, 1, 0, 1}};
  unsigned seed = 0;
  for (const std::vector<int>& node_of_rank : layouts) {
    for (int trial = 0; trial < 4; ++trial) {
      expect_layouts_agree(node_of_rank,
                           random_counts(static_cast<int>(node_of_rank.size()), ++seed));
    }
  }
}

// Segments inside a block do not overlap: their bytes tile the block exactly.
TEST(VariableSchedule, aggregate_segments_tile_their_block) {
  const std::vector<int> node_of_rank{0, 0, 1, 1, 1};
  const Counts counts = random_counts(5, 11);
  const auto nodes = ranks_of_nodes(node_of_rank);
  Counts sends;
  for (const int rank : nodes[0])
    sends.push_back(counts[rank]);
  const AggregateLayout layout = outgoing_layout(nodes, 0, sends);
  std::vector<int> covered(layout.total, 0);
  for (std::size_t q = 0; q < nodes[0].size(); ++q) {
    for (const int d : nodes[1]) {
      for (std::size_t b = 0; b < sends[q][d]; ++b)
        ++covered[layout.segment_offset[q][d] + b];
    }
  }
  for (const int times : covered)
    EXPECT_EQ(times, 1);
}

}  // namespace
}  // namespace a2afft::detail::schedule
