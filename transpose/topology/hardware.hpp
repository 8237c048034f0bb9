#pragma once

namespace a2afft {

/// What hwloc says about where this process runs.
struct HardwarePlace {
  int numa_domain = 0;  // logical index of the NUMA node holding our CPU; 0 without hwloc info
  int numa_domains = 1;
  int cores = 1;  // physical cores on this machine, for oversubscription warnings
};

HardwarePlace probe_hardware_place();

}  // namespace a2afft
