#include "topology/hardware.hpp"

#include <hwloc.h>

#include <algorithm>

#include "simulator/smpi.hpp"
#include "simulator/smpi_rules.hpp"

namespace a2afft::detail {
namespace {

// RAII over one loaded hwloc topology and one bitmap.
struct HwlocTopology {
  hwloc_topology_t topology = nullptr;
  HwlocTopology() {
    if (hwloc_topology_init(&topology) != 0) topology = nullptr;
    if (topology != nullptr && hwloc_topology_load(topology) != 0) {
      hwloc_topology_destroy(topology);
      topology = nullptr;
    }
  }
  ~HwlocTopology() {
    if (topology != nullptr) hwloc_topology_destroy(topology);
  }
  HwlocTopology(const HwlocTopology&) = delete;
  HwlocTopology& operator=(const HwlocTopology&) = delete;
};

struct HwlocBitmap {
  hwloc_bitmap_t bitmap = hwloc_bitmap_alloc();
  ~HwlocBitmap() { hwloc_bitmap_free(bitmap); }
  HwlocBitmap() = default;
  HwlocBitmap(const HwlocBitmap&) = delete;
  HwlocBitmap& operator=(const HwlocBitmap&) = delete;
};

}  // namespace

HardwarePlace probe_hardware_place() {
  HardwarePlace place;
  // Simulated: hwloc would describe the machine running the simulation, not the simulated host
  // this rank is on. Its cores come from the platform (SimGrid's host); the platforms describe
  // no NUMA domains, so each host is one domain (and 4,096 ranks skip 4,096 hwloc loads).
  if constexpr (simulator::kSimulated) {
    place.cores = simulator::host_cores();
    return place;
  }
  const HwlocTopology hw;
  if (hw.topology == nullptr) return place;
  const int cores = hwloc_get_nbobjs_by_type(hw.topology, HWLOC_OBJ_CORE);
  if (cores > 0) place.cores = cores;
  const int domains = hwloc_get_nbobjs_by_type(hw.topology, HWLOC_OBJ_NUMANODE);
  if (domains <= 1) return place;
  place.numa_domains = domains;

  // A process bound inside one domain belongs to it; an unbound one to where it runs now.
  const HwlocBitmap where;
  if (hwloc_get_cpubind(hw.topology, where.bitmap, HWLOC_CPUBIND_PROCESS) != 0) return place;
  int touching = 0;
  for (int i = 0; i < domains; ++i) {
    hwloc_obj_t numa =
        hwloc_get_obj_by_type(hw.topology, HWLOC_OBJ_NUMANODE, static_cast<unsigned>(i));
    if (hwloc_bitmap_intersects(numa->cpuset, where.bitmap)) ++touching;
  }
  if (touching != 1) hwloc_get_last_cpu_location(hw.topology, where.bitmap, HWLOC_CPUBIND_PROCESS);
  for (int i = 0; i < domains; ++i) {
    hwloc_obj_t numa =
        hwloc_get_obj_by_type(hw.topology, HWLOC_OBJ_NUMANODE, static_cast<unsigned>(i));
    if (hwloc_bitmap_intersects(numa->cpuset, where.bitmap)) {
      place.numa_domain = static_cast<int>(numa->logical_index);
      break;
    }
  }
  return place;
}

int probe_bound_cores() {
  if constexpr (simulator::kSimulated) return simulator::host_cores();
  const HwlocTopology hw;
  if (hw.topology == nullptr) return 1;
  const int cores = std::max(1, hwloc_get_nbobjs_by_type(hw.topology, HWLOC_OBJ_CORE));
  const HwlocBitmap bound;
  if (hwloc_get_cpubind(hw.topology, bound.bitmap, HWLOC_CPUBIND_PROCESS) != 0) return cores;
  int touched = 0;
  for (int i = 0; i < cores; ++i) {
    hwloc_obj_t core = hwloc_get_obj_by_type(hw.topology, HWLOC_OBJ_CORE, static_cast<unsigned>(i));
    if (hwloc_bitmap_intersects(core->cpuset, bound.bitmap)) ++touched;
  }
  return std::max(1, touched);
}

std::size_t probe_last_level_cache_bytes() {
  const HwlocTopology hw;
  if (hw.topology == nullptr) return 0;
  std::size_t largest = 0;
  for (const hwloc_obj_type_t type : {HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L3CACHE,
                                      HWLOC_OBJ_L4CACHE, HWLOC_OBJ_L5CACHE}) {
    const hwloc_obj_t cache = hwloc_get_obj_by_type(hw.topology, type, 0);
    if (cache != nullptr && cache->attr != nullptr) {
      largest = std::max<std::size_t>(largest, cache->attr->cache.size);
    }
  }
  return largest;
}

}  // namespace a2afft::detail
