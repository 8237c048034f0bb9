#pragma once

// What the FFT tests of the public API fill and walk their arrays with: a reproducible signal of
// the global index and the field, the global array's row-major index and size, and every point
// of a box in global coordinates.

#include <a2afft/fft.hpp>

#include <array>
#include <cmath>
#include <complex>
#include <cstddef>

namespace a2afft::api_test {

using Index = std::array<std::size_t, 3>;

/// Field f's value at global (row-major) index g: complex; real transforms take its real part.
inline std::complex<double> signal(std::size_t g, std::size_t f) {
  const double x = double(g) + 0.37 * double(f);
  return {std::sin(0.7 * x + 0.3), std::cos(1.3 * double((g + 5 * f) % 97) - 0.2 * x)};
}

inline std::size_t points(const Index& n) {
  return n[0] * n[1] * n[2];
}

inline std::size_t row_major(const Index& at, const Index& n) {
  return (at[0] * n[1] + at[1]) * n[2] + at[2];
}

/// visit(point) for every point of `box`, in global coordinates.
template <typename Visit>
void for_each_point(const a2afft::Box3& box, Visit visit) {
  for (std::size_t i = box.lower[0]; i < box.lower[0] + box.size[0]; ++i)
    for (std::size_t j = box.lower[1]; j < box.lower[1] + box.size[1]; ++j)
      for (std::size_t k = box.lower[2]; k < box.lower[2] + box.size[2]; ++k)
        visit(Index{i, j, k});
}

}  // namespace a2afft::api_test
