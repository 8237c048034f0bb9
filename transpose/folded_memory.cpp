#include "folded_memory.hpp"

#include <mpi.h>

#include <memory>
#include <string>

#include "error.hpp"

namespace a2afft::detail {
namespace {

// Per rank: the simulated build loads one copy of this library per rank (SMPI's dlopen
// privatization), so each rank has its own count.
int folded_scopes = 0;

void require_simulated_build() {
  if (!memory_folding_available()) {
    throw UsageError(
        "memory folding needs the simulated build (SimGrid SMPI, ./scripts/run-tests --mpi smpi): "
        "it maps every rank's buffers onto the same memory with SMPI_SHARED_MALLOC, which only "
        "SMPI has; on a real MPI every rank has its own memory anyway");
  }
}

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
  // SMPI folds nothing of size 0 (it falls back to a plain allocation); one byte keeps the
  // pointer a folded one, so that SMPI_SHARED_FREE is always the right release.
  auto* data = static_cast<std::byte*>(SMPI_SHARED_MALLOC(bytes == 0 ? 1 : bytes));
  std::shared_ptr<void> owner(data, [](void* memory) { SMPI_SHARED_FREE(memory); });
  return Buffer(std::move(owner), data, bytes);
#else
  (void)bytes;
  return {};
#endif
}

}  // namespace a2afft::detail
