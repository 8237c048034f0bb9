#pragma once

#include <mpi.h>

#include <array>
#include <cstddef>
#include <memory>
#include <string>

#include <a2afft/error.hpp>
#include <a2afft/fft.hpp>
#include <a2afft/layout.hpp>

namespace a2afft {

/// Where the forward transform of a 3D FFT leaves its output.
enum class Fft3dOutput {
  /// The pencils of the last FFT (all of dimension 0 on every rank), with no transpose back:
  /// the fastest, and what a code that works in spectral space, then transforms back, wants
  /// (as FFTW_MPI_TRANSPOSED_OUT). See Fft3d::output_box().
  transposed,
  /// The input's boxes and row-major order again: two more transposes.
  natural,
};

/// How an Fft3d is planned. Every field has a working default; set only what you need:
///
///     a2afft::Fft3dOptions options;
///     options.scaling = a2afft::Scaling::full;
///     a2afft::Fft3d fft(MPI_COMM_WORLD, {256, 256, 256}, options);
struct Fft3dOptions {
  /// The p0 x p1 process grid, p0 * p1 = the communicator's size; {0, 0} chooses the most
  /// square grid with p0 >= p1 (slabs, p1 = 1, on a prime number of ranks).
  std::array<int, 2> grid{0, 0};
  /// The all-to-all of the transpose among the p1 ranks of a grid row, and among the p0 ranks
  /// of a column: `auto` (time the candidates at construction, keep the fastest) or any
  /// backend spec `a2afft list` shows, e.g. `pairwise`, `tra:radix=4`, `onmpml`.
  std::string row_exchange = "auto";
  std::string column_exchange = "auto";
  Rigor rigor = Rigor::measure;
  Fft3dOutput output = Fft3dOutput::transposed;
  /// FFTW wisdom: when set, rank 0 reads the file (if it exists) before planning and writes
  /// what planning learned back to it, so later plans of the same sizes are made fast.
  std::string wisdom_file;
  Scaling scaling = Scaling::none;
  /// The node layout the exchanges see; empty: the real machine (or A2AFFT_* variables).
  LayoutRequest layout;
  /// c2c (complex input) or r2c (real input; the output has n2/2+1 points along dimension 2,
  /// so every transpose moves about half the bytes of the c2c).
  Kind kind = Kind::c2c;
  /// double or single: the arrays are Complex and double, or ComplexFloat and float.
  Precision precision = Precision::double_precision;
  /// Fields transformed together (e.g. 3 velocity components), >= 1. They are interleaved,
  /// field fastest: value f of point p is element p * batch + f of the array, the layout of an
  /// array of structs (u, v, w) and of FFTW's howmany with stride batch, distance 1. Each
  /// transpose moves all fields in one exchange (its latency paid once, not per field), and a
  /// point's fields travel together without a pack of their own.
  std::size_t batch = 1;
};

/// A distributed 3D FFT on a p0 x p1 pencil grid: c2c or r2c, double or float, of one field or
/// a batch; every global transpose runs through one of a2afft's all-to-all exchanges. Like
/// fftw_mpi_plan_dft_3d and heffte::fft3d: built collectively, then forward() and backward() as
/// often as needed.
///
///     a2afft::Fft3d fft(MPI_COMM_WORLD, {n0, n1, n2});
///     std::vector<a2afft::Complex> data(fft.in_place_elements());
///     // fill data: element (i, j, k) of fft.input_box() at input_box().local_index({i, j, k})
///     fft.forward(data.data(), data.data());   // in place
///     fft.backward(data.data(), data.data());  // N * the input (Scaling::none)
///
/// Rank (a, b) of the grid (rank = a * p1 + b) holds the input box with dimensions 0 and 1
/// split (part a of p0, part b of p1; near-equal parts, the first ones one larger) and all of
/// dimension 2, row-major. The transposed output holds all of dimension 0, part a of
/// dimension 1 and part b of dimension 2, stored [1][0][2] when p0 > 1 (row-major when p0 = 1).
/// A dimension split into more parts than it has points leaves some ranks empty boxes; they
/// take part in every call all the same.
///
/// r2c (options.kind): the input is n0 x n1 x n2 reals, the output n0 x n1 x (n2/2+1) complex
/// numbers, FFTW's r2c convention (the other half is the conjugate mirror). The input box holds
/// all n2 points of dimension 2, unpadded (no FFTW-style 2(n2/2+1) padding is needed, in
/// place or not); the output box is a part of the complex array, as for c2c. backward() is the
/// c2r: complex in, real out. An in-place array holds in_place_elements() complex numbers
/// (enough for either side), the real input stored from its start.
///
/// All planning happens in the constructor: the grid, the exchanges (and `auto`'s timing),
/// FFTW's plans, the work arrays. forward() and backward() allocate and plan nothing.
/// Not thread-safe: one thread at a time calls a given plan. Destroy it before MPI_Finalize, in
/// the same order on every rank (destruction frees communicators and shared windows).
class Fft3d {
 public:
  /// Collective over `comm`, with the same arguments on every rank. The plan keeps its own
  /// duplicate of `comm`. Throws UsageError (the same message on every rank) for a null or
  /// inter-communicator, a zero size, a grid that does not multiply to the number of ranks, an
  /// unknown or unrunnable exchange spec, an unreadable wisdom file, or arguments that differ
  /// between ranks; MpiError when an MPI call fails.
  Fft3d(MPI_Comm comm, const std::array<std::size_t, 3>& shape, const Fft3dOptions& options = {});
  ~Fft3d();
  Fft3d(Fft3d&&) noexcept;
  Fft3d& operator=(Fft3d&&) noexcept;
  Fft3d(const Fft3d&) = delete;
  Fft3d& operator=(const Fft3d&) = delete;

