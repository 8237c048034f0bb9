#include "padding.hpp"

#include <cmath>
#include <cstring>
#include <optional>

namespace a2afft::detail::fft {

std::size_t padded_size(std::size_t n, double factor) {
  return static_cast<std::size_t>(std::floor(static_cast<double>(n) * factor));
}

PaddedAxis padded_axis(std::size_t n, std::size_t m, bool r2c) {
  PaddedAxis axis;
  axis.half = r2c;
  axis.modes = r2c ? n / 2 + 1 : n;
  axis.padded = r2c ? m / 2 + 1 : m;
  axis.nyquist = n % 2 == 0 && m > n;
  return axis;
}

namespace {

// The range of one axis a plane covers: the plane's index on the plane axis, all of it else.
struct Range {
  std::size_t begin;
  std::size_t end;
};

Range range_of(const PlaneResize& resize, const Shape3& shape, int axis, std::size_t plane) {
  if (axis == resize.plane_axis) return {plane, plane + 1};
  return {0, shape[static_cast<std::size_t>(axis)]};
}

// Complex values before `point` in a dense array of `shape`.
std::size_t offset_of(const Shape3& shape, const Shape3& point, std::size_t values) {
  return ((point[0] * shape[1] + point[1]) * shape[2] + point[2]) * values;
}

// Complex values between neighbours along `axis` on the padded side.
std::size_t stride_of(const PlaneResize& resize, int axis) {
  const Shape3& shape = resize.padded_shape;
  return resize.values_per_point * (axis == 0 ? shape[1] * shape[2] : axis == 1 ? shape[2] : 1);
}

// The mode a padded index holds, if any (the gap of zeros holds none).
std::optional<std::size_t> mode_at(const PaddedAxis& axis, std::size_t index) {
  const std::size_t gap = axis.padded - axis.modes;
  if (index < axis.low()) return index;
  if (index >= axis.low() + gap) return index - gap;
  return std::nullopt;
}

// Calls visit(point, offset) for every point of the plane on the padded side whose index along
// `axis` is `index`; offset counts complex values.
template <typename Visit>
void for_each_in_slice(const PlaneResize& resize, std::size_t plane, int axis, std::size_t index,
                       Visit visit) {
  const Shape3& shape = resize.padded_shape;
  std::array<Range, 3> ranges{range_of(resize, shape, 0, plane), range_of(resize, shape, 1, plane),
                              range_of(resize, shape, 2, plane)};
  ranges[static_cast<std::size_t>(axis)] = {index, index + 1};
  for (std::size_t i = ranges[0].begin; i < ranges[0].end; ++i)
    for (std::size_t j = ranges[1].begin; j < ranges[1].end; ++j)
      for (std::size_t k = ranges[2].begin; k < ranges[2].end; ++k)
        visit(Shape3{i, j, k}, offset_of(shape, {i, j, k}, resize.values_per_point));
}

// Where the two halves of a dft axis's Nyquist mode sit on the padded side: +n/2 and -n/2.
struct NyquistPair {
  std::size_t positive;
  std::size_t negative;
};

NyquistPair nyquist_pair(const PaddedAxis& axis) {
  return {axis.modes / 2, axis.padded - axis.modes / 2};
}

// Along the other axes the plane's FFTs transform, the conjugate of the half axis's value at k
// sits at -k (Hermitian symmetry of a real array's spectrum); untransformed axes map to
// themselves.
Shape3 mirrored(const PlaneResize& resize, const Shape3& point) {
  Shape3 mirror = point;
  for (std::size_t a = 0; a < 3; ++a) {
    if (!resize.transformed[a] || resize.axes[a].half) continue;
    const std::size_t length = resize.padded_shape[a];
    mirror[a] = (length - point[a]) % length;
  }
  return mirror;
}

// The half (r2c) axis's Nyquist mode n/2 with its conjugate -n/2 folded in (forward: a + conj b
// at k, with b at -k) or split out again (backward: a quarter of that); with no other axis
// transformed in the plane, twice and half the real part.
template <typename Real>
void half_nyquist(std::complex<Real>* padded, const PlaneResize& resize, std::size_t plane,
                  int axis, bool fold) {
  const std::size_t values = resize.values_per_point;
  const Real share = fold ? Real(1) : Real(0.25);
  const std::size_t index = resize.axes[static_cast<std::size_t>(axis)].modes - 1;
  for_each_in_slice(resize, plane, axis, index, [&](const Shape3& point, std::size_t at) {
    const std::size_t partner =
        offset_of(resize.padded_shape, mirrored(resize, point), resize.values_per_point);
    if (partner < at) return;  // done with its partner
    for (std::size_t v = 0; v < values; ++v) {
      const std::complex<Real> a = padded[at + v];
      const std::complex<Real> b = padded[partner + v];
      padded[at + v] = share * (a + std::conj(b));
      padded[partner + v] = share * (b + std::conj(a));
    }
  });
}

// Forward folds each Nyquist mode's two halves into one, the half axis first (mpi4py-fft's
// order, which truncates z before it transforms y); backward splits them again, in the reverse
// order. A dft axis keeps the mode where -n/2 is, as it keeps the high modes.
template <typename Real>
void nyquist_halves(std::complex<Real>* padded, const PlaneResize& resize, std::size_t plane,
                    bool fold) {
  const std::size_t values = resize.values_per_point;
  for (int step = 0; step < 3; ++step) {
    const int a = fold ? 2 - step : step;
    const PaddedAxis& axis = resize.axes[static_cast<std::size_t>(a)];
    if (!axis.nyquist || axis.is_identity()) continue;
    if (axis.half) {
      half_nyquist(padded, resize, plane, a, fold);
      continue;
    }
    const NyquistPair pair = nyquist_pair(axis);
    const std::size_t apart = (pair.negative - pair.positive) * stride_of(resize, a);
    for_each_in_slice(resize, plane, a, pair.positive, [&](const Shape3&, std::size_t at) {
      for (std::size_t v = 0; v < values; ++v) {
        std::complex<Real>& positive = padded[at + v];
        std::complex<Real>& negative = padded[at + apart + v];
        if (fold) {
          negative += positive;
        } else {
          negative /= 2;
          positive = negative;
        }
      }
    });
  }
}

}  // namespace

template <typename Real>
void truncate_plane(std::complex<Real>* padded, std::complex<Real>* modes,
                    const PlaneResize& resize, std::size_t plane) {
  using Complex = std::complex<Real>;
  nyquist_halves(padded, resize, plane, true);
  const Shape3& from = resize.padded_shape;
  const Shape3& to = resize.modes_shape;
  const PaddedAxis& z = resize.axes[2];
  const std::size_t values = resize.values_per_point;
  const std::size_t low_bytes = z.low() * values * sizeof(Complex);
  const std::size_t high_bytes = (z.modes - z.low()) * values * sizeof(Complex);
  const Range rows = range_of(resize, to, 0, plane);
  const Range columns = range_of(resize, to, 1, plane);
  // Row-major order on both sides, each row moved to no later than it was (memmove): in place,
  // nothing is overwritten before it is read.
  for (std::size_t i = rows.begin; i < rows.end; ++i) {
    for (std::size_t j = columns.begin; j < columns.end; ++j) {
      const std::size_t source_row =
          resize.axes[0].padded_index(i) * from[1] + resize.axes[1].padded_index(j);
      const Complex* source = padded + source_row * from[2] * values;
      Complex* target = modes + (i * to[1] + j) * to[2] * values;
      std::memmove(target, source, low_bytes);
      std::memmove(target + z.low() * values, source + z.padded_index(z.low()) * values,
                   high_bytes);
    }
  }
}

template <typename Real>
void pad_plane(const std::complex<Real>* modes, std::complex<Real>* padded,
               const PlaneResize& resize, std::size_t plane) {
  using Complex = std::complex<Real>;
  const Shape3& from = resize.modes_shape;
  const Shape3& to = resize.padded_shape;
  const PaddedAxis& z = resize.axes[2];
  const std::size_t values = resize.values_per_point;
  const std::size_t gap = z.padded - z.modes;
  const Range rows = range_of(resize, to, 0, plane);
  const Range columns = range_of(resize, to, 1, plane);
  // Reverse row-major order, each row moved to no earlier than it was: in place, nothing is
  // overwritten before it is read. The high modes first, as they move the furthest.
  for (std::size_t i = rows.end; i-- > rows.begin;) {
    for (std::size_t j = columns.end; j-- > columns.begin;) {
      Complex* target = padded + (i * to[1] + j) * to[2] * values;
      const std::optional<std::size_t> row = mode_at(resize.axes[0], i);
      const std::optional<std::size_t> column = mode_at(resize.axes[1], j);
      if (!row || !column) {
        std::fill_n(target, to[2] * values, Complex{});
        continue;
      }
      const Complex* source = modes + (*row * from[1] + *column) * from[2] * values;
      std::memmove(target + (z.low() + gap) * values, source + z.low() * values,
                   (z.modes - z.low()) * values * sizeof(Complex));
      std::memmove(target, source, z.low() * values * sizeof(Complex));
      std::fill_n(target + z.low() * values, gap * values, Complex{});
    }
  }
  nyquist_halves(padded, resize, plane, false);
}

template void truncate_plane(std::complex<double>*, std::complex<double>*, const PlaneResize&,
                             std::size_t);
template void truncate_plane(std::complex<float>*, std::complex<float>*, const PlaneResize&,
                             std::size_t);
template void pad_plane(const std::complex<double>*, std::complex<double>*, const PlaneResize&,
                        std::size_t);
template void pad_plane(const std::complex<float>*, std::complex<float>*, const PlaneResize&,
                        std::size_t);

}  // namespace a2afft::detail::fft
