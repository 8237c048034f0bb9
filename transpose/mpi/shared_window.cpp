#include "mpi/shared_window.hpp"

#include <sys/mman.h>

#include <atomic>
#include <cstdint>
#include <utility>

#include "folded_memory.hpp"
#include "mpi/comm.hpp"
#include "simulator/smpi_rules.hpp"

namespace a2afft::detail::mpi {
namespace {

struct Segment {
  std::byte* base;
  MPI_Aint size;
};

// The simulator's shim (simulator::kSharedQueryAnswersOwnSegment): all simulated ranks live in
// one address space, so a peer's segment is addressable as it is; every rank of the node says
// where its own lies (an MPI_Allgather of base and size). The window stays, for sync() and for
// MPI_Win_free's collective end.
std::vector<Segment> segments_by_allgather(MPI_Comm comm, int ranks, std::byte* mine,
                                           std::size_t bytes) {
  const MPI_Aint own[2] = {static_cast<MPI_Aint>(reinterpret_cast<std::uintptr_t>(mine)),
                           static_cast<MPI_Aint>(bytes)};
  std::vector<MPI_Aint> all(2 * static_cast<std::size_t>(ranks));
  check(MPI_Allgather(own, 2, MPI_AINT, all.data(), 2, MPI_AINT, comm), "MPI_Allgather");
  std::vector<Segment> segments;
  for (std::size_t rank = 0; rank < static_cast<std::size_t>(ranks); ++rank) {
    segments.push_back({reinterpret_cast<std::byte*>(static_cast<std::uintptr_t>(all[2 * rank])),
                        all[2 * rank + 1]});
  }
  return segments;
}

std::vector<Segment> segments_by_shared_query(MPI_Win window, int ranks) {
  std::vector<Segment> segments;
  for (int rank = 0; rank < ranks; ++rank) {
    Segment segment{nullptr, 0};
    int unit = 0;
    check(MPI_Win_shared_query(window, rank, &segment.size, &unit, &segment.base),
          "MPI_Win_shared_query");
    segments.push_back(segment);
  }
  return segments;
}

std::vector<Segment> query_segments(MPI_Win window, MPI_Comm comm, int ranks, std::byte* mine,
                                    std::size_t bytes) {
  if constexpr (simulator::kSharedQueryAnswersOwnSegment) {
    return segments_by_allgather(comm, ranks, mine, bytes);
  }
  return segments_by_shared_query(window, ranks);
}

// Our segment's pages, allocated now, at plan time, by their owner. A shared window is shmem:
// under the common shmem_enabled=never it gets no transparent huge pages (madvise cannot ask
// for them), so its first touch costs a fault per 4 KiB page, 16,384 for 64 MiB, a few
// microseconds each in a VM. Left to the first run() that touches them, they land in whatever
// the caller times. MADV_POPULATE_WRITE (Linux 5.14) faults them all in one call without
// changing a byte (peers may write their blocks here as soon as they are past the constructor);
// elsewhere a read of every page allocates it the same way (shmem maps no shared zero page).
// Peers map our pages lazily, a fault per 16 pages at most: mapping every peer's segment here
// would cost page tables for Q segments in each of Q ranks.
// The segment need not start on a page (Open MPI's do not); its first page is then shared with
// what lies before it, which populating leaves as it is.
void populate(std::byte* base, std::size_t bytes) {
  if (base == nullptr || bytes == 0) return;
  constexpr std::uintptr_t kPageBytes = 4096;
  const std::uintptr_t first = reinterpret_cast<std::uintptr_t>(base) / kPageBytes * kPageBytes;
  const std::uintptr_t end = reinterpret_cast<std::uintptr_t>(base) + bytes;
#ifdef MADV_POPULATE_WRITE
  if (madvise(reinterpret_cast<void*>(first), end - first, MADV_POPULATE_WRITE) == 0) return;
#endif
  for (std::uintptr_t page = first; page < end; page += kPageBytes)
    static_cast<void>(*reinterpret_cast<volatile const std::byte*>(page));
}

}  // namespace

SharedWindow::SharedWindow(MPI_Comm comm, std::size_t bytes, Folding folding) {
  MPI_Info info = MPI_INFO_NULL;
  check(MPI_Info_create(&info), "MPI_Info_create");
  MPI_Info_set(info, "alloc_shared_noncontig", "true");
  // Whole pages, so that segments do not share pages and each owner's first touch places its
  // own in its NUMA domain; plus room to align the start, which Open MPI's segments are not
  // (to 16 bytes, even).
  constexpr std::size_t kPageBytes = 4096;
  const std::size_t rounded = (bytes + kPageBytes - 1) / kPageBytes * kPageBytes + kAlignment;
  // Folded (simulation only, see Folding): the segment is folded memory, shared by every rank
  // of the process, and the window holds none; it stays for sync() and its collective end. The
  // SMPI shim below finds a peer's segment by where the peer says it lies, folded or not.
  // Outside the simulated build memory_folded() is never true.
  const bool fold =
      simulator::kSimulated && folding == Folding::when_memory_folded && memory_folded();
  if (fold) folded_ = allocate_folded(rounded);
  std::byte* mine = nullptr;
  const int rc = MPI_Win_allocate_shared(static_cast<MPI_Aint>(fold ? 0 : rounded), 1, info, comm,
                                         &mine, &window_);
  MPI_Info_free(&info);
  check(rc, "MPI_Win_allocate_shared");
  if (fold) mine = folded_.data();
  check(MPI_Win_set_errhandler(window_, MPI_ERRORS_RETURN), "MPI_Win_set_errhandler");
  int ranks = 0;
  check(MPI_Comm_size(comm, &ranks), "MPI_Comm_size");
  const std::vector<Segment> segments = query_segments(window_, comm, ranks, mine, rounded);
  if (!fold) populate(mine, rounded);
  for (const auto& [base, size] : segments) {
    // Every rank aligns every segment alike, so all agree where each one starts.
    const auto address = reinterpret_cast<std::uintptr_t>(base);
    const std::size_t skip = (kAlignment - address % kAlignment) % kAlignment;
    bases_.push_back(size == 0 ? base : base + skip);
    sizes_.push_back(static_cast<std::size_t>(size) - (size == 0 ? 0 : skip));
  }
  check(MPI_Win_lock_all(MPI_MODE_NOCHECK, window_), "MPI_Win_lock_all");
}

SharedWindow::SharedWindow(SharedWindow&& other) noexcept
    : window_(std::exchange(other.window_, MPI_WIN_NULL)),
      folded_(std::move(other.folded_)),
      bases_(std::move(other.bases_)),
      sizes_(std::move(other.sizes_)) {}

SharedWindow& SharedWindow::operator=(SharedWindow&& other) noexcept {
  if (this != &other) {
    release();
    window_ = std::exchange(other.window_, MPI_WIN_NULL);
    folded_ = std::move(other.folded_);
    bases_ = std::move(other.bases_);
    sizes_ = std::move(other.sizes_);
  }
  return *this;
}

SharedWindow::~SharedWindow() {
  release();
}

void SharedWindow::sync() const {
  if constexpr (simulator::kWinSyncMissing) {
    // Its ranks share one address space and run one at a time between MPI calls, so a fence
    // orders the stores.
    std::atomic_thread_fence(std::memory_order_seq_cst);
    return;
  }
  check(MPI_Win_sync(window_), "MPI_Win_sync");
}

void SharedWindow::release() noexcept {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (window_ != MPI_WIN_NULL && !finalized) {
    MPI_Win_unlock_all(window_);
    MPI_Win_free(&window_);
  }
  window_ = MPI_WIN_NULL;
  folded_ = Buffer{};
}

}  // namespace a2afft::detail::mpi
