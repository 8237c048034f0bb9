#pragma once

// What a2afft's distributed FFTs (Fft3d, Fft2d, Fft1d) share: the element types, the transform
// kinds and precisions, the planning rigor, the scaling, local boxes and phase times.

#include <array>
#include <complex>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <a2afft/layout.hpp>

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

/// Where the last forward() or backward() spent its time on this rank, in seconds: `transpose`
/// is packing, exchanging and unpacking; `compute` the FFTs (with twiddles and scaling).
struct FftTimes {
  double transpose_seconds = 0;  ///< packing, exchanging and unpacking
  double compute_seconds = 0;    ///< the FFTs, with twiddles and scaling
  /// Reshaping between the application's boxes and the plan's own (Fft3dOptions::input_box);
  /// 0 without them.
  double reshape_seconds = 0;
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

/// Throws UsageError naming the value and what is valid unless `transform`'s padding is empty or
/// one finite factor >= 1 per axis of `shape` (a 3D or 2D array), above 1 only on dft and r2c
/// axes (empty axes: the kind's defaults). Plans check it; commands can check it first.
void check_padding(const Transform& transform, const std::vector<std::size_t>& shape);

/// The padded size of an axis of n points with padding `factor` (>= 1): floor(n * factor), as
/// mpi4py-fft computes it (64 at 1.5 is 96).
std::size_t padded_size(std::size_t n, double factor);
/// `shape` padded by the transform's factors (unchanged without padding).
std::vector<std::size_t> padded_shape(const Transform& transform,
                                      const std::vector<std::size_t>& shape);

/// The same for a transform with per-axis kinds over an array of `shape` (one size per axis):
/// N is the product of the sizes of the transformed axes (`none` ones multiply the count of
/// transforms, not N); 5 N log2 N per transform when the data is complex (c2c), 2.5 N log2 N
/// when it is real (r2c, r2r: benchFFT's convention for real-data transforms), times the
/// transforms and the batch. A padded transform counts the padded grid's points.
double fft_flops(const Transform& transform, const std::vector<std::size_t>& shape);

/// The options every distributed FFT (Fft3d, Fft2d, Fft1d) is planned with. Every field has a
/// working default; set only what you need. Each plan's own options add what is its own (the
/// grid, the output order, N1).
struct PlanOptions {
  /// The all-to-all of every transpose: `auto` (time the candidates at construction, keep the
  /// fastest) or any backend spec `a2afft list` shows, e.g. `pairwise`, `tra:radix=4`, `onmpml`.
  std::string exchange = "auto";
  /// How hard FFTW plans (Rigor).
  Rigor rigor = Rigor::measure;
  /// How the transforms scale their results (Scaling).
  Scaling scaling = Scaling::none;
  /// FFTW wisdom: when set, rank 0 reads the file (if it exists) before planning and writes
  /// what planning learned back to it, so later plans of the same sizes are made fast.
  std::string wisdom_file;
  /// The node layout the exchanges see; empty: the real machine (or A2AFFT_* variables).
  LayoutRequest layout;
  /// c2c (complex input), or r2c (real input; the output has n/2+1 points along the last
  /// dimension, so every transpose moves about half the bytes of the c2c). Fft1d is c2c only.
  Kind kind = Kind::c2c;
  /// double or single: the arrays are Complex and double, or ComplexFloat and float.
  Precision precision = Precision::double_precision;
  /// Fields transformed together (e.g. 3 velocity components), >= 1. They are interleaved,
  /// field fastest: value f of point p is element p * batch + f of the array, the layout of an
  /// array of structs (u, v, w) and of FFTW's howmany with stride batch, distance 1. Each
  /// transpose moves all fields in one exchange (its latency paid once, not per field).
  std::size_t batch = 1;
  /// What each axis of a 3D or 2D plan does (AxisKind), slowest first, e.g. {dct2, dft, r2c}
  /// for a channel flow (cosines along the walls' normal, r2c along the contiguous axis). Empty
  /// (the default): every axis `dft`, the last `r2c` when kind is r2c. With axes, the plan's
  /// kind follows from them: r2c with an r2c axis (only the last), else c2c with a dft axis,
  /// else r2r (real arrays in and out). `kind` may then be left c2c or say the same. Fft1d
  /// takes none. parse_axis_kinds() reads them from text ("dct2,dft,r2c").
  std::vector<AxisKind> axes = {};
  /// Padded (dealiased) transforms, as mpi4py-fft's `padding`: one factor >= 1 per axis of a
  /// 3D or 2D plan, e.g. {1.5, 1.5, 1.5} for the 3/2 rule; above 1 only on dft and r2c axes.
  /// Empty (the default) or all 1: no padding. The plan's shape is then the spectrum's n modes
  /// per axis, and its physical grid has padded_size(n, factor) points (the plan's
  /// padded_shape()): backward() takes the n modes to the padded grid (zeros in between, the
  /// Nyquist mode of an even n split in halves between +n/2 and -n/2), forward() takes the
  /// padded grid back to the n lowest modes (the two halves added). input_box() is a part of
  /// the padded grid, output_box() of the modes. No transpose moves the zeros: each stage pads
  /// or truncates its own axis, so forward + backward exchange a fraction of the bytes of the
  /// same transform of the padded grid (TransformTraffic::exchanged_bytes). Scaling divides by
  /// the padded grid's points, so with Scaling::full backward(forward()) of modes is the
  /// identity. Needs Fft3dOutput::transposed and no input_box or output_box; Fft1d takes none.
  std::vector<double> padding = {};

