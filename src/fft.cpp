// The free functions of include/a2afft/fft.hpp.

#include <a2afft/fft.hpp>

#include <cmath>

namespace a2afft {

double fft_flops(Kind kind, double points, std::size_t batch) {
  return (kind == Kind::c2c ? 5.0 : 2.5) * points * std::log2(points) * static_cast<double>(batch);
}

double fft_flops(const Transform& transform, const std::vector<std::size_t>& shape) {
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
