#pragma once

#include <cstddef>
#include <memory>
#include <utility>

namespace a2afft {

/// Memory a2afft allocated for the caller (Exchange::allocate()), uninitialised and 64-byte
/// aligned. Copies share the memory; it is freed when the last copy goes. Where the memory comes
/// from an MPI shared window, freeing it is collective: drop buffers in the same order on every
/// rank, and before MPI_Finalize.
class Buffer {
 public:
  /// An empty buffer: data() is nullptr, size() 0.
  Buffer() = default;
  /// Adopts [data, data + bytes), which `owner` keeps alive; the buffer frees nothing else.
  Buffer(std::shared_ptr<void> owner, std::byte* data, std::size_t bytes) noexcept
      : owner_(std::move(owner)), data_(data), bytes_(bytes) {}

  /// The first byte.
  std::byte* data() const noexcept { return data_; }
  /// Its length in bytes.
  std::size_t size() const noexcept { return bytes_; }
  /// The first byte as a `T*` (e.g. std::complex<double>), for size() / sizeof(T) of them.
  template <typename T>
  T* as() const noexcept {
    return reinterpret_cast<T*>(data_);
  }

 private:
  std::shared_ptr<void> owner_;
  std::byte* data_ = nullptr;
  std::size_t bytes_ = 0;
};

/// Heap memory for a plan's arrays (the input and output of forward() and backward()): `bytes`
/// of it, uninitialised, 64-byte aligned and, from 2 MiB up, 2 MiB aligned and asked of the
/// kernel as transparent huge pages (madvise(MADV_HUGEPAGE), which Debian's default "madvise"
/// setting honours). The FFTs' strided passes then miss the TLB once per 2 MiB instead of once
/// per 4 KiB page, as a2afft's own work arrays do; docs/user-guide.md gives the measured
/// difference. Not collective; freed when the last copy of the Buffer goes.
Buffer allocate(std::size_t bytes);

}  // namespace a2afft
