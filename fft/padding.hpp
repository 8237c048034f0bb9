#pragma once

#include <array>
#include <complex>
#include <cstddef>

#include "geometry.hpp"

// Padded (dealiased) transforms, as mpi4py-fft defines them: an axis of n spectral modes is
// transformed on a grid of m = floor(n * padding) points. Backward puts the n modes into the m
// (zeros between the positive and the negative frequencies), forward keeps the n lowest of the
// m. Pure, no MPI or FFTW; the pencil engine truncates and pads each plane with these while it
// is in cache, so no transpose ever moves the zeros.
namespace a2afft::detail::fft {

/// The padded size of an axis of n points: floor(n * factor), as mpi4py-fft's PFFT computes it
/// (factor >= 1; 1 is no padding).
std::size_t padded_size(std::size_t n, double factor);

/// How one axis of the spectrum sits in the padded side of a stage (both counted in the stored
/// points along the axis: n and m for a dft axis, n/2+1 and m/2+1 for the r2c one).
///
/// dft: modes 0 .. low()-1 (the non-negative frequencies below n/2) stay where they are, modes
/// low() .. n-1 (from -n/2, or -(n-1)/2 for odd n, up to -1) go to the end of the m points.
/// r2c: the n/2+1 modes stay where they are. For even n the mode n/2 stands for +n/2 and -n/2,
/// so the padded side holds half of it at each (mpi4py-fft's "symmetric Fourier
/// interpolator"), and truncation adds the two back together; for r2c the -n/2 one is the
/// conjugate of +n/2, so it is twice the real part.
struct PaddedAxis {
  std::size_t modes = 1;   // spectral points kept along the axis
  std::size_t padded = 1;  // points on the padded side
  bool half = false;       // the r2c axis: non-negative frequencies only
  bool nyquist = false;    // n even and padded: mode n/2 is split in two when padded

  bool is_identity() const { return modes == padded; }
  /// Modes that stay at the start of the axis.
  std::size_t low() const { return half ? modes : modes - modes / 2; }
  /// Where mode `mode` sits on the padded side.
  std::size_t padded_index(std::size_t mode) const {
    return mode < low() ? mode : mode + (padded - modes);
  }
};

/// The axis of a transform of n logical points (n reals for `r2c`) padded to m.
PaddedAxis padded_axis(std::size_t n, std::size_t m, bool r2c);

/// One plane of a dense array (index `plane` along stored axis `plane_axis`, which is never
/// padded): its shape on the padded side and on the spectral side, the axes in stored order
/// (identity ones where nothing is padded), and how many complex values one point holds.
struct PlaneResize {
  Shape3 padded_shape{};
  Shape3 modes_shape{};
  std::array<PaddedAxis, 3> axes{};
  int plane_axis = 0;
  std::size_t values_per_point = 1;  // the batch of fields
  // The axes the plane's FFTs transform. A half axis's Nyquist mode is folded and split with
  // its conjugate at the mirrored index along the others (for r2c slabs, whose first plane
  // transforms y and z in one plan), as if z were truncated before y was transformed.
  std::array<bool, 3> transformed{};
};

/// Forward: plane `plane` of `padded` (padded_shape) -> plane `plane` of `modes` (modes_shape),
/// keeping the modes and folding each split Nyquist mode back into one. The two may be the same
/// array: planes taken in increasing order, each one's modes land no later than it started.
/// `padded` is changed (the Nyquist fold).
template <typename Real>
void truncate_plane(std::complex<Real>* padded, std::complex<Real>* modes,
                    const PlaneResize& resize, std::size_t plane);

/// Backward: plane `plane` of `modes` -> plane `plane` of `padded`, zeros where no mode goes,
/// each Nyquist mode split in halves. The same array works with planes taken in decreasing
/// order.
template <typename Real>
void pad_plane(const std::complex<Real>* modes, std::complex<Real>* padded,
               const PlaneResize& resize, std::size_t plane);

}  // namespace a2afft::detail::fft
