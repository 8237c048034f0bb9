#include "test_signal.hpp"

namespace a2afft::detail::fft {

Complex test_signal(std::size_t global_index, std::uint64_t salt) {
  std::uint64_t x = (global_index + 1) * 0x9e3779b97f4a7c15ULL ^ salt;
  x = (x ^ (x >> 31)) * 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 29;
  const auto unit = [](std::uint64_t bits) {
    return static_cast<double>(bits >> 11) * 0x1p-52 - 1;
  };
  return {unit(x), unit(x * 0x94d049bb133111ebULL)};
}

void fill_test_signal(Complex* local, const Box3& box, const Shape3& shape, std::uint64_t salt) {
  std::size_t k = 0;
  for (std::size_t i = 0; i < box.extent[0]; ++i) {
    for (std::size_t j = 0; j < box.extent[1]; ++j) {
      const std::size_t row = ((box.offset[0] + i) * shape[1] + box.offset[1] + j) * shape[2];
      for (std::size_t l = 0; l < box.extent[2]; ++l) {
        local[k++] = test_signal(row + box.offset[2] + l, salt);
      }
    }
  }
}

}  // namespace a2afft::detail::fft