  /// The grid {0, 0} chooses on `ranks` ranks: the most square p0 x p1 with p0 >= p1. Pure.
  static std::array<int, 2> default_grid(int ranks);
  /// The block bytes of the row transpose's exchange (among p1 ranks) and of the column's
  /// (among p0), as a plan of `shape` on `grid` with `output` has them: uneven splits are padded
  /// to the largest part. For estimating memory before planning; pure.
  static std::array<std::size_t, 2> exchange_block_bytes(const std::array<std::size_t, 3>& shape,
                                                         const std::array<int, 2>& grid,
                                                         Fft3dOutput output);
  /// The same for a plan of `kind`, `precision` and `batch` fields: r2c moves n2/2+1 points along
  /// dimension 2, and each point is batch complex numbers of the precision.
  static std::array<std::size_t, 2> exchange_block_bytes(const std::array<std::size_t, 3>& shape,
                                                         const std::array<int, 2>& grid,
                                                         Fft3dOutput output, Kind kind,
                                                         Precision precision, std::size_t batch);

  /// {n0, n1, n2}, the global shape.
  std::array<std::size_t, 3> shape() const;
  /// {p0, p1}, the grid in use.
  std::array<int, 2> grid() const;
  Kind kind() const;
  Precision precision() const;
  std::size_t batch() const;
  /// This rank's part of forward()'s input (and backward()'s output): row-major. For r2c a part
  /// of the real n0 x n1 x n2 array (all of dimension 2).
  Box3 input_box() const;
  /// This rank's part of forward()'s output (and backward()'s input); see Fft3dOutput. For r2c
  /// a part of the complex n0 x n1 x (n2/2+1) array.
  Box3 output_box() const;
  /// Scalars of the local input (complex, or real for r2c) and output (complex): the box's
  /// points times the batch.
  std::size_t input_elements() const;
  std::size_t output_elements() const;
  /// Complex numbers (of the plan's precision) an array needs to be transformed in place: the
  /// larger of the two sides in bytes.
  std::size_t in_place_elements() const;

  /// Transforms `in` (input_elements(), row-major over input_box()) into `out`
  /// (output_elements(), stored as output_box() says). Out of place (`in` is only read; the
  /// arrays must not overlap) or in place (in == out, holding in_place_elements()). The arrays
  /// must be aligned as new, malloc, std::vector and fftw_malloc give (16 bytes); otherwise
  /// every rank throws UsageError naming the rank. A rank with empty boxes may pass nullptr.
  /// Collective over the plan's ranks.
  /// The overload must match the plan's kind and precision (c2c double: this one; see below);
  /// another throws UsageError naming the one to call.
  void forward(const Complex* in, Complex* out);
  /// Transforms `in` (output_box() elements, in its order) into `out` (input_box(), row-major),
  /// scaled as the options say; otherwise as forward().
  void backward(const Complex* in, Complex* out);
  /// c2c float.
  void forward(const ComplexFloat* in, ComplexFloat* out);
  void backward(const ComplexFloat* in, ComplexFloat* out);
  /// r2c double: real in, complex out; backward is the c2r.
  void forward(const double* in, Complex* out);
  void backward(const Complex* in, double* out);
  /// r2c float.
  void forward(const float* in, ComplexFloat* out);
  void backward(const ComplexFloat* in, float* out);
  /// A rank whose boxes are empty may pass nullptr, whatever the plan's kind and precision.
  void forward(std::nullptr_t, std::nullptr_t);
  void backward(std::nullptr_t, std::nullptr_t);

  /// Bytes of the local input (forward's `in`, backward's `out`), of the local output, and of an
  /// array for in-place transforms, in the plan's types.
  std::size_t input_bytes() const;
  std::size_t output_bytes() const;
  std::size_t in_place_bytes() const;
  /// forward() or backward() for callers that hold untyped memory (the C, Fortran and Python
  /// bindings): `in` and `out` hold `in_bytes` and `out_bytes` of the plan's types. Throws
  /// UsageError on every rank when some rank's array is smaller than its side needs (in place:
  /// in_place_bytes()), before anything is transformed.
  void execute(Direction direction, const void* in, std::size_t in_bytes, void* out,
               std::size_t out_bytes);

  /// Bytes of the plan's own arrays on this rank (the work array, the exchanges' send and
  /// receive buffers). Not counted: the exchanges' internal scratch and FFTW's plans.
  std::size_t workspace_bytes() const;
  /// What forward() (or backward()) reads and writes in memory and computes on this rank, counted
  /// from the schedule the plan runs; see TransformTraffic. Local, no communication.
  TransformTraffic traffic(Direction direction = Direction::forward) const;
  /// Which exchanges really run: `row=<exchange>,column=<exchange>`, each an Exchange::describe()
  /// or `-` for a transpose inside one rank, e.g. `row=-,column=auto→pairwise`.
  std::string describe() const;
  /// The split of the last forward() or backward() on this rank.
  FftTimes last_times() const;

 private:
  struct Plan;
  template <typename In, typename Out>
  void run(bool forward, const In* in, Out* out, std::string size_failure = {});
  std::unique_ptr<Plan> plan_;
};

}  // namespace a2afft
