#include "mpi/shared_window.hpp"

#include <cstdint>
#include <utility>

#include "mpi/comm.hpp"

namespace a2afft::detail::mpi {

SharedWindow::SharedWindow(MPI_Comm comm, std::size_t bytes) {
  MPI_Info info = MPI_INFO_NULL;
  check(MPI_Info_create(&info), "MPI_Info_create");
  MPI_Info_set(info, "alloc_shared_noncontig", "true");
  // Whole pages, so that segments do not share pages and each owner's first touch places its
  // own in its NUMA domain; plus room to align the start, which Open MPI's segments are not
  // (to 16 bytes, even).
  constexpr std::size_t kPageBytes = 4096;
  const std::size_t rounded = (bytes + kPageBytes - 1) / kPageBytes * kPageBytes + kAlignment;
  std::byte* mine = nullptr;
  const int rc =
      MPI_Win_allocate_shared(static_cast<MPI_Aint>(rounded), 1, info, comm, &mine, &window_);
  MPI_Info_free(&info);
  check(rc, "MPI_Win_allocate_shared");
  check(MPI_Win_set_errhandler(window_, MPI_ERRORS_RETURN), "MPI_Win_set_errhandler");
  int ranks = 0;
  check(MPI_Comm_size(comm, &ranks), "MPI_Comm_size");
  for (int rank = 0; rank < ranks; ++rank) {
    MPI_Aint size = 0;
    int unit = 0;
    std::byte* base = nullptr;
    check(MPI_Win_shared_query(window_, rank, &size, &unit, &base), "MPI_Win_shared_query");
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
      bases_(std::move(other.bases_)),
      sizes_(std::move(other.sizes_)) {}

SharedWindow& SharedWindow::operator=(SharedWindow&& other) noexcept {
  if (this != &other) {
    release();
    window_ = std::exchange(other.window_, MPI_WIN_NULL);
    bases_ = std::move(other.bases_);
    sizes_ = std::move(other.sizes_);
  }
  return *this;
}

SharedWindow::~SharedWindow() {
  release();
}

void SharedWindow::sync() const {
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
}

}  // namespace a2afft::detail::mpi
