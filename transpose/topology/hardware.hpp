#pragma once

#include <cstddef>

namespace a2afft::detail {

/// What hwloc says about where this process runs.
struct HardwarePlace {
  int numa_domain = 0;  // logical index of the NUMA node holding our CPU; 0 without hwloc info
  int numa_domains = 1;
  int cores = 1;  // physical cores on this machine, for oversubscription warnings
};

HardwarePlace probe_hardware_place();

/// The largest CPU cache hwloc finds on this machine (the last level, e.g. an L3), in bytes;
/// 0 without hwloc information.
std::size_t probe_last_level_cache_bytes();

}  // namespace a2afft::detail
