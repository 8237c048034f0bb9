// The memory estimates made before a command allocates: what Linux and cgroups say is
// available, how items add up, and each backend's scratch bound.

#include "memory_check.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "registry.hpp"

namespace a2afft::cli {
namespace {

TEST(Memory, reads_what_linux_and_cgroups_say_is_available) {
  EXPECT_EQ(parse_meminfo_available("MemTotal:       24000000 kB\nMemFree:  100 kB\n"
                                    "MemAvailable:   22000000 kB\nBuffers: 1 kB\n"),
            22000000.0 * 1024);
  EXPECT_EQ(parse_meminfo_available("MemTotal: 24000000 kB\n"), std::nullopt);
  EXPECT_EQ(parse_meminfo_available("MemAvailable: lots\n"), std::nullopt);
  EXPECT_EQ(parse_cgroup_room("max\n", "123\n"), std::nullopt);
  EXPECT_EQ(parse_cgroup_room("1000\n", "300\n"), 700.0);
  EXPECT_EQ(parse_cgroup_room("1000\n", "3000\n"), 0.0);
  EXPECT_EQ(parse_cgroup_room("", ""), std::nullopt);
}

TEST(Memory, estimates_add_bounds_only_when_asked_and_print_binary_units) {
  const MemoryEstimate estimate{{{"arrays", 1024.0}, {"scratch", 4096.0, true}},
                                {{"gathered", 2048.0}}};
  EXPECT_EQ(estimate.per_rank_bytes(), 5120.0);
  EXPECT_EQ(estimate.per_rank_bytes(false), 1024.0);
  EXPECT_EQ(estimate.on_rank0_bytes(false), 2048.0);
  EXPECT_EQ(format_bytes(512), "512 B");
  EXPECT_EQ(format_bytes(1.5 * (1 << 30)), "1.5 GiB");
  EXPECT_EQ(format_bytes(4096.0 * 4096 * 4096 * 16), "1.0 TiB");
}

TEST(Memory, scratch_follows_each_backends_bound) {
  // 4 ranks, nodes of 2, 1 KiB blocks: one rank's buffer is 4 KiB.
  EXPECT_EQ(exchange_scratch_bytes("pairwise", 4, 2, 1024), 0.0);
  EXPECT_EQ(exchange_scratch_bytes("tra:radix=2", 4, 2, 1024), 3 * 4096.0);
  EXPECT_EQ(exchange_scratch_bytes("node-aware", 4, 2, 1024), (2 + 5 * 2) * 4096.0);
  EXPECT_EQ(exchange_scratch_bytes("tra", 1, 1, 1024), 0.0);  // no plan on one rank
  // Every row: its own rank and node buffers times one rank's 8 blocks of 64 B, so twice the
  // blocks need twice the scratch and bigger nodes never need less.
  for (const detail::ExchangeInfo* info : detail::registered_exchanges()) {
    const double rank_bytes = 8 * 64.0;
    const double bytes = exchange_scratch_bytes(std::string(info->name), 8, 4, 64);
    EXPECT_TRUE(std::isfinite(bytes)) << info->name;
    EXPECT_EQ(bytes, (info->scratch.rank_buffers + 4 * info->scratch.node_buffers) * rank_bytes)
        << info->name;
    EXPECT_EQ(exchange_scratch_bytes(std::string(info->name), 8, 4, 128), 2 * bytes) << info->name;
    EXPECT_LE(exchange_scratch_bytes(std::string(info->name), 8, 2, 64), bytes) << info->name;
  }
}

}  // namespace
}  // namespace a2afft::cli
