#pragma once

#include <mpi.h>

#include <cstddef>
#include <vector>

#include "a2afft/buffer.hpp"

namespace a2afft::detail::mpi {

/// One MPI-3 shared-memory window (MPI_Win_allocate_shared) on a communicator whose ranks
/// share memory: every rank's segment is directly addressable by every other rank. The window
/// stays in one passive-target epoch (MPI_Win_lock_all) for its whole life, so sync() is valid
/// at any time; ranks order their loads and stores by sync(), a barrier, and sync() again (the
/// MPI-3 unified model's pattern). Construction and destruction are collective.
class SharedWindow {
 public:
  static constexpr std::size_t kAlignment = 64;

  /// Whether the segments may be folded memory (allocate_folded()) while a FoldedMemoryScope
  /// lives: only for data whose contents nobody reads back (a timing-only run's blocks), never
  /// for what ranks tell each other through the window (where a buffer lies), which must stay
  /// real. Folded, every rank's segment of the window may be the same memory.
  enum class Folding { never, when_memory_folded };

  SharedWindow() = default;
  /// Our segment holds at least `bytes` (0 is fine) and starts kAlignment-aligned. Its pages are
  /// faulted in here, so that runs on it never take their first-touch faults.
  SharedWindow(MPI_Comm comm, std::size_t bytes, Folding folding = Folding::never);
  SharedWindow(SharedWindow&& other) noexcept;
  SharedWindow& operator=(SharedWindow&& other) noexcept;
  SharedWindow(const SharedWindow&) = delete;
  SharedWindow& operator=(const SharedWindow&) = delete;
  ~SharedWindow();

  /// The segment of rank `rank` of the window's communicator, and its size.
  std::byte* segment(int rank) const { return bases_[static_cast<std::size_t>(rank)]; }
  std::size_t segment_bytes(int rank) const { return sizes_[static_cast<std::size_t>(rank)]; }
  /// MPI_Win_sync: completes our stores to, and refreshes our view of, every segment.
  void sync() const;

 private:
  void release() noexcept;

  MPI_Win window_ = MPI_WIN_NULL;
  Buffer folded_;  // our segment, when folded (the window then holds none of its own)
  std::vector<std::byte*> bases_;
  std::vector<std::size_t> sizes_;
};

}  // namespace a2afft::detail::mpi
