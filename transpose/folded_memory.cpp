#include "folded_memory.hpp"

#include <mpi.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "error.hpp"
#include "simulator/smpi.hpp"
#include "simulator/smpi_rules.hpp"

namespace a2afft::detail {
namespace {

// Per rank: the simulated build loads one copy of this library per rank (SMPI's dlopen
// privatization), so each rank has its own count and its own slots.
int folded_scopes = 0;

// Slot k holds this rank's k-th live folded buffer. Every rank's slot k is the same memory: a
// region per slot for the whole process (below), so folding costs a few mappings in all rather
// than a few per rank. Linux allows 65,530 mappings per process, and 4,096 simulated ranks use
// 13 each before any buffer (their copies of the program and of liba2afft, a stack and its
// guard): a mapping per buffer and rank, as SMPI_SHARED_MALLOC makes, would pass the limit.
// Distinct slots keep one rank's buffers apart (send and receive never alias).
std::vector<bool> slot_in_use;

std::size_t take_slot() {
  const auto free_slot = std::find(slot_in_use.begin(), slot_in_use.end(), false);
  const auto slot = static_cast<std::size_t>(free_slot - slot_in_use.begin());
  if (free_slot == slot_in_use.end()) {
    slot_in_use.push_back(true);
  } else {
    *free_slot = true;
  }
  return slot;
}

void require_simulated_build() {
  if (!memory_folding_available()) {
    throw UsageError(
        "memory folding needs the simulated build (SimGrid SMPI, ./scripts/run-tests --mpi smpi): "
        "it maps every rank's buffers onto the same memory with SMPI_SHARED_MALLOC, which only "
        "SMPI has; on a real MPI every rank has its own memory anyway");
  }
}

// One slot's memory, shared by every rank of the process through SMPI's process-wide table of
// shared calls (simulator::process_wide), which the ranks' private copies of this library all see.
struct FoldedRegion {
  std::byte* data = nullptr;
  std::size_t bytes = 0;
};

FoldedRegion& region_of_slot(std::size_t slot) {
  // Lives as long as the process: every rank may come back to it.
  void* region = simulator::process_wide("a2afft_folded_region", std::to_string(slot),
                                         []() -> void* { return new FoldedRegion; });
  return *static_cast<FoldedRegion*>(region);
}

}  // namespace

bool memory_folding_available() noexcept {
  return simulator::kSimulated;
}

bool memory_folded() noexcept {
  return folded_scopes > 0;
}

FoldedMemoryScope::FoldedMemoryScope() {
  require_simulated_build();
  ++folded_scopes;
}

FoldedMemoryScope::~FoldedMemoryScope() {
  --folded_scopes;
}

Buffer allocate_folded(std::size_t bytes) {
  require_simulated_build();  // natively it throws: nothing below runs
  const std::size_t slot = take_slot();
  FoldedRegion& region = region_of_slot(slot);
  if (region.bytes < bytes || region.data == nullptr) {
    // A larger buffer than this slot had: a new region. The old one stays mapped (other ranks
    // may still hold buffers in it); a sweep grows each slot a few times at most.
    region.data = simulator::shared_malloc(bytes);
    region.bytes = bytes;
  }
  std::shared_ptr<void> owner(region.data, [slot](void*) { slot_in_use[slot] = false; });
  return Buffer(std::move(owner), region.data, bytes);
}

}  // namespace a2afft::detail
