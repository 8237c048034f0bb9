#pragma once

// Memory folding for timing-only runs in the simulated build (SimGrid SMPI): all simulated ranks
// live in one process, so P ranks' exchange buffers would need P times the memory of one. SMPI's
// SMPI_SHARED_MALLOC maps every such buffer onto the same few physical pages, so a simulation at
// thousands of ranks fits on one machine, at the price of the buffers' contents (every rank reads
// and writes the same bytes). Never implicit: a caller that reads nothing back asks for it.

#include <cstddef>

#include "a2afft/buffer.hpp"

namespace a2afft::detail {

/// Whether this build can fold memory: it is the simulated build (simulator::kSimulated).
bool memory_folding_available() noexcept;

/// Whether a FoldedMemoryScope lives on this rank: allocate_aligned() then folds.
bool memory_folded() noexcept;

/// While one lives on a rank, allocate_aligned() (ExchangePlan::allocate()'s default and the
/// exchanges' scratch) gives folded memory on that rank. Scopes nest. Throws UsageError outside
/// the simulated build. Only for runs whose results nobody reads: a folded exchange moves and
/// copies every byte as usual, but the bytes it delivers are meaningless.
class FoldedMemoryScope {
 public:
  FoldedMemoryScope();
  ~FoldedMemoryScope();
  FoldedMemoryScope(const FoldedMemoryScope&) = delete;
  FoldedMemoryScope& operator=(const FoldedMemoryScope&) = delete;
};

/// `bytes` of folded memory (SMPI_SHARED_MALLOC, page-aligned). A rank's live buffers are
/// distinct, but every rank's k-th live buffer is the same memory, kept for the whole process:
/// folding then costs a few memory mappings per process, not per rank. Throws UsageError
/// outside the simulated build.
Buffer allocate_folded(std::size_t bytes);

}  // namespace a2afft::detail
