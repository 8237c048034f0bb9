#include "folded_memory.hpp"

#include <mpi.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "error.hpp"

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

[[maybe_unused]] std::size_t take_slot() {
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

#if A2AFFT_SMPI
// One slot's memory, shared by every rank of the process through SMPI's process-wide table of
// shared calls (SMPI_SHARED_CALL's), which the ranks' private copies of this library all see.
struct FoldedRegion {
  std::byte* data = nullptr;
  std::size_t bytes = 0;
};

FoldedRegion& region_of_slot(std::size_t slot) {
  const std::string key = std::to_string(slot);
  constexpr const char* kTable = "a2afft_folded_region";
  if (smpi_shared_known_call(kTable, key.c_str()) != 0) {
    return *static_cast<FoldedRegion*>(smpi_shared_get_call(kTable, key.c_str()));
  }
  // Lives as long as the process: every rank may come back to it.
  return *static_cast<FoldedRegion*>(smpi_shared_set_call(kTable, key.c_str(), new FoldedRegion));
}
#endif

}  // namespace

bool memory_folding_available() noexcept {
  return A2AFFT_SMPI;
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
  require_simulated_build();
#if A2AFFT_SMPI
  const std::size_t slot = take_slot();
  FoldedRegion& region = region_of_slot(slot);
  if (region.bytes < bytes || region.data == nullptr) {
    // A larger buffer than this slot had: a new region. The old one stays mapped (other ranks
    // may still hold buffers in it); a sweep grows each slot a few times at most. SMPI folds
    // nothing of size 0, so at least one byte.
    region.data = static_cast<std::byte*>(SMPI_SHARED_MALLOC(std::max<std::size_t>(bytes, 1)));
    region.bytes = bytes;
  }
  std::shared_ptr<void> owner(region.data, [slot](void*) { slot_in_use[slot] = false; });
  return Buffer(std::move(owner), region.data, bytes);
#else
  (void)bytes;
  return {};
#endif
}

}  // namespace a2afft::detail
