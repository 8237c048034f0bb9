// Phase timers over ranks: reduce_phases and the phases exchanges record, on the rank counts and
// layouts the conformance tests use.

#include <mpi.h>

#include <gtest/gtest.h>

#include <vector>

#include "make_exchange.hpp"
#include "timing/phase_stats.hpp"
#include "topology/topology.hpp"
#include "world_topology.hpp"

namespace a2afft::detail {
namespace {

const Topology& topology() {
  return testing_support::world_topology();
}

TEST(PhaseTimer, reduces_over_ranks_including_phases_some_ranks_never_entered) {
  const int rank = topology().rank();
  const int ranks = topology().size();
  PhaseTimer timer;
  timer.add("copy", rank + 1.0);
  timer.add("copy", 1.0);
  if (rank == ranks - 1) timer.add("gather", 2.0);
  const auto stats = reduce_phases(timer, MPI_COMM_WORLD);
  ASSERT_EQ(stats.size(), 2u);
  EXPECT_DOUBLE_EQ(stats.at("copy").min_seconds, 2.0);
  EXPECT_DOUBLE_EQ(stats.at("copy").max_seconds, ranks + 1.0);
  EXPECT_DOUBLE_EQ(stats.at("copy").mean_seconds, (ranks + 3) / 2.0);
  EXPECT_DOUBLE_EQ(stats.at("gather").max_seconds, 2.0);
  EXPECT_DOUBLE_EQ(stats.at("gather").min_seconds, ranks == 1 ? 2.0 : 0.0);
}

TEST(PhaseTimer, exchanges_record_their_phases) {
  PhaseTimer timer;
  const auto plan = make_exchange("pairwise", topology(), 16);
  plan->attach_timer(&timer);
  std::vector<std::byte> send(16 * static_cast<std::size_t>(topology().size()));
  std::vector<std::byte> recv(send.size());
  plan->run(send.data(), recv.data());
  EXPECT_EQ(timer.seconds().count("copy"), 1u);
  plan->attach_timer(nullptr);
  timer.clear();
  plan->run(send.data(), recv.data());
  // Detached, the plan records nothing: every phase stays at the zero clear() left.
  for (const auto& [phase, seconds] : timer.seconds())
    EXPECT_EQ(seconds, 0.0) << phase;
  EXPECT_EQ(timer.seconds().count("copy"), 1u);
}

}  // namespace
}  // namespace a2afft::detail
