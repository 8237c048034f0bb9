#pragma once

#include <mpi.h>

#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

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

/// Fft3dOptions::grid = timed_grid: the constructor times the candidate grids
/// (Fft3d::grid_candidates), each planned with its exchanges as the options ask (an `auto`
/// exchange timed on that grid), by one warm-up and three timed forward() and backward() pairs
/// on arrays of the plan's sizes (the slowest rank's time, the median), and keeps the fastest;
/// ties go to the rule's grid (Fft3d::default_grid). The choice is the same on every rank. With
/// A2AFFT_WISDOM set it is kept there beside the exchanges' choices, keyed by MPI library,
/// layout, shape, transform, exchanges, output, rigor and threads, so that a later plan of the same
/// problem takes it without timing. describe() says which grid won and by how much over the
/// rule's, and grid() returns it. Planning costs one plan and four forward/backward pairs per
/// candidate.
inline constexpr std::array<int, 2> timed_grid{-1, -1};

/// How an Fft3d is planned: the options every FFT shares (PlanOptions: exchange, rigor,
/// scaling, wisdom, layout, kind, precision, batch) and the 3D plan's own. Every field has a
/// working default; set only what you need:
///
///     a2afft::Fft3dOptions options;
///     options.scaling = a2afft::Scaling::full;
///     a2afft::Fft3d fft(MPI_COMM_WORLD, {256, 256, 256}, options);
struct Fft3dOptions : PlanOptions {
  /// The p0 x p1 process grid, p0 * p1 = the communicator's size; {0, 0} chooses the most
  /// square grid with p0 >= p1 (slabs, p1 = 1, on a prime number of ranks); timed_grid times
  /// the candidates and keeps the fastest.
  std::array<int, 2> grid{0, 0};
  /// The all-to-all of the transpose among the p1 ranks of a grid row, and among the p0 ranks
  /// of a column, when they should differ from `exchange`; empty: `exchange`.
  /// @{
  std::string row_exchange;
  std::string column_exchange;
  /// @}
  /// Where forward() leaves its output (Fft3dOutput).
  Fft3dOutput output = Fft3dOutput::transposed;
  /// This rank's part of the input and of the output as the application holds them (heFFTe's
  /// inbox and outbox): any decomposition of the array (bricks, pencils, slabs, empty boxes;
  /// input and output may differ), each box in its own storage order (Box3::order). Together
  /// the ranks' boxes must hold every point once; otherwise every rank throws UsageError naming
  /// the ranks and boxes. The output box is a part of the spectrum (n2/2+1 along dimension 2
  /// for r2c). Unset (the default): the plan's own pencils, with no reshape. Set, forward()
  /// reshapes the input into the plan's pencils and its output into `output_box` (backward()
  /// the reverse), each through one variable-size exchange that talks only to real partners;
  /// a box equal to the plan's own on every rank adds nothing. input_box() and output_box()
  /// then return these.
  /// @{
  std::optional<Box3> input_box;
  std::optional<Box3> output_box;
  /// @}
  /// The variable-size exchange of the reshapes: `auto` (time the candidates, keep the fastest),
  /// `mpi` (MPI_Alltoallv), `neighbor`, `sparse`, `node-aggregate`, ... (`a2afft list`).
  std::string reshape_exchange = "auto";
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
/// dimension 1 and part b of dimension 2, stored [1][0][2] (output_box().order {1, 0, 2}) on
/// every grid, as FFTW_MPI_TRANSPOSED_OUT: the x FFTs then run on contiguous planes (earlier
/// versions stored it row-major when p0 = 1; output_box().order always tells). A padded plan
/// with p0 = 1, or n0 = 1, stores it row-major.
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
/// forward(), backward() and execute() (DistributedFft) take input_box()'s row-major array to
/// output_box()'s and back; describe() says `row=<exchange>,column=<exchange>`.
///
/// All planning happens in the constructor: the grid, the exchanges (and `auto`'s timing),
/// FFTW's plans, the work arrays. forward() and backward() allocate and plan nothing.
/// Not thread-safe: one thread at a time calls a given plan. Destroy it before MPI_Finalize, in
/// the same order on every rank (destruction frees communicators and shared windows).
class Fft3d : public DistributedFft {
 public:
  /// Collective over `comm`, with the same arguments on every rank. The plan keeps its own
  /// duplicate of `comm`. Throws UsageError (the same message on every rank) for a null or
  /// inter-communicator, a zero size, a grid that does not multiply to the number of ranks, an
  /// unknown or unrunnable exchange spec, an unreadable wisdom file, or arguments that differ
  /// between ranks; MpiError when an MPI call fails.
  Fft3d(MPI_Comm comm, const std::array<std::size_t, 3>& shape, const Fft3dOptions& options = {});
  /// Collective, as construction: frees the plan's communicators, windows and arrays.
  ~Fft3d() override;
  /// Plans move; a moved-from plan may only be destroyed or assigned to.
  /// @{
  Fft3d(Fft3d&&) noexcept;
  Fft3d& operator=(Fft3d&&) noexcept;
  /// @}

  /// The grid {0, 0} chooses on `ranks` ranks: the most square p0 x p1 with p0 >= p1. Pure.
  static std::array<int, 2> default_grid(int ranks);
  /// The grids timed_grid tries for `shape` on `ranks` ranks, the rule's first: every
  /// p0 x p1 = ranks when there are at most 8, otherwise the 6 nearest to square (p0 >= p1
  /// first) and the two slab grids ranks x 1 and 1 x ranks; a grid with p0 > n0 or p1 > n1 is
  /// left out. Pure.
  static std::vector<std::array<int, 2>> grid_candidates(int ranks,
                                                         const std::array<std::size_t, 3>& shape);
  /// The block bytes of the row transpose's exchange (among p1 ranks) and of the column's
  /// (among p0), as a plan of `shape` on `grid` with `output` has them: uneven splits are padded
  /// to the largest part. For estimating memory before planning; pure.
  static std::array<std::size_t, 2> exchange_block_bytes(const std::array<std::size_t, 3>& shape,
                                                         const std::array<int, 2>& grid,
                                                         Fft3dOutput output);
  /// The same for a plan of `kind`, `precision` and `batch` fields: r2c moves n2/2+1 points along
  /// dimension 2, and each point is batch complex numbers of the precision (reals for r2r).
  static std::array<std::size_t, 2> exchange_block_bytes(const std::array<std::size_t, 3>& shape,
                                                         const std::array<int, 2>& grid,
                                                         Fft3dOutput output, Kind kind,
                                                         Precision precision, std::size_t batch);

  /// {n0, n1, n2}, the global shape.
  std::array<std::size_t, 3> shape() const;
  /// The physical grid forward() takes and backward() returns: shape() padded by
  /// options.padding (shape() without padding).
  std::array<std::size_t, 3> padded_shape() const;
  /// {p0, p1}, the grid in use.
  std::array<int, 2> grid() const;
  /// This rank's part of forward()'s input (and backward()'s output): row-major. For r2c a part
  /// of the real n0 x n1 x n2 array (all of dimension 2).
  Box3 input_box() const;
  /// This rank's part of forward()'s output (and backward()'s input); see Fft3dOutput. For r2c
  /// a part of the complex n0 x n1 x (n2/2+1) array.
  Box3 output_box() const;

 private:
  std::array<std::size_t, 3> shape_;
};

}  // namespace a2afft
