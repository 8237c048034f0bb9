#pragma once

#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "axis_kinds.hpp"
#include "exchange.hpp"
#include "exchange_buffer.hpp"
#include "fft_phases.hpp"
#include "fftw_plan.hpp"
#include "geometry.hpp"
#include "padding.hpp"
#include "pencil_geometry.hpp"
#include "pencil_plans.hpp"
#include "plane_program.hpp"
#include "spec.hpp"
#include "timing/phase_timer.hpp"
#include "topology/topology.hpp"
#include "transpose_step.hpp"

namespace a2afft::detail::fft {

/// The two transposes of a pencil plan: among the p1 ranks of a row, and the p0 of a column.
enum class PencilTranspose { row, column };

struct Pencil3dOptions {
  Spec row_exchange{"mpi", {}};     // for the transpose among the p1 ranks of a row
  Spec column_exchange{"mpi", {}};  // for the transpose among the p0 ranks of a column
  Rigor rigor = Rigor::estimate;
  bool natural_output = false;      // forward output back in the input layout (two more transposes)
  Scaling scaling = Scaling::none;  // applied in the last FFT stage of each direction
  // Real input (r2c forward, c2r backward): the z FFTs of stage 0 take n2 reals to n2/2+1
  // complex points, so every transpose moves the n0 x n1 x (n2/2+1) complex array. The same as
  // axes[2] = r2c; either sets both.
  bool real_input = false;
  // What each axis does (a2afft::AxisKind), x first. r2r axes transform the real and the
  // imaginary parts apart on complex data; with no dft or r2c axis the data is real throughout
  // (r2r), and every stage moves `batch` reals per point. `none` axes are left as they are.
  std::array<AxisKind, 3> axes{AxisKind::dft, AxisKind::dft, AxisKind::dft};
  // Padded (dealiased) transforms: the logical shape of the padded side (n2 reals for r2c),
  // each axis at least the plan's, larger only along dft and r2c axes; {} for none. forward()
  // takes the padded grid to the plan's modes (the others truncated), backward() the modes to
  // the padded grid (zeros between them); only the modes are ever exchanged (fft/padding.hpp).
  // Scaling divides by the padded points. Needs transposed output.
  Shape3 padded{};
  // Fields transformed together, interleaved (field fastest: element i of field f at
  // i * batch + f): each point of every stage is `batch` values, so one exchange per transpose
  // moves all fields, and every FFT plan runs over the fields as its innermost loop.
  std::size_t batch = 1;
  // Threads of this rank (PlanOptions::threads): the sweeps' planes split across them, each
  // thread with its own plane scratches.
  int threads = 1;
};

/// A 3D FFT of `Real` (double or float) on a p0 x p1 pencil grid (docs/design.md §4): c2c, or r2c
/// with real input. Rank (a, b) starts with dims 0 and 1 split (parts a of p0 and b of p1) and
/// all of dim 2:
///   FFT z (r2c: n2 reals to n2/2+1 complex); row transpose (split z over p1, gather y); FFT y;
///   column transpose (split y over p0, gather x); FFT x.
/// The output stays in that layout: all of x, part a of y, part b of z, stored y-major
/// ([y][x][z], so the x FFTs run at stride z) when p0 > 1 and x-major when p0 = 1. With p1 = 1
/// the z and y FFTs are one 2D plan over contiguous planes. The grid may split a dimension into
/// more parts than it has points: some ranks then hold nothing, and take part all the same.
/// Forward is unnormalized, as in FFTW, unless the options ask for scaling. Collective
/// construction does all planning; forward() and backward() only compute and move data.
///
/// Each stage is one sweep over its leading planes: unpack the plane from the previous exchange,
/// transform it (and scale it, in the last FFT stage), pack it for the next exchange. The plane
/// stays in cache between them, so a transpose costs one pass over memory on each side instead
/// of two. The first sweep reads the caller's input (each plane copied into the work array while
/// in cache, then transformed there; a real plane is copied into an aligned scratch plane and
/// transformed out of it) and the last writes the caller's output, so user arrays cost no extra
/// pass over memory. The constructor compiles each direction into a step program of plane
/// operations (fft/plane_program.hpp, fft/pencil_program.hpp) that forward() and backward() run.
template <typename Real>
class BasicPencil3d {
 public:
  using Complex = std::complex<Real>;

  BasicPencil3d(const Topology& topology, const Shape3& shape, const ProcGrid& grid,
                const Pencil3dOptions& options);
  ~BasicPencil3d();
  BasicPencil3d(const BasicPencil3d&) = delete;
  BasicPencil3d& operator=(const BasicPencil3d&) = delete;

