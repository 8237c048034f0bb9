// The free functions of include/a2afft/fft.hpp.

#include <a2afft/fft.hpp>

#include <algorithm>
#include <cmath>

#include "padding.hpp"

namespace a2afft {

double fft_flops(Kind kind, double points, std::size_t batch) {
  return (kind == Kind::c2c ? 5.0 : 2.5) * points * std::log2(points) * static_cast<double>(batch);
}

std::size_t padded_size(std::size_t n, double factor) {
  return detail::fft::padded_size(n, factor);
}

std::vector<std::size_t> padded_shape(const Transform& transform,
                                      const std::vector<std::size_t>& shape) {
  std::vector<std::size_t> padded = shape;
  for (std::size_t axis = 0; axis < padded.size() && axis < transform.padding.size(); ++axis)
    padded[axis] = padded_size(shape[axis], transform.padding[axis]);
  return padded;
}

bool Transform::padded() const {
  return std::any_of(padding.begin(), padding.end(), [](double factor) { return factor > 1; });
}

double fft_flops(const Transform& transform, const std::vector<std::size_t>& logical_shape) {
  const std::vector<std::size_t> shape = padded_shape(transform, logical_shape);
  double transformed = 1;
  double points = 1;
  for (std::size_t axis = 0; axis < shape.size(); ++axis) {
    points *= static_cast<double>(shape[axis]);
    const bool skipped = axis < transform.axes.size() && transform.axes[axis] == AxisKind::none;
    if (!skipped) transformed *= static_cast<double>(shape[axis]);
  }
  return fft_flops(transform.kind, transformed, transform.batch) * points / transformed;
}

}  // namespace a2afft