  /// The plan's transform descriptor: {kind, precision, batch, axes, padding} as given.
  Transform transform() const { return {kind, precision, batch, axes, padding}; }
};

namespace detail {
struct FftCore;
}

/// What every distributed FFT offers (Fft3d, Fft2d and Fft1d are built on it): the transforms
/// themselves, for every kind and precision, and what they cost. Planning happens in the
/// derived constructors; forward() and backward() allocate and plan nothing. Not thread-safe;
/// destroy a plan before MPI_Finalize, in the same order on every rank.
class DistributedFft {
 public:
  virtual ~DistributedFft();
  /// Plans move; a moved-from plan may only be destroyed or assigned to.
  /// @{
  DistributedFft(DistributedFft&&) noexcept;
  DistributedFft& operator=(DistributedFft&&) noexcept;
  /// @}
  DistributedFft(const DistributedFft&) = delete;
  DistributedFft& operator=(const DistributedFft&) = delete;

  /// What the plan transforms: kind, precision and fields.
  /// @{
  Transform transform() const;
  Kind kind() const;
  Precision precision() const;
  std::size_t batch() const;
  /// @}

  /// Scalars of the local input (forward's `in`, backward's `out`: real for r2c and r2r), of
  /// the local output (complex; real for r2r), and scalars of the output's type an array needs
  /// for in-place transforms (complex numbers, reals for r2r), all fields.
  /// @{
  std::size_t input_elements() const;
  std::size_t output_elements() const;
  std::size_t in_place_elements() const;
  /// @}
  /// The same in bytes, in the plan's types.
  /// @{
  std::size_t input_bytes() const;
  std::size_t output_bytes() const;
  std::size_t in_place_bytes() const;
  /// @}

  /// Transforms `in` (input_elements(), stored as the plan's input box says) into `out`
  /// (output_elements(), stored as its output box says). Out of place (`in` is only read; the
  /// arrays must not overlap) or in place (in == out, holding in_place_elements()). The arrays
  /// must be aligned as new, malloc, std::vector and fftw_malloc give (16 bytes); otherwise
  /// every rank throws UsageError naming the rank. A rank that holds nothing may pass nullptr.
  /// Collective over the plan's ranks.
  /// The overload must match the plan's transform (c2c double: this one; see below); another
  /// throws UsageError naming the one to call.
  void forward(const Complex* in, Complex* out);
  /// Transforms `in` (the output's layout) into `out` (the input's), scaled as the options say;
  /// otherwise as forward().
  void backward(const Complex* in, Complex* out);
  /// c2c float.
  /// @{
  void forward(const ComplexFloat* in, ComplexFloat* out);
  void backward(const ComplexFloat* in, ComplexFloat* out);
  /// @}
  /// r2c double: real in, complex out; backward is the c2r.
  /// @{
  void forward(const double* in, Complex* out);
  void backward(const Complex* in, double* out);
  /// @}
  /// r2c float.
  /// @{
  void forward(const float* in, ComplexFloat* out);
  void backward(const ComplexFloat* in, float* out);
  /// @}
  /// r2r double and float: real in, real out, both ways.
  /// @{
  void forward(const double* in, double* out);
  void backward(const double* in, double* out);
  void forward(const float* in, float* out);
  void backward(const float* in, float* out);
  /// @}
  /// A rank that holds nothing may pass nullptr, whatever the plan's transform.
  /// @{
  void forward(std::nullptr_t, std::nullptr_t);
  void backward(std::nullptr_t, std::nullptr_t);
  /// @}
  /// forward() or backward() for callers that hold untyped memory (the C, Fortran and Python
  /// bindings): `in` and `out` hold `in_bytes` and `out_bytes` of the plan's types. Throws
  /// UsageError on every rank when some rank's array is smaller than its side needs (in place:
  /// in_place_bytes()), before anything is transformed.
  void execute(Direction direction, const void* in, std::size_t in_bytes, void* out,
               std::size_t out_bytes);

  /// Bytes of the plan's own arrays on this rank (the work array, the exchanges' send and
  /// receive buffers). Not counted: the exchanges' internal scratch and FFTW's plans.
  std::size_t workspace_bytes() const;
  /// What forward() (or backward()) reads and writes in memory and computes on this rank,
  /// counted from the schedule the plan runs; see TransformTraffic. Local, no communication.
  TransformTraffic traffic(Direction direction = Direction::forward) const;
  /// Which exchanges really run, e.g. `row=-,column=auto→pairwise` (each an
  /// Exchange::describe(), or `-` for a transpose inside one rank).
  std::string describe() const;
  /// Where the last forward() or backward() spent its time on this rank.
  FftTimes last_times() const;

 protected:
  /// The derived constructors plan the engine, then hand it over.
  explicit DistributedFft(std::unique_ptr<detail::FftCore> core);
  /// The plan, for the derived classes' own accessors.
  const detail::FftCore& core() const { return *core_; }

 private:
  template <typename In, typename Out>
  void run(bool forward, const In* in, Out* out, std::string size_failure = {});
  std::unique_ptr<detail::FftCore> core_;
};

}  // namespace a2afft
