#pragma once

// What the FFT tests of the public API fill and walk their arrays with: a reproducible signal of
// the global index and the field, the global array's row-major index and size, and every point
// of a box in global coordinates.

#include <a2afft/fft.hpp>
#include <a2afft/fft2d.hpp>
#include <a2afft/fft3d.hpp>

#include <array>
#include <cmath>
#include <complex>
#include <cstddef>
#include <memory>

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

/// A 3D plan, or a 2D one of n1 x n2 seen as 1 x n1 x n2: its boxes and shapes with a leading
/// axis of one point.
struct Plan {
  std::unique_ptr<a2afft::Fft3d> three;
  std::unique_ptr<a2afft::Fft2d> two;
  a2afft::DistributedFft& fft() {
    return three ? static_cast<a2afft::DistributedFft&>(*three) : *two;
  }
  static a2afft::Box3 box3(const a2afft::Box2& box) {
    return {{0, box.lower[0], box.lower[1]},
            {1, box.size[0], box.size[1]},
            {0, box.order[0] + 1, box.order[1] + 1}};
  }
  a2afft::Box3 input_box() const { return three ? three->input_box() : box3(two->input_box()); }
  a2afft::Box3 output_box() const { return three ? three->output_box() : box3(two->output_box()); }
  Index padded_shape() const {
    if (three) return three->padded_shape();
    const std::array<std::size_t, 2> padded = two->padded_shape();
    return {1, padded[0], padded[1]};
  }
};

}  // namespace a2afft::api_test
