#pragma once

// What a2afft's distributed FFTs (Fft3d, Fft2d, Fft1d) share: the element types, the transform
// kinds and precisions, the planning rigor, the scaling, local boxes and phase times.

#include <array>
#include <complex>
#include <cstddef>

namespace a2afft {

/// The element of every c2c transform: interleaved real and imaginary doubles, the layout of
/// fftw_complex and of C's double _Complex.
using Complex = std::complex<double>;
/// The complex element of single-precision transforms: the layout of fftwf_complex and of C's
/// float _Complex.
using ComplexFloat = std::complex<float>;

/// What a transform takes: complex input (c2c), or real input whose forward transform keeps
/// the n/2+1 non-negative frequencies of the last (contiguous) dimension, FFTW's r2c
/// convention; backward is then c2r. Both unnormalized, as FFTW, unless scaled.
enum class Kind { c2c, r2c };

/// Which way a type-erased execute() transforms: forward (input to output) or backward.
enum class Direction { forward, backward };

/// The floating-point type of the data: double (FFTW's fftw_*) or float (fftwf_*).
enum class Precision { double_precision, single_precision };

/// How hard FFTW plans: FFTW_ESTIMATE, FFTW_MEASURE (the default: its plans ran 1.6x faster
/// than ESTIMATE's at 128^3) or FFTW_PATIENT. MEASURE and PATIENT time candidate plans at
/// construction; a wisdom file keeps what they learned for the next run.
enum class Rigor { estimate, measure, patient };

/// How a transform of N points scales its result: `none` as FFTW (unnormalized, so
/// backward(forward(x)) = N x), `full` (backward multiplies by 1/N, so backward(forward(x)) = x)
/// or `symmetric` (both directions multiply by 1/sqrt(N), so both preserve the 2-norm). The
/// factor is applied inside the last FFT stage, not as a separate pass.
enum class Scaling { none, full, symmetric };

/// A rank's part of a global n0 x n1 x n2 array, in global coordinates: the elements
/// [lower[d], lower[d] + size[d]) of each dimension d. Stored contiguously, with the
/// dimensions ordered by `order` from slowest to fastest: {0, 1, 2} is row-major (C order,
/// dimension 2 contiguous); {1, 0, 2} swaps the two leading dimensions. A box may be empty
/// (a size of 0) when the grid splits a dimension into more parts than it has points.
struct Box3 {
  std::array<std::size_t, 3> lower{};
  std::array<std::size_t, 3> size{};
  std::array<int, 3> order{0, 1, 2};

  std::size_t elements() const { return size[0] * size[1] * size[2]; }
  /// The position in local storage of global element (i0, i1, i2), which must lie in the box.
  std::size_t local_index(const std::array<std::size_t, 3>& global) const {
    std::size_t index = 0;
    for (const int d : order)
      index = index * size[d] + (global[d] - lower[d]);
    return index;
  }
};

/// Where the last forward() or backward() spent its time on this rank, in seconds: `transpose`
/// is packing, exchanging and unpacking; `compute` the FFTs (with twiddles and scaling).
struct FftTimes {
  double transpose_seconds = 0;
  double compute_seconds = 0;
};

/// The conventional flop count of one transform of `points` points (the logical ones: reals for
/// r2c) and `batch` fields: 5 N log2 N for c2c, half of that for r2c, times the batch, as FFTW,
/// heFFTe and HPCC count. Not the arithmetic FFTW really does; the yardstick GFlop/s are quoted
/// in. 0 for one point.
double fft_flops(Kind kind, double points, std::size_t batch = 1);

/// What one transform moves through memory on this rank, counted from the plan's own schedule
/// (the sweeps and exchanges forward() or backward() runs), for the roofline: a lower bound on
/// the DRAM traffic the algorithm needs, not a measurement.
///
/// Counted, once per pass: every step's read and write of an array as large as the local data
/// (the caller's input and output, the work array, the exchange's send and receive buffers).
/// A plane (or chunk of rows) kept in cache between an unpack, its FFTs and a pack counts once:
/// the unpack's read of the receive buffer and the pack's write of the send buffer. Each
/// exchange counts one read of the blocks it sends and one write of the blocks it receives, our
/// own block included unless the pack put it straight into the receive buffer: on one node Open
/// MPI's shared-memory transport copies a large message once, sender's buffer to receiver's
/// (vader's CMA single copy), and a transport that copies through a bounce buffer moves twice
/// that. Not counted: write-allocate reads of lines about to be written, the write-back of the
/// work array's planes after the sweep that left them there, the exchanges' internal scratch
/// (hierarchical backends' gathers and repacks), twiddle tables and FFTW's own temporaries; so
/// real traffic is higher.
struct TransformTraffic {
  /// bytes_moved / array_bytes: how many times the transform reads or writes the whole array.
  double memory_passes = 0;
  /// Bytes read plus bytes written on this rank.
  std::size_t bytes_moved = 0;
  /// This rank's even share of the complex array the transposes move (for r2c the n/2+1 side),
  /// all fields, in the plan's precision: the unit of memory_passes.
  std::size_t array_bytes = 0;
  /// This rank's share of fft_flops() of the transform: the total over the number of ranks.
  double flops = 0;
};

}  // namespace a2afft
