#pragma once

// What each a2afft::AxisKind means to the engines: which axes are FFTW r2r transforms, the
// kind FFTW runs in each direction, and the logical size Scaling divides by. Pure.

#include <fftw3.h>

#include <cstddef>
#include <vector>

#include <a2afft/transform.hpp>

namespace a2afft::detail::fft {

/// One of FFTW's eight r2r kinds (dct1 ... dst4).
bool is_real_to_real(AxisKind axis);

/// The FFTW r2r kind that `axis` (an r2r one) runs forward, or backward: the inverse kind
/// (REDFT10 <-> REDFT01, RODFT10 <-> RODFT01; REDFT00, REDFT11, RODFT00, RODFT11 are their own).
fftw_r2r_kind fftw_kind(AxisKind axis, bool backward);

/// FFTW's logical size of `axis`'s transform of n points, the N of backward(forward(x)) = N x:
/// n for dft and r2c, 2(n-1) for dct1, 2(n+1) for dst1, 2n for the other r2r kinds; 1 for none.
std::size_t logical_size(AxisKind axis, std::size_t n);

/// The product of logical_size() over the axes of an array of `shape`: what Scaling divides by.
template <typename Shape>
std::size_t logical_points(const std::vector<AxisKind>& axes, const Shape& shape) {
  std::size_t points = 1;
  for (std::size_t axis = 0; axis < axes.size(); ++axis)
    points *= fft::logical_size(axes[axis], shape[axis]);  // qualified: not a2afft::logical_size
  return points;
}

}  // namespace a2afft::detail::fft
