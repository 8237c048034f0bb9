// Totals beyond 2^31 bytes: every backend moves P blocks whose offsets cross 2^31, which
// breaks any int byte offset or count. Checked against the pattern (no vendor copy, to halve
// the memory). Labelled `large`: about 4.3 GB per rank at P = 2. Each code path that computes
// offsets runs once; a backend that here is another one's plan under a second name is left out.

#include <mpi.h>

#include <gtest/gtest.h>

#include <climits>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "pattern.hpp"
#include "registry.hpp"
#include "topology/topology.hpp"

namespace a2afft::detail {
namespace {

TEST(LargeExchange, offsets_beyond_two_gibibytes) {
  const Topology topology(MPI_COMM_WORLD, LayoutRequest::from_environment());
  const int ranks = topology.size();
  // Just over 2^31 bytes in all, with an odd block so nothing lines up by accident.
  const std::size_t block_bytes = (std::size_t{1} << 31) / static_cast<std::size_t>(ranks) + 4093;
  const std::size_t total = block_bytes * static_cast<std::size_t>(ranks);
  ASSERT_GT(total, std::size_t{1} << 31);

  // From allocate_aligned, as a plan's buffers: huge pages where the kernel gives them.
  const ExchangeBuffer send_buffer = allocate_aligned(total);
  const ExchangeBuffer recv_buffer = allocate_aligned(total);
  const std::span<std::byte> send = bytes_of(send_buffer);
  const std::span<std::byte> recv = bytes_of(recv_buffer);
  verify::fill_send_blocks(send, topology.rank(), ranks, block_bytes);
  // Same code, same plan at P = 2 on one node: bruck is tra at radix 2 (tra's default at P = 2),
  // nmpml is mpml's code with the leaders placed per NUMA domain (the offsets do not change).
  const std::set<std::string> same_path_as_another = {"bruck", "nmpml"};
  for (const ExchangeInfo* info : registered_exchanges()) {
    if (same_path_as_another.count(std::string(info->name)) != 0) {
      if (topology.rank() == 0)
        std::printf("[   large  ] %s: its code path runs above\n", std::string(info->name).c_str());
      continue;
    }
    // auto in measure mode would time every candidate on 2 GiB; estimate mode still builds and
    // runs the plan it picks, which is what auto adds.
    const Spec spec = parse_spec(info->name == "auto" ? "auto:mode=estimate" : info->name);
    if (!exchange_refusal(spec, ExchangeProblem{topology, block_bytes}).empty()) continue;
    const auto plan = make_exchange(spec, ExchangeProblem{topology, block_bytes});
    std::fill(recv.begin(), recv.end(), std::byte{0});
    const double start = MPI_Wtime();
    plan->run(send.data(), recv.data());
    const double seconds = MPI_Wtime() - start;
    const auto bad = verify::check_received_blocks(recv, topology.rank(), ranks, block_bytes);
    int local_bad = bad.has_value() ? 1 : 0;
    int any_bad = 0;
    MPI_Allreduce(&local_bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    EXPECT_EQ(any_bad, 0) << plan->describe() << ": "
                          << (bad ? bad->describe() : "on another rank");
    if (topology.rank() == 0) {
      std::printf("[   large  ] %s moved %zu bytes per rank in %.2f s\n", plan->describe().c_str(),
                  total, seconds);
    }
  }
}

}  // namespace
}  // namespace a2afft::detail
