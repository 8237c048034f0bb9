// `a2afft topology`: the rank map, so that users see the layout every backend will see.

#include <mpi.h>

#include <iostream>

#include <a2afft/tools/topology.hpp>

#include "commands.hpp"
#include "options.hpp"
#include "report/context.hpp"
#include "report/text_table.hpp"

namespace a2afft::commands {

Runner add_topology(CLI::App& app) {
  auto* command = app.add_subcommand("topology", "Print the rank map: host, node, NUMA domain");
  auto layout = std::make_shared<cli::LayoutFlags>();
  layout->add_to(*command);
  return [layout] {
    const RankMap ranks = map_ranks(MPI_COMM_WORLD, layout->request());
    if (!is_printing_rank()) return 0;
    report::print_context(std::cout, report::collect_context(ranks, "a2afft topology"));
    report::TextTable table({{"rank", true},
                             {"host"},
                             {"node", true},
                             {"local rank", true},
                             {"node size", true},
                             {"NUMA", true},
                             {"role"}});
    for (int rank = 0; rank < ranks.size(); ++rank) {
      const auto r = static_cast<std::size_t>(rank);
      const auto node = static_cast<std::size_t>(ranks.node_of_rank[r]);
      table.add_row({std::to_string(rank), ranks.host_of_rank[r], std::to_string(node),
                     std::to_string(ranks.local_rank_of_rank[r]),
                     std::to_string(ranks.node_sizes[node]), std::to_string(ranks.numa_of_rank[r]),
                     ranks.leader_of_node[node] == rank ? "node leader" : ""});
    }
    table.print(std::cout);
    return 0;
  };
}

}  // namespace a2afft::commands
