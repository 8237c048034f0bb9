// Memory folding for the command and tests (include/a2afft/tools/simulation.hpp), defined in
// liba2afft beside the exchanges' own (transpose/folded_memory.hpp), which allocate_aligned()
// consults for every plan's scratch: one state for the scope and the allocations.

#include <a2afft/tools/simulation.hpp>

#include "folded_memory.hpp"

namespace a2afft {

bool memory_folding_available() noexcept {
  return detail::memory_folding_available();
}

FoldedMemory::FoldedMemory() : scope_(std::make_unique<detail::FoldedMemoryScope>()) {}

FoldedMemory::~FoldedMemory() = default;

bool memory_folded() noexcept {
  return detail::memory_folded();
}

Buffer allocate_folded(std::size_t bytes) {
  return detail::allocate_folded(bytes);
}

}  // namespace a2afft
