// Topology on the layouts the conformance tests use (one node, virtual nodes of 2 and 4, uneven
// nodes), set through the A2AFFT_* environment: the facts every backend plans with agree with
// the communicators MPI gives.

#include <mpi.h>

#include <gtest/gtest.h>

#include "topology/topology.hpp"
#include "world_topology.hpp"

namespace a2afft::detail {
namespace {

const Topology& topology() {
  return testing_support::world_topology();
}

TEST(Topology, facts_agree_with_the_layout) {
  const Topology& topo = topology();
  int total = 0;
  for (int size : topo.node_sizes())
    total += size;
  EXPECT_EQ(total, topo.size());
  int node_comm_size = 0;
  MPI_Comm_size(topo.node_comm(), &node_comm_size);
  EXPECT_EQ(node_comm_size, topo.node_size(topo.node()));
  int node_comm_rank = 0;
  MPI_Comm_rank(topo.node_comm(), &node_comm_rank);
  EXPECT_EQ(node_comm_rank, topo.local_rank());
  EXPECT_EQ(topo.local_rank_of(topo.leader_of(topo.node())), 0);
}

}  // namespace
}  // namespace a2afft::detail
