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

/// Physical cores in this process's CPU binding (hwloc): what its threads can run on. A core
/// counts when any of its hardware threads is in the binding; the machine's cores when hwloc
/// cannot tell; a simulated host's cores in simulation.
int probe_bound_cores();

/// The largest CPU cache hwloc finds on this machine (the last level, e.g. an L3), in bytes;
/// 0 without hwloc information.
std::size_t probe_last_level_cache_bytes();

}  // namespace a2afft::detail
