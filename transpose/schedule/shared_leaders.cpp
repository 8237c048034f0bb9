#include "schedule/shared_leaders.hpp"

#include <algorithm>
#include <numeric>

namespace a2afft::detail::schedule {

std::vector<RankRun> consecutive_runs(const std::vector<int>& members) {
  std::vector<RankRun> runs;
  for (int local = 0; local < static_cast<int>(members.size()); ++local) {
    const int rank = members[static_cast<std::size_t>(local)];
    if (!runs.empty() && runs.back().first_rank + runs.back().count == rank) {
      ++runs.back().count;
    } else {
      runs.push_back({local, rank, 1});
    }
  }
  return runs;
}

std::vector<int> first_leaders(int leaders) {
  std::vector<int> locals(static_cast<std::size_t>(leaders));
  std::iota(locals.begin(), locals.end(), 0);
  return locals;
}

std::vector<int> numa_spread_leaders(const std::vector<int>& numa_of_local, int leaders) {
  // The node's domains in order of first appearance, each with its local ranks.
  std::vector<int> domain_ids;
  std::vector<std::vector<int>> locals_of_domain;
  for (int local = 0; local < static_cast<int>(numa_of_local.size()); ++local) {
    const int id = numa_of_local[static_cast<std::size_t>(local)];
    const auto index = static_cast<std::size_t>(
        std::find(domain_ids.begin(), domain_ids.end(), id) - domain_ids.begin());
    if (index == domain_ids.size()) {
      domain_ids.push_back(id);
      locals_of_domain.emplace_back();
    }
    locals_of_domain[index].push_back(local);
  }
  // Leader l's place in the node: position l * Q / L of the ranks listed domain by domain, in
  // the domain chosen below (its own domain when domains are equal, as in Algorithm 4).
  const auto domains = static_cast<long>(domain_ids.size());
  const auto node_size = static_cast<long>(numa_of_local.size());
  std::vector<std::size_t> count(domain_ids.size(), 0);
  std::vector<int> chosen;
  for (long leader = 0; leader < leaders; ++leader) {
    auto domain = static_cast<std::size_t>(leader * domains / leaders);
    while (count[domain] == locals_of_domain[domain].size()) {
      domain = (domain + 1) % domain_ids.size();
    }
    ++count[domain];
    long first_in_list = 0;  // the domain's first position in the domain-by-domain list
    for (std::size_t d = 0; d < domain; ++d)
      first_in_list += static_cast<long>(locals_of_domain[d].size());
    const std::vector<int>& locals = locals_of_domain[domain];
    const long size = static_cast<long>(locals.size());
    auto position = static_cast<std::size_t>(
        std::clamp(leader * node_size / leaders - first_in_list, 0L, size - 1));
    while (std::find(chosen.begin(), chosen.end(), locals[position]) != chosen.end()) {
      position = (position + 1) % locals.size();  // taken by a leader passed on to this domain
    }
    chosen.push_back(locals[position]);
  }
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

std::vector<int> served_offsets(int leader_id, int leaders, int nodes) {
  std::vector<int> offsets;
  for (int offset = leader_id; offset < nodes; offset += leaders) {
    if (offset != 0) offsets.push_back(offset);
  }
  return offsets;
}

}  // namespace a2afft::detail::schedule
