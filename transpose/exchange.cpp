#include "exchange.hpp"

#include <new>
#include <stdexcept>

namespace a2afft {

void Exchange::run_others(const std::byte*, std::byte*) {
  throw std::logic_error(describe() + " cannot leave the own block to its caller");
}

ExchangeBuffer Exchange::allocate(std::size_t bytes) {
  return allocate_aligned(bytes);
}

ExchangeBuffer allocate_aligned(std::size_t bytes) {
  constexpr std::align_val_t kAlignment{64};  // a cache line; FFTW's SIMD needs 16 or 32
  auto* data = static_cast<std::byte*>(::operator new(bytes, kAlignment));
  std::shared_ptr<void> owner(data, [](void* memory) { ::operator delete(memory, kAlignment); });
  return ExchangeBuffer(std::move(owner), data, bytes);
}

}  // namespace a2afft
