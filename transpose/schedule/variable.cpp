#include "schedule/variable.hpp"

#include <algorithm>

namespace a2afft::detail::schedule {

std::vector<SparseRound> sparse_rounds(const std::vector<std::size_t>& send_bytes,
                                       const std::vector<std::size_t>& recv_bytes, int rank,
                                       int steps_per_round) {
  const auto ranks = static_cast<int>(send_bytes.size());
  std::vector<SparseRound> rounds;
  SparseRound round;
  const auto flush = [&] {
    const int number = round.number;
    if (!round.send_to.empty() || !round.recv_from.empty()) rounds.push_back(std::move(round));
    round = SparseRound{};
    round.number = number + 1;
  };
  for (int step = 1; step < ranks; ++step) {
    const int to = (rank + step) % ranks;
    const int from = (rank - step + ranks) % ranks;
    if (send_bytes[static_cast<std::size_t>(to)] > 0) round.send_to.push_back(to);
    if (recv_bytes[static_cast<std::size_t>(from)] > 0) round.recv_from.push_back(from);
    if (step % steps_per_round == 0) flush();
  }
  flush();
  return rounds;
}

std::vector<std::vector<int>> ranks_of_nodes(const std::vector<int>& node_of_rank) {
  const int nodes =
      node_of_rank.empty() ? 0 : *std::max_element(node_of_rank.begin(), node_of_rank.end()) + 1;
  std::vector<std::vector<int>> ranks(static_cast<std::size_t>(nodes));
  for (std::size_t rank = 0; rank < node_of_rank.size(); ++rank) {
    ranks[static_cast<std::size_t>(node_of_rank[rank])].push_back(static_cast<int>(rank));
  }
  return ranks;
}

std::vector<int> off_node_ranks(const std::vector<std::vector<int>>& ranks_of_node, int own_node) {
  std::vector<int> ranks;
  for (std::size_t node = 0; node < ranks_of_node.size(); ++node) {
    if (static_cast<int>(node) == own_node) continue;
    ranks.insert(ranks.end(), ranks_of_node[node].begin(), ranks_of_node[node].end());
  }
  return ranks;
}

namespace {

// Both layouts: node blocks in node order; inside a block, segments (outer, inner) in the
// order given, where `local_outer` says whether the outer loop runs over the local ranks.
AggregateLayout aggregate_layout(const std::vector<std::vector<int>>& ranks_of_node, int own_node,
                                 const std::vector<std::vector<std::size_t>>& bytes,
                                 bool local_outer) {
  const std::vector<int>& local = ranks_of_node[static_cast<std::size_t>(own_node)];
  const std::size_t ranks = bytes.empty() ? 0 : bytes.front().size();
  AggregateLayout layout;
  layout.node_offset.assign(ranks_of_node.size(), 0);
  layout.node_bytes.assign(ranks_of_node.size(), 0);
  layout.segment_offset.assign(local.size(), std::vector<std::size_t>(ranks, 0));
  std::size_t offset = 0;
  for (std::size_t node = 0; node < ranks_of_node.size(); ++node) {
    layout.node_offset[node] = offset;
    if (static_cast<int>(node) == own_node) continue;
    const std::vector<int>& remote = ranks_of_node[node];
    const std::size_t outer = local_outer ? local.size() : remote.size();
    const std::size_t inner = local_outer ? remote.size() : local.size();
    for (std::size_t a = 0; a < outer; ++a) {
      for (std::size_t b = 0; b < inner; ++b) {
        const std::size_t q = local_outer ? a : b;
        const auto r = static_cast<std::size_t>(local_outer ? remote[b] : remote[a]);
        layout.segment_offset[q][r] = offset;
        offset += bytes[q][r];
      }
    }
    layout.node_bytes[node] = offset - layout.node_offset[node];
  }
  layout.total = offset;
  return layout;
}

}  // namespace

AggregateLayout outgoing_layout(const std::vector<std::vector<int>>& ranks_of_node, int own_node,
                                const std::vector<std::vector<std::size_t>>& bytes) {
  return aggregate_layout(ranks_of_node, own_node, bytes, true);
}

AggregateLayout incoming_layout(const std::vector<std::vector<int>>& ranks_of_node, int own_node,
                                const std::vector<std::vector<std::size_t>>& bytes) {
  return aggregate_layout(ranks_of_node, own_node, bytes, false);
}

}  // namespace a2afft::detail::schedule
