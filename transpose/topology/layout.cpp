#include "topology/layout.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <map>
#include <numeric>
#include <set>

#include "error.hpp"

namespace a2afft::detail {
namespace {

std::optional<LayoutSetting> from_env(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr) return std::nullopt;
  return LayoutSetting{name, value};
}

std::optional<int> parse_positive(std::string_view text) {
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 1) return std::nullopt;
  return value;
}

}  // namespace
}  // namespace a2afft::detail

// The public vocabulary type LayoutRequest (a2afft/layout.hpp), which the engine plans with.
namespace a2afft {

LayoutRequest LayoutRequest::from_environment() {
  return {detail::from_env("A2AFFT_RANKS_PER_NODE"), detail::from_env("A2AFFT_NODE_SIZES"),
          detail::from_env("A2AFFT_NUMA_PER_NODE")};
}

LayoutRequest LayoutRequest::overridden_by(const LayoutRequest& other) const {
  LayoutRequest merged = *this;
  if (other.ranks_per_node || other.node_sizes) {
    merged.ranks_per_node = other.ranks_per_node;
    merged.node_sizes = other.node_sizes;
  }
  if (other.numa_per_node) merged.numa_per_node = other.numa_per_node;
  return merged;
}

}  // namespace a2afft

namespace a2afft::detail {

int parse_layout_count(const LayoutSetting& setting) {
  if (const auto value = parse_positive(setting.value)) return *value;
  throw UsageError(setting.quoted() + " is not valid; expected a whole number of at least 1");
}

std::vector<int> parse_node_sizes(const LayoutSetting& setting) {
  std::vector<int> sizes;
  std::string_view rest = setting.value;
  while (true) {
    const auto comma = rest.find(',');
    const auto value = parse_positive(rest.substr(0, comma));
    if (!value) {
      throw UsageError(setting.quoted() +
                       " is not valid; expected node sizes of at least 1, separated by commas, "
                       "e.g. 3,1,2");
    }
    sizes.push_back(*value);
    if (comma == std::string_view::npos) return sizes;
    rest.remove_prefix(comma + 1);
  }
}

NodeLayout resolve_node_layout(const std::vector<int>& real_node_of_rank,
                               const std::vector<std::string>& host_of_rank,
                               const LayoutRequest& request) {
  const int ranks = static_cast<int>(real_node_of_rank.size());
  NodeLayout layout;
  if (request.ranks_per_node && request.node_sizes) {
    throw UsageError("both " + request.ranks_per_node->quoted() + " and " +
                     request.node_sizes->quoted() + " are set; set only one of them");
  }

  std::optional<LayoutSetting> origin;
  if (request.ranks_per_node) {
    origin = request.ranks_per_node;
    const int per_node = parse_layout_count(*origin);
    for (int first = 0; first < ranks; first += per_node) {
      layout.node_sizes.push_back(std::min(per_node, ranks - first));
    }
  } else if (request.node_sizes) {
    origin = request.node_sizes;
    layout.node_sizes = parse_node_sizes(*origin);
    const long total = std::accumulate(layout.node_sizes.begin(), layout.node_sizes.end(), 0L);
    if (total != ranks) {
      throw UsageError(origin->quoted() + " adds up to " + std::to_string(total) +
                       " ranks, but the job has " + std::to_string(ranks) +
                       "; the sizes must add up to " + std::to_string(ranks));
    }
  }

  if (origin) {
    layout.virtual_origin = origin->quoted();
    for (int node = 0; node < static_cast<int>(layout.node_sizes.size()); ++node) {
      for (int i = 0; i < layout.node_sizes[static_cast<std::size_t>(node)]; ++i) {
        const int rank = static_cast<int>(layout.node_of_rank.size());
        layout.node_of_rank.push_back(node);
        layout.local_rank_of_rank.push_back(i);
        if (i == 0) layout.leader_of_node.push_back(rank);
        if (i > 0 && real_node_of_rank[static_cast<std::size_t>(rank)] !=
                         real_node_of_rank[static_cast<std::size_t>(rank - 1)]) {
          throw UsageError(origin->quoted() + " puts ranks " + std::to_string(rank - 1) + " and " +
                           std::to_string(rank) + " on virtual node " + std::to_string(node) +
                           ", but they run on different machines (" +
                           host_of_rank[static_cast<std::size_t>(rank - 1)] + ", " +
                           host_of_rank[static_cast<std::size_t>(rank)] +
                           "); a virtual node must stay inside one shared-memory node");
        }
      }
    }
    return layout;
  }

  // Real nodes, numbered in the order of their lowest rank; their ranks need not be consecutive.
  std::map<int, int> node_of_key;
  for (int rank = 0; rank < ranks; ++rank) {
    const auto [it, is_new] = node_of_key.try_emplace(
        real_node_of_rank[static_cast<std::size_t>(rank)], static_cast<int>(node_of_key.size()));
    if (is_new) {
      layout.node_sizes.push_back(0);
      layout.leader_of_node.push_back(rank);
    }
    layout.node_of_rank.push_back(it->second);
    layout.local_rank_of_rank.push_back(layout.node_sizes[static_cast<std::size_t>(it->second)]++);
  }
  return layout;
}

std::vector<int> resolve_numa(const NodeLayout& layout,
                              const std::vector<int>& hardware_numa_of_rank,
                              const LayoutRequest& request) {
  if (!request.numa_per_node) return hardware_numa_of_rank;
  const int domains = parse_layout_count(*request.numa_per_node);
  const int smallest = *std::min_element(layout.node_sizes.begin(), layout.node_sizes.end());
  if (domains > smallest) {
    throw UsageError(request.numa_per_node->quoted() + " asks for more NUMA domains than the " +
                     std::to_string(smallest) + " ranks of the smallest node; expected 1 to " +
                     std::to_string(smallest));
  }
  std::vector<int> numa_of_rank;
  for (std::size_t rank = 0; rank < layout.node_of_rank.size(); ++rank) {
    const long local = layout.local_rank_of_rank[rank];
    const long size = layout.node_sizes[static_cast<std::size_t>(layout.node_of_rank[rank])];
    numa_of_rank.push_back(static_cast<int>(local * domains / size));
  }
  return numa_of_rank;
}

RankLayout::RankLayout(NodeLayout nodes, std::vector<int> numa_of_rank)
    : nodes_(std::move(nodes)), numa_of_rank_(std::move(numa_of_rank)) {}

RankLayout RankLayout::of_node_sizes(const std::vector<int>& node_sizes, int numa_per_node) {
  std::string sizes;
  for (const int size : node_sizes)
    sizes += (sizes.empty() ? "" : ",") + std::to_string(size);
  LayoutRequest request;
  request.node_sizes = LayoutSetting{"node sizes", sizes};
  request.numa_per_node = LayoutSetting{"NUMA domains per node", std::to_string(numa_per_node)};
  const int ranks = std::accumulate(node_sizes.begin(), node_sizes.end(), 0);
  NodeLayout nodes =
      resolve_node_layout(std::vector<int>(static_cast<std::size_t>(ranks), 0), {}, request);
  std::vector<int> numa = resolve_numa(nodes, {}, request);
  return RankLayout(std::move(nodes), std::move(numa));
}

RankLayout RankLayout::subset(const std::vector<int>& ranks) const {
  std::vector<int> node_of_rank, numa_of_rank;
  for (const int rank : ranks) {
    node_of_rank.push_back(node_of(rank));
    numa_of_rank.push_back(numa_of(rank));
  }
  NodeLayout nodes = resolve_node_layout(node_of_rank, {}, LayoutRequest{});
  nodes.virtual_origin = nodes_.virtual_origin;
  return RankLayout(std::move(nodes), std::move(numa_of_rank));
}

bool RankLayout::nodes_equal() const {
  return std::adjacent_find(nodes_.node_sizes.begin(), nodes_.node_sizes.end(),
                            std::not_equal_to<>()) == nodes_.node_sizes.end();
}

int RankLayout::largest_node_size() const {
  return *std::max_element(nodes_.node_sizes.begin(), nodes_.node_sizes.end());
}

int RankLayout::smallest_node_size() const {
  return *std::min_element(nodes_.node_sizes.begin(), nodes_.node_sizes.end());
}

int RankLayout::numa_domains_on(int node) const {
  std::set<int> domains;
  for (int rank = 0; rank < size(); ++rank) {
    if (node_of(rank) == node) domains.insert(numa_of(rank));
  }
  return static_cast<int>(domains.size());
}

std::string RankLayout::describe() const {
  std::string text = std::to_string(size()) + (size() == 1 ? " rank, " : " ranks, ") +
                     std::to_string(node_count()) + (node_count() == 1 ? " node" : " nodes");
  if (nodes_equal()) {
    text += " of " + std::to_string(node_size(0));
  } else {
    std::string sizes;
    for (int size : nodes_.node_sizes)
      sizes += (sizes.empty() ? "" : "+") + std::to_string(size);
    text += " of " + sizes;
  }
  if (is_virtual()) text += " (virtual: " + nodes_.virtual_origin + ")";
  return text;
}

}  // namespace a2afft::detail
