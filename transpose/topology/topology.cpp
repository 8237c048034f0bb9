#include "topology/topology.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "topology/hardware.hpp"

namespace a2afft::detail {
namespace {

// What each rank tells every other rank about itself.
struct RankFacts {
  int shared_memory_leader;  // comm rank of the lowest rank sharing our memory
  int numa_domain;
  int numa_domains;
  int cores;
  std::array<char, MPI_MAX_PROCESSOR_NAME> host;
};

}  // namespace

Topology::Topology(MPI_Comm comm, const LayoutRequest& request)
    : comm_(mpi::Comm::duplicate(comm)),
      shared_memory_comm_(mpi::Comm::split_shared_memory(comm_.get())) {
  const HardwarePlace place = probe_hardware_place();
  RankFacts mine{};
  mine.shared_memory_leader = comm_.rank();
  mpi::check(MPI_Bcast(&mine.shared_memory_leader, 1, MPI_INT, 0, shared_memory_comm_.get()),
             "MPI_Bcast(shared-memory leader)");
  mine.numa_domain = place.numa_domain;
  mine.numa_domains = place.numa_domains;
  mine.cores = place.cores;
  int length = 0;
  mpi::check(MPI_Get_processor_name(mine.host.data(), &length), "MPI_Get_processor_name");

  std::vector<RankFacts> facts(static_cast<std::size_t>(size()));
  mpi::check(MPI_Allgather(&mine, sizeof(RankFacts), MPI_BYTE, facts.data(), sizeof(RankFacts),
                           MPI_BYTE, comm_.get()),
             "MPI_Allgather(rank facts)");

  std::vector<int> real_node_of_rank;
  std::vector<int> hardware_numa_of_rank;
  std::map<std::string, int> ranks_on_host;
  std::map<std::string, int> cores_on_host;
  bool hwloc_saw_numa = false;
  for (const RankFacts& rank : facts) {
    real_node_of_rank.push_back(rank.shared_memory_leader);
    hardware_numa_of_rank.push_back(rank.numa_domain);
    host_of_rank_.emplace_back(rank.host.data());
    ++ranks_on_host[host_of_rank_.back()];
    cores_on_host[host_of_rank_.back()] = rank.cores;
    hwloc_saw_numa = hwloc_saw_numa || rank.numa_domains > 1;
  }
  host_count_ = static_cast<int>(ranks_on_host.size());
  for (const auto& [host, ranks] : ranks_on_host) {
    oversubscribed_ = oversubscribed_ || ranks > cores_on_host[host];
  }

  NodeLayout nodes = resolve_node_layout(real_node_of_rank, host_of_rank_, request);
  std::vector<int> numa_of_rank = resolve_numa(nodes, hardware_numa_of_rank, request);
  layout_ = RankLayout(std::move(nodes), std::move(numa_of_rank));
  numa_origin_ = request.numa_per_node ? "virtual: " + request.numa_per_node->quoted()
                 : hwloc_saw_numa      ? "hwloc"
                                       : "hwloc: one domain";
  node_comm_ = mpi::Comm::split(comm_.get(), node(), rank());
}

Topology::Topology(const Topology& parent, MPI_Comm subset)
    : comm_(mpi::Comm::duplicate(subset)),
      shared_memory_comm_(mpi::Comm::split_shared_memory(comm_.get())),
      numa_origin_(parent.numa_origin_),
      oversubscribed_(parent.oversubscribed_) {
  const int parent_rank = parent.rank();
  std::vector<int> parent_of_rank(static_cast<std::size_t>(size()));
  mpi::check(
      MPI_Allgather(&parent_rank, 1, MPI_INT, parent_of_rank.data(), 1, MPI_INT, comm_.get()),
      "MPI_Allgather(parent ranks)");
  std::set<std::string> hosts;
  for (const int p : parent_of_rank) {
    host_of_rank_.push_back(parent.host_of(p));
    hosts.insert(host_of_rank_.back());
  }
  host_count_ = static_cast<int>(hosts.size());
  layout_ = parent.layout_.subset(parent_of_rank);
  node_comm_ = mpi::Comm::split(comm_.get(), node(), rank());
}

}  // namespace a2afft::detail
