#include "schedule/node_aware.hpp"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace a2afft::detail::schedule {

std::vector<int> canonical_order(const std::vector<int>& node_of_rank,
                                 const std::vector<int>& region_of_rank,
                                 const std::vector<int>& local_rank_of_rank) {
  std::vector<int> order(node_of_rank.size());
  std::iota(order.begin(), order.end(), 0);
  const auto key = [&](int rank) {
    const auto r = static_cast<std::size_t>(rank);
    return std::tuple(node_of_rank[r], region_of_rank[r], local_rank_of_rank[r], rank);
  };
  std::sort(order.begin(), order.end(), [&](int a, int b) { return key(a) < key(b); });
  return order;
}

bool is_identity(const std::vector<int>& order) {
  for (std::size_t c = 0; c < order.size(); ++c) {
    if (order[c] != static_cast<int>(c)) return false;
  }
  return true;
}

std::string node_aware_refusal(const NodeAwareShape& shape) {
  const auto text = [](int v) { return std::to_string(v); };
  if (shape.ranks_per_node < 1 || shape.ranks % shape.ranks_per_node != 0) {
    return "needs nodes of equal size";
  }
  if (shape.ranks_per_leader < 1 || shape.ranks_per_node % shape.ranks_per_leader != 0) {
    return "ppl=" + text(shape.ranks_per_leader) + " does not divide the " +
           text(shape.ranks_per_node) + " ranks per node; valid ppl: divisors of " +
           text(shape.ranks_per_node);
  }
  const int groups_per_node = shape.ranks_per_node / shape.ranks_per_leader;
  if (shape.groups_per_region < 1 || groups_per_node % shape.groups_per_region != 0) {
    return "regions of " + text(shape.groups_per_region) + " ranks do not divide the " +
           text(groups_per_node) + " per node";
  }
  return {};
}

}  // namespace a2afft::detail::schedule
