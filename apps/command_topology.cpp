// `a2afft topology`: the rank map, so that users see the layout every backend will see.

#include <mpi.h>

#include <iostream>

#include "commands.hpp"
#include "options.hpp"
#include "report/context.hpp"
#include "report/text_table.hpp"
#include "topology/topology.hpp"

namespace a2afft::commands {

Runner add_topology(CLI::App& app) {
  auto* command = app.add_subcommand("topology", "Print the rank map: host, node, NUMA domain");
  auto layout = std::make_shared<cli::LayoutFlags>();
  layout->add_to(*command);
  return [layout] {
    const Topology topology(MPI_COMM_WORLD, layout->request());
    if (!is_printing_rank()) return 0;
    report::print_context(std::cout, report::collect_context(topology, "a2afft topology"));
    report::TextTable table({{"rank", true},
                             {"host"},
                             {"node", true},
                             {"local rank", true},
                             {"node size", true},
                             {"NUMA", true},
                             {"role"}});
    for (int rank = 0; rank < topology.size(); ++rank) {
      const int node = topology.node_of(rank);
      table.add_row({std::to_string(rank), topology.host_of(rank), std::to_string(node),
                     std::to_string(topology.local_rank_of(rank)),
                     std::to_string(topology.node_size(node)),
                     std::to_string(topology.numa_of(rank)),
                     topology.leader_of(node) == rank ? "node leader" : ""});
    }
    table.print(std::cout);
    return 0;
  };
}

}  // namespace a2afft::commands
