#include "schedule/factor.hpp"

#include <algorithm>
#include <climits>
#include <numeric>
#include <utility>

namespace a2afft::detail::schedule {
namespace {

int mod(long value, int modulus) {
  const long remainder = value % modulus;
  return static_cast<int>(remainder < 0 ? remainder + modulus : remainder);
}

}  // namespace

int factor_rounds(int ranks) {
  return ranks;
}

int factor_partner(int round, int rank, int ranks) {
  if (ranks % 2 == 1) return mod(static_cast<long>(round) - rank, ranks);
  if (round == ranks - 1) return rank;  // the concentrated self-loops
  const int odd = ranks - 1;
  if (rank == odd) {
    // The vertex whose self-loop falls in this round: 2u = round (mod odd), u = round * (odd+1)/2.
    return mod(static_cast<long>(round) * (odd + 1) / 2, odd);
  }
  const int partner = mod(static_cast<long>(round) - rank, odd);
  return partner == rank ? odd : partner;
}

std::vector<int> factor_partners(int rank, int ranks) {
  std::vector<int> partners;
  for (int round = 0; round < factor_rounds(ranks); ++round) {
    partners.push_back(factor_partner(round, rank, ranks));
  }
  return partners;
}

}  // namespace a2afft::detail::schedule

namespace a2afft::detail::schedule {

std::vector<ClusteredOp> clustered_ops(const std::vector<int>& node_sizes, int node, int local) {
  const auto size_of = [&](int n) { return node_sizes[static_cast<std::size_t>(n)]; };
  std::vector<int> active(node_sizes.size());
  std::iota(active.begin(), active.end(), 0);
  std::sort(active.begin(), active.end(),
            [&](int a, int b) { return std::pair(size_of(a), a) < std::pair(size_of(b), b); });
  const int largest = active.empty() ? 0 : size_of(active.back());
  std::vector<ClusteredOp> ops;
  long phase_start = 0;
  int done = 0;
  while (!active.empty()) {
    const int current = size_of(active.front());
    const int count = static_cast<int>(active.size());
    const auto found = std::find(active.begin(), active.end(), node);
    if (found == active.end()) break;  // our node has sent and received everything
    const int mine = static_cast<int>(found - active.begin());
    const int ranks_this_phase = current - done;
    // Every round lasts as long as the pair holding a largest node: (current - done) * largest.
    const long round_steps = static_cast<long>(ranks_this_phase) * largest;
    for (int round = 0; round < count; ++round) {
      const long start = phase_start + round * round_steps;
      const int partner = mod(static_cast<long>(round) - mine, count);
      const int first = active[static_cast<std::size_t>(std::min(mine, partner))];
      const int second = active[static_cast<std::size_t>(std::max(mine, partner))];
      const int second_size = size_of(second);
      const auto step_of = [&](int u, int v) {
        return start + static_cast<long>(u - done) * second_size + v;
      };
      if (first == second) {  // inside our node: u sends to every v, one way
        for (int u = done; u < current; ++u) {
          for (int v = 0; v < second_size; ++v) {
            if (u == local && v == local) {
              ops.push_back({step_of(u, v), ClusteredOp::copy, node, v});
            } else if (u == local) {
              ops.push_back({step_of(u, v), ClusteredOp::send, node, v});
            } else if (v == local) {
              ops.push_back({step_of(u, v), ClusteredOp::receive, node, u});
            }
          }
        }
      } else if (node == first && local >= done && local < current) {
        for (int v = 0; v < second_size; ++v)
          ops.push_back({step_of(local, v), ClusteredOp::exchange, second, v});
      } else if (node == second) {
        for (int u = done; u < current; ++u)
          ops.push_back({step_of(u, local), ClusteredOp::exchange, first, u});
      }
    }
    phase_start += count * round_steps;
    done = current;
    std::erase_if(active, [&](int n) { return size_of(n) == done; });
  }
  return ops;
}

long clustered_steps(const std::vector<int>& node_sizes) {
  long ranks = 0;
  int largest = 0;
  for (const int size : node_sizes) {
    ranks += size;
    largest = std::max(largest, size);
  }
  return largest * ranks;
}

long clustered_inter_node_steps(const std::vector<int>& node_sizes, int node) {
  const long ranks = std::accumulate(node_sizes.begin(), node_sizes.end(), 0L);
  const long size = node_sizes[static_cast<std::size_t>(node)];
  return size * (ranks - size);
}

FactorNodeLoad factor_node_load(const std::vector<int>& node_sizes) {
  const int ranks = std::accumulate(node_sizes.begin(), node_sizes.end(), 0);
  std::vector<int> node_of;
  for (std::size_t node = 0; node < node_sizes.size(); ++node)
    node_of.insert(node_of.end(), static_cast<std::size_t>(node_sizes[node]),
                   static_cast<int>(node));
  FactorNodeLoad load;
  load.steps = factor_rounds(ranks);
  std::vector<long> busy_steps(node_sizes.size(), 0);
  std::vector<long> talking(node_sizes.size(), 0);
  for (int round = 0; round < load.steps; ++round) {
    std::fill(talking.begin(), talking.end(), 0);
    for (int rank = 0; rank < ranks; ++rank) {
      const int node = node_of[static_cast<std::size_t>(rank)];
      if (node_of[static_cast<std::size_t>(factor_partner(round, rank, ranks))] != node)
        ++talking[static_cast<std::size_t>(node)];
    }
    for (std::size_t node = 0; node < node_sizes.size(); ++node) {
      if (talking[node] > 0) ++busy_steps[node];
      load.most_off_node_at_once = std::max(load.most_off_node_at_once, talking[node]);
    }
  }
  load.fewest_inter_node_steps = *std::min_element(busy_steps.begin(), busy_steps.end());
  load.most_inter_node_steps = *std::max_element(busy_steps.begin(), busy_steps.end());
  return load;
}

FactorNodeLoad clustered_node_load(const std::vector<int>& node_sizes) {
  FactorNodeLoad load;
  load.steps = clustered_steps(node_sizes);
  load.fewest_inter_node_steps = LONG_MAX;
  for (int node = 0; node < static_cast<int>(node_sizes.size()); ++node) {
    const long steps = clustered_inter_node_steps(node_sizes, node);
    load.fewest_inter_node_steps = std::min(load.fewest_inter_node_steps, steps);
    load.most_inter_node_steps = std::max(load.most_inter_node_steps, steps);
  }
  load.most_off_node_at_once = node_sizes.size() > 1 ? 1 : 0;
  return load;
}

}  // namespace a2afft::detail::schedule
