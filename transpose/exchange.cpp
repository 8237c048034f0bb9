#include "exchange.hpp"

#include "error.hpp"
#include "folded_memory.hpp"

#include <sys/mman.h>

#include <new>
#include <stdexcept>

namespace a2afft::detail {

void ExchangePlan::run_others(const std::byte*, std::byte*) {
  throw std::logic_error(describe() + " cannot leave the own block to its caller");
}

void ExchangePlan::start(const std::byte* send, std::byte* recv) {
  if (in_flight_) {
    throw UsageError(describe() + ": start() while an exchange is in flight; call finish() first");
  }
  start_exchange(send, recv);
  in_flight_ = true;
}

void ExchangePlan::finish() {
  if (!in_flight_) throw UsageError(describe() + ": finish() without a start() before it");
  in_flight_ = false;
  finish_exchange();
}

bool ExchangePlan::test() {
  if (!in_flight_) throw UsageError(describe() + ": test() without a start() before it");
  return test_exchange();
}

ExchangeBuffer ExchangePlan::allocate(std::size_t bytes) {
  return allocate_aligned(bytes);
}

ExchangeBuffer allocate_aligned(std::size_t bytes) {
  // A timing-only run in simulation (FoldedMemoryScope): the contents do not matter.
  if (memory_folded()) return allocate_folded(bytes);
  // A cache line (FFTW's SIMD needs 16 or 32); buffers of huge pages start on one, and ask
  // for them: a first touch then faults once per 2 MiB instead of once per 4 KiB, and the TLB
  // covers a transpose's strided walk.
  constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;
  const bool huge = bytes >= kHugePageBytes;
  const std::align_val_t alignment{huge ? kHugePageBytes : 64};
  auto* data = static_cast<std::byte*>(::operator new(bytes, alignment));
#ifdef MADV_HUGEPAGE
  if (huge) madvise(data, bytes / kHugePageBytes * kHugePageBytes, MADV_HUGEPAGE);  // a hint
#endif
  std::shared_ptr<void> owner(data,
                              [alignment](void* memory) { ::operator delete(memory, alignment); });
  return ExchangeBuffer(std::move(owner), data, bytes);
}

}  // namespace a2afft::detail
