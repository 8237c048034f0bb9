#pragma once

// The basic types of a2afft's transforms, on their own (issue 44): the element types, the
// transform kinds and axis kinds, directions, precisions, planning rigor and scaling, a rank's
// Box3, the Transform descriptor and what a transform moves through memory (TransformTraffic).
// a2afft/fft.hpp includes it and adds the plan options and the plans; a2afft's engines include
// only this header.

#include <array>
#include <complex>
#include <cstddef>
#include <string>
#include <vector>

namespace a2afft {

/// The element of every c2c transform: interleaved real and imaginary doubles, the layout of
/// fftw_complex and of C's double _Complex.
using Complex = std::complex<double>;
/// The complex element of single-precision transforms: the layout of fftwf_complex and of C's
/// float _Complex.
using ComplexFloat = std::complex<float>;

/// What a transform takes: complex input (c2c), or real input whose forward transform keeps
/// the n/2+1 non-negative frequencies of the last (contiguous) dimension, FFTW's r2c
/// convention; backward is then c2r. Both unnormalized, as FFTW, unless scaled. `r2r`: real in,
/// real out, every transformed axis a cosine or sine transform (see AxisKind); it is what
/// PlanOptions::axes make of such axes, not set on its own.
enum class Kind { c2c, r2c, r2r };

/// What a 3D or 2D plan does along one axis (PlanOptions::axes):
/// - `dft`: the complex DFT (FFTW_FORWARD, backward FFTW_BACKWARD);
/// - `r2c`: the real-to-complex DFT, keeping n/2+1 points; only the last (contiguous) axis;
/// - `dct1` ... `dct4`, `dst1` ... `dst4`: FFTW's real-to-real kinds REDFT00, REDFT10, REDFT01,
///   REDFT11, RODFT00, RODFT10, RODFT01, RODFT11 (DCT-I to IV, DST-I to IV), unnormalized as
///   FFTW defines them. Backward applies the inverse kind (dct2 <-> dct3, dst2 <-> dst3; the
///   others are their own), so backward(forward(x)) = N x with N = 2(n-1) for dct1, 2(n+1) for
///   dst1 and 2n for the rest: FFTW's logical size, which Scaling uses. On complex data (after
///   an r2c axis, or beside a dft axis) they transform the real and imaginary parts apart;
/// - `none`: the axis is not transformed (a batch of independent transforms along the others).
enum class AxisKind { dft, r2c, dct1, dct2, dct3, dct4, dst1, dst2, dst3, dst4, none };

/// `dft`, `r2c`, `dct2`, ..., `none`: the names parse_axis_kinds() reads.
std::string to_string(AxisKind axis);
/// The axes of a comma-separated list, e.g. "dft,dct2,r2c" (FFTW's names redft00 ... rodft11
/// are read too, and `skip` for none). Throws UsageError naming the word and the valid ones.
std::vector<AxisKind> parse_axis_kinds(const std::string& text);
/// "dft,dct2,r2c".
std::string to_string(const std::vector<AxisKind>& axes);
/// The kind a plan of `axes` over an array of `shape` is (r2c with an r2c axis, c2c with a dft
/// axis, else r2r), once the axes are checked as a plan checks them: one per axis, r2c only on
/// the last, dct1 on at least 2 points, at least one axis transformed. Throws UsageError naming
/// what is wrong and what is valid. Pure: for callers that choose their arrays' types first.
Kind kind_of_axes(const std::vector<AxisKind>& axes, const std::vector<std::size_t>& shape);
/// FFTW's logical size of `axis`'s transform of n points, the N of backward(forward(x)) = N x
/// that Scaling::full divides by (the product over the axes): n for dft and r2c, 2(n-1) for
/// dct1, 2(n+1) for dst1, 2n for the other cosine and sine kinds, 1 for none.
std::size_t logical_size(AxisKind axis, std::size_t n);

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
  std::array<std::size_t, 3> lower{};  ///< the box's first global index in each dimension
  std::array<std::size_t, 3> size{};   ///< its points in each dimension (0: empty)
  std::array<int, 3> order{0, 1, 2};   ///< its dimensions in storage, slowest first

  /// The box's points: the product of its sizes.
  std::size_t elements() const { return size[0] * size[1] * size[2]; }
  /// The position in local storage of global element (i0, i1, i2), which must lie in the box.
  std::size_t local_index(const std::array<std::size_t, 3>& global) const {
    std::size_t index = 0;
    for (const int d : order)
      index = index * size[d] + (global[d] - lower[d]);
    return index;
  }
};

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
  /// Bytes this rank's exchanges send to other ranks in the transform (the padding of uneven
  /// splits included, its own block not): what a padded plan saves by never moving zeros.
  std::size_t exchanged_bytes = 0;
};

/// What a plan transforms: its kind, the precision of its arrays, the fields it moves
/// together and what it does along each axis. The typed forward() and backward() overloads and
/// execute() dispatch on it, not on the pointer types alone; `to_string()` names it in reports
/// (`r2c float, batch 3`, `dct2,dft,r2c double`).
struct Transform {
  Kind kind = Kind::c2c;                              ///< c2c, r2c along the last axis, or r2r
  Precision precision = Precision::double_precision;  ///< of every array
  /// Fields transformed together, >= 1 (see PlanOptions::batch).
  std::size_t batch = 1;
  /// A plan's kind along each axis, slowest first (3 for Fft3d, 2 for Fft2d, empty for Fft1d);
  /// in PlanOptions, empty means all `dft` (the last `r2c` for Kind::r2c).
  std::vector<AxisKind> axes = {};
  /// Padding factor of each axis (see PlanOptions::padding); empty: none.
  std::vector<double> padding = {};

  /// Bytes of one scalar of the complex side (a Complex or ComplexFloat), of the input side
  /// (real for r2c and r2r) and of the output side (real for r2r), of one field.
  /// @{
  std::size_t complex_bytes() const;
  std::size_t input_scalar_bytes() const;
  std::size_t output_scalar_bytes() const;
  /// @}
  /// `c2c double`, `r2c float, batch 3`; with axes other than all dft (and r2c last): the
  /// axes, `dct2,dft,r2c double`; padded: `r2c double, padded 1.5,1.5,1.5`.
  std::string to_string() const;
  /// True when some axis's padding factor is above 1.
  bool padded() const;
};

}  // namespace a2afft
