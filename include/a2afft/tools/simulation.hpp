#pragma once

#include <cstddef>
#include <memory>

#include <a2afft/buffer.hpp>

// What a2afft offers a program that runs in its simulated build (SimGrid's SMPI: every rank of
// a simulated cluster runs inside one process on one machine; docs/simulation.md).

namespace a2afft {

namespace detail {
class FoldedMemoryScope;
}

/// Whether this a2afft is the simulated build, the only one that can fold memory.
bool memory_folding_available() noexcept;

/// Memory folding, for timing-only runs in the simulated build. While a FoldedMemory lives on a
/// rank, the memory a2afft's exchanges allocate on that rank (Exchange::allocate() from the heap,
/// every plan's scratch) comes from SMPI_SHARED_MALLOC: all ranks' buffers map onto the same few
/// physical pages, so thousands of simulated ranks fit in one machine's memory. The exchanges
/// still move and copy every byte, and the simulated times count them, but what they deliver is
/// garbage: only for runs whose results nobody reads (no checking, no FFT). Memory that comes
/// from an MPI shared window (mpml, nmpml, onmpml) is not folded. Constructing one outside the
/// simulated build throws UsageError. Scopes nest.
class FoldedMemory {
 public:
  FoldedMemory();
  ~FoldedMemory();
  FoldedMemory(const FoldedMemory&) = delete;
  FoldedMemory& operator=(const FoldedMemory&) = delete;

 private:
  std::unique_ptr<detail::FoldedMemoryScope> scope_;
};

/// Whether a FoldedMemory lives on this rank.
bool memory_folded() noexcept;

/// `bytes` of folded memory (SMPI_SHARED_MALLOC, page-aligned; contents meaningless). A rank's
/// live buffers never overlap one another, but every rank's k-th live buffer is the same
/// memory, which the process keeps to its end. Throws UsageError outside the simulated build.
Buffer allocate_folded(std::size_t bytes);

}  // namespace a2afft
