// Fuzzes A2AFFT_NODE_SIZES (`3,1,2`) and A2AFFT_RANKS_PER_NODE, through to the layout they
// make: every rank on exactly one node, node sizes as asked, leaders the nodes' lowest ranks.

#include <cstddef>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "error.hpp"
#include "fuzz_check.hpp"
#include "topology/layout.hpp"

namespace {

constexpr std::size_t kMostRanks = 4096;  // layouts beyond this are parsed, not built

void check_layout(const a2afft::LayoutRequest& request, std::size_t ranks,
                  const std::string& text) {
  using a2afft::fuzz::require;
  const std::vector<int> one_real_node(ranks, 0);
  const std::vector<std::string> hosts(ranks, "fuzzhost");
  const a2afft::detail::NodeLayout layout =
      a2afft::detail::resolve_node_layout(one_real_node, hosts, request);
  require(layout.node_of_rank.size() == ranks && layout.local_rank_of_rank.size() == ranks,
          "a rank without a node", text);
  require(
      std::accumulate(layout.node_sizes.begin(), layout.node_sizes.end(), std::size_t{0}) == ranks,
      "node sizes that do not add up to the ranks", text);
  for (std::size_t rank = 0; rank < ranks; ++rank) {
    const auto node = static_cast<std::size_t>(layout.node_of_rank[rank]);
    require(node < layout.node_sizes.size() &&
                layout.local_rank_of_rank[rank] < layout.node_sizes[node] &&
                layout.leader_of_node[node] <= static_cast<int>(rank),
            "a rank outside its node", text);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace a2afft;
  using namespace a2afft::detail;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const std::vector<int> sizes = parse_node_sizes({"A2AFFT_NODE_SIZES", text});
    std::size_t ranks = 0;
    for (const int node_size : sizes) {
      fuzz::require(node_size > 0, "a node of no ranks", text);
      ranks += static_cast<std::size_t>(node_size);
    }
    LayoutRequest request;
    request.node_sizes = LayoutSetting{"A2AFFT_NODE_SIZES", text};
    if (ranks <= kMostRanks) check_layout(request, ranks, text);
  } catch (const UsageError&) {
  }
  try {
    const int per_node = parse_layout_count({"A2AFFT_RANKS_PER_NODE", text});
    fuzz::require(per_node > 0, "zero ranks per node", text);
    LayoutRequest request;
    request.ranks_per_node = LayoutSetting{"A2AFFT_RANKS_PER_NODE", text};
    const auto ranks = static_cast<std::size_t>(per_node) * 3;
    if (ranks <= kMostRanks) check_layout(request, ranks, text);
  } catch (const UsageError&) {
  }
  return 0;
}
