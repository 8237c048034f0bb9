#pragma once

#include <algorithm>
#include <cstddef>

#include "exchange.hpp"
#include "fftw_plan.hpp"

namespace a2afft::detail::fft {

/// An array of `T` (complex numbers of either precision) in memory from an exchange's
/// allocate() (node shared memory for mpml, nmpml and onmpml, which then run without staging
/// copies), or from the heap without one. Zeroed once, so the padding that uneven splits
/// exchange is never uninitialised. Collective when the exchange's allocate() is.
template <typename T>
class ExchangeArray {
 public:
  ExchangeArray() = default;
  ExchangeArray(ExchangePlan* exchange, std::size_t elements) : elements_(elements) {
    const std::size_t bytes = elements * sizeof(T);
    memory_ = exchange != nullptr ? exchange->allocate(bytes) : allocate_aligned(bytes);
    std::fill_n(memory_.data(), bytes, std::byte{0});
  }

  T* data() const { return reinterpret_cast<T*>(memory_.data()); }
  std::size_t size() const { return elements_; }

 private:
  ExchangeBuffer memory_;
  std::size_t elements_ = 0;
};

using ComplexBuffer = ExchangeArray<Complex>;

}  // namespace a2afft::detail::fft
