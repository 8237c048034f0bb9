#pragma once

// What a2afft's distributed FFTs (Fft3d, Fft2d, Fft1d) share: the plan options, the phase
// times, flop counts and padding, and DistributedFft, the base of every plan. The basic types
// (element types, kinds, axes, precisions, rigor, scaling, Box3, Transform, TransformTraffic)
// are a2afft/transform.hpp's, which this header includes.

#include <mpi.h>

#include <array>
#include <complex>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <a2afft/layout.hpp>
#include <a2afft/transform.hpp>

namespace a2afft {

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

/// PlanOptions::threads = timed_threads: the constructor times 1, 2, 4, ... threads up to the
/// cores each rank has (the fewest over the ranks of the cores in its CPU binding and of its
/// machine's cores shared among the ranks on it, by hwloc), one warm-up and three timed
/// forward() and backward() pairs each (the slowest rank's, the median), and keeps the fastest;
/// ties go to one thread. With Fft3dOptions::grid = timed_grid every grid is timed with every
/// count. Like a threaded plan it needs MPI_THREAD_FUNNELED. With A2AFFT_WISDOM set the choice
/// is kept and a later plan of the same problem takes it without timing; describe() says which
/// count won and by how much, and DistributedFft::threads() returns it.
inline constexpr int timed_threads = -1;

/// The thread counts timed_threads tries on `comm`, the same on every rank: 1, 2, 4, ... below
/// the cores each rank has, and that number. Collective.
std::vector<int> timed_thread_counts(MPI_Comm comm);

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
  /// Threads of this rank the plan runs on, >= 1 (default 1: one rank per core, today's path).
  /// With more, each sweep's planes (packs, unpacks, local transposes, padding, truncation,
  /// scaling, copies and the planes' FFTs) are split across that many OpenMP threads; the
  /// result has the same bits as with one thread. Only the calling thread calls MPI, so a plan
  /// with threads > 1 needs MPI initialized with at least MPI_THREAD_FUNNELED (MPI_Init_thread);
  /// otherwise every rank throws UsageError naming both levels. The `a2afft` command's
  /// `--threads` defaults to what OMP_NUM_THREADS says, else 1; the library reads no variable.
  /// timed_threads: the constructor times the counts and keeps the fastest (see there).
  int threads = 1;

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
  /// The threads of each rank the plan runs on: PlanOptions::threads, or the count timed_threads
  /// chose.
  int threads() const;

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