  /// Boxes, storage order, blocks and buffers of every stage on this rank, of the complex array
  /// the transposes move (n0 x n1 x (n2/2+1) for real input): what the plan uses.
  const PencilGeometry& geometry() const { return geometry_; }
  /// {n0, n1, n2}: the logical shape (of the real array, for real input): the modes.
  const Shape3& shape() const { return shape_; }
  /// The padded grid forward() takes and backward() returns (shape() without padding).
  const Shape3& physical_shape() const { return physical_; }
  std::size_t batch() const { return options_.batch; }
  bool real_input() const { return options_.real_input; }
  /// True when no axis is dft or r2c: real arrays in, through every stage, and out.
  bool real_data() const { return real_data_; }
  /// This rank's part of the input (and of the backward output), stored row-major. May be empty.
  /// For real input, its dimension 2 has all n2 points.
  const BoxRange& input_box() const { return input_box_; }
  /// This rank's part of the forward output, in global coordinates of the complex array; see
  /// output_is_y_major().
  const BoxRange& output_box() const { return geometry_.output_box(); }
  /// True when the output is stored [y][x][z] rather than row-major [x][y][z].
  bool output_is_y_major() const { return geometry_.output_is_y_major(); }
  /// Scalars (Real for real input or data, else Complex) of the local input, and of the output
  /// (Real for real data, else Complex): the box's points times the batch.
  std::size_t input_scalars() const { return input_box_.elements() * options_.batch; }
  std::size_t output_scalars() const { return output_box().elements() * options_.batch; }
  /// Scalars of the output's type (Complex; Real for real data) an array needs for in-place
  /// transforms: the larger of the two sides.
  std::size_t in_place_elements() const;
  /// Bytes of the plan's own arrays on this rank: the work array (the largest stage), the
  /// exchanges' send and receive buffers (shared by both transposes) and, for real input, one
  /// real plane. Not counted: the exchanges' internal scratch and FFTW's plans.
  std::size_t workspace_bytes() const;

  /// Forward transform of `in` (input_scalars(), row-major) into `out` (output_scalars(), in
  /// the output order, see output_is_y_major()): `in` holds Complex, or Real for real input or
  /// data; `out` Complex, or Real for real data.
  /// Out of place (arrays apart; `in` is only read) or in place (in == out, holding
  /// in_place_elements()). Both 16-byte aligned, as new, malloc, std::vector and fftw_malloc
  /// give; otherwise throws UsageError on the rank that passed them. Collective over the plan's
  /// ranks; allocates and plans nothing.
  void forward(const void* in, void* out);
  /// Backward transform of `in` (output_scalars(), in the output order) into `out`
  /// (input_scalars(), row-major); otherwise as forward().
  void backward(const void* in, void* out);

  /// What forward() (or backward()) reads and writes in memory on this rank: the fold of its
  /// program (program_traffic()), what its operations move; `flops` left 0 for the caller.
  TransformTraffic traffic(bool backward = false) const;

  /// `row=<describe>,column=<describe>`: describe_exchange() of each transpose.
  std::string describe() const;
  /// The Exchange::describe() of the row's or the column's transpose, `-` for one inside one rank.
  std::string describe_exchange(PencilTranspose which) const;
  /// Seconds of `compute` (FFTs and scaling) and `transpose` (pack + exchange + unpack) of every
  /// call accumulate here; nullptr detaches. Attaching creates both entries, so they exist (at
  /// 0) even on a rank that holds nothing. For the split of the last call only, attach a timer
  /// once and clear() it before each call: clear() keeps the entries, so nothing is allocated.
  void attach_timer(PhaseTimer* timer) { timer_ = with_fft_phases(timer); }

  /// Whether the row's and the column's exchange leave our own block to the pack
  /// (ExchangePlan::can_leave_own_block(); false without one): pencil_schedule()'s argument.
  std::array<bool, 2> leaves_own_block() const;
  /// Tests: every later forward() and backward() also adds the bytes its operations report
  /// moving to `counter` (TrafficCounter's rules, the ones traffic() folds); nullptr detaches.
  void count_traffic(TrafficCounter* counter) { counter_ = counter; }

 private:
  struct Transpose;
  void make_exchanges(const Topology& topology, const ProcGrid& grid);
  void allocate_arrays();
  void compile_programs();
  ProgramArrays arrays(const void* in, void* out) const;

  Shape3 shape_;
  Shape3 physical_;  // the padded grid, shape_ without padding
  PencilGeometry geometry_;
  Pencil3dOptions options_;
  BoxRange input_box_;
  bool real_data_;             // no dft or r2c axis: reals through every stage
  std::size_t scalar_bytes_;   // one value of the moved array: sizeof(Complex), or sizeof(Real)
  std::size_t element_bytes_;  // one point of every field: batch * scalar_bytes_
  // Every stage between the first sweep and the last; heap memory of huge pages where the
  // kernel gives them (allocate_aligned), for the strided FFTs' TLB.
  ExchangeArray<Complex> work_;
  // Real input: one plane of stage 0 a thread (threads_' slots), aligned for FFTW.
  std::vector<Real> real_plane_;
  // Backward into a locally transposed stage 2 (p0 = 1): one of its planes a thread, in cache.
  ExchangeArray<Complex> plane_scratch_;
  ExchangeArray<Complex> send_;  // from the row exchange's allocate() (else the column's)
  ExchangeArray<Complex> recv_;
  std::unique_ptr<Topology> row_topology_;
  std::unique_ptr<Topology> column_topology_;
  std::unique_ptr<Transpose> row_;
  std::unique_ptr<Transpose> column_;
  std::array<PlaneResize, 3> resizes_{};  // of each stage, for padded plans
  std::unique_ptr<PencilPlaneFfts<Real>> ffts_;
  PlaneProgram<Real> forward_;  // compiled at construction; forward() only runs it
  PlaneProgram<Real> backward_;
  PhaseTimer* timer_ = nullptr;
  TrafficCounter* counter_ = nullptr;
  ProgramThreads threads_;  // the threads, and the per-thread slots of the scratches
};

using Pencil3d = BasicPencil3d<double>;

}  // namespace a2afft::detail::fft
