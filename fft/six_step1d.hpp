#pragma once

#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "exchange.hpp"
#include "exchange_buffer.hpp"
#include "fft_phases.hpp"
#include "fftw_plan.hpp"
#include "geometry.hpp"
#include "plane_fft.hpp"
#include "plane_program.hpp"
#include "six_step_geometry.hpp"
#include "spec.hpp"
#include "timing/phase_timer.hpp"
#include "topology/topology.hpp"

namespace a2afft::detail::fft {

struct SixStep1dOptions {
  Spec exchange{"mpi", {}};  // for all three transposes
  std::size_t n1 = 0;        // 0: chosen near sqrt(N)
  Rigor rigor = Rigor::estimate;
  bool scrambled_output = false;    // skip the last transpose; see SixStep1d
  Scaling scaling = Scaling::none;  // applied in the last FFT stage of each direction
  // Fields transformed together, interleaved (field fastest: point i of field f at
  // i * batch + f), as Pencil3dOptions::batch: each point is `batch` complex numbers, so one
  // exchange per transpose moves all fields, and every FFT and local-transpose plan runs over
  // the fields as its innermost loop.
  std::size_t batch = 1;
  // Threads of this rank (PlanOptions::threads): the row sweeps' chunks (and on one rank the
  // chunks of columns) split across them, and the whole-array local transposes run on FFTW's
  // threads.
  int threads = 1;
};

/// A 1D c2c FFT of `Real` (double or float) of length N = N1 * N2 over P ranks (docs/design.md
/// §4), P dividing N1 and N2. Rank r holds x[r N/P .. (r+1) N/P) (the rows n1 of the N1 x N2
/// matrix x[N2 n1 + n2]):
///   transpose; N2 FFTs of length N1; twiddle by W_N^(n2 k1); transpose;
///   N1 FFTs of length N2; transpose back.
/// On one rank (P = 1) the steps are the N1 FFTs down the columns of x, the twiddles and the N2
/// FFTs of the rows k1, and one transpose (six_step_schedule()): the same output orders.
/// The output X[k] is then natural: rank r holds X[r N/P .. (r+1) N/P). Scrambled output skips
/// the last transpose: rank r's element i * N2 + k2 (i < N1/P, k2 < N2) holds
/// X[(r N1/P + i) + N1 k2]; backward() then expects that order as its input. Since P divides N1
/// and N2, every rank holds N/P >= P elements: no part is ever empty. Forward is unnormalized,
/// as in FFTW (backward(forward(x)) = N x), unless the options ask for scaling. Construction
/// plans (FFTW plans, twiddles, the exchange); forward() and backward() only compute and move
/// data. The first step reads the caller's input (a local transpose out of it, or in scrambled
/// backward the first FFTs' rows, copied into the work array while in cache) and the last
/// writes the caller's output. A batch of k fields holds k interleaved values per point
/// (SixStep1dOptions::batch); every index above counts points.
template <typename Real>
class BasicSixStep1d {
 public:
  using Complex = std::complex<Real>;

  BasicSixStep1d(const Topology& topology, std::size_t n, const SixStep1dOptions& options);
  ~BasicSixStep1d();
  BasicSixStep1d(const BasicSixStep1d&) = delete;
  BasicSixStep1d& operator=(const BasicSixStep1d&) = delete;

  /// N, N1, N2, rows and blocks of every rank: what the plan uses.
  const SixStepGeometry& geometry() const { return geometry_; }
  std::size_t length() const { return geometry_.length(); }
  SixStepSplit split() const { return geometry_.split(); }
  /// The local part of the (natural-order) input, as a box of the 1 x 1 x N array.
  BoxRange input_box() const { return geometry_.input_box(rank_); }
  /// Points of the local input and output alike (N/P).
  std::size_t local_length() const { return geometry_.local_length(); }
  std::size_t batch() const { return options_.batch; }
  /// Complex numbers of the local input and output alike, so also of an in-place array: N/P
  /// points of every field.
  std::size_t local_scalars() const { return geometry_.local_length() * options_.batch; }
  /// Global index of local output element i (the identity map plus an offset when natural).
  std::size_t output_index(std::size_t i) const { return geometry_.output_index(rank_, i); }
  /// Bytes of the plan's own arrays on this rank: the work array and the exchange's send and
  /// receive buffers, local_scalars() each (on one rank, which exchanges nothing, the work array
  /// only). Not counted: the exchange's internal scratch, FFTW's plans, the twiddle tables
  /// (2 sqrt(N) elements) and one rank's column scratch (a cache-sized chunk per thread).
  std::size_t workspace_bytes() const;

  /// Forward transform of `in` (local_scalars() complex numbers, input_box()) into `out` (as
  /// many, see output_index()). Out of place (arrays apart; `in` is only read) or in place (in ==
  /// out). Both 16-byte aligned, as new, malloc, std::vector and fftw_malloc give; otherwise throws
  /// UsageError on the rank that passed them. Collective; allocates and plans nothing.
  void forward(const Complex* in, Complex* out);
  /// Backward transform of `in` (in the output order) into `out` (natural order, input_box()).
  void backward(const Complex* in, Complex* out);

  /// What forward() (or backward()) reads and writes in memory on this rank: the fold of its
  /// program (program_traffic()), what its operations move; `flops` left 0 for the caller.
  TransformTraffic traffic(bool backward = false) const;

  /// `sixstep(N1=..,N2=..[,scrambled]): <exchange describe>`.
  std::string describe() const;
  /// Seconds of `compute` (FFTs, twiddles and scaling) and `transpose` (pack, exchange, unpack
  /// and local transposes) of every call accumulate here; nullptr detaches. Attaching creates
  /// both entries; for the split of the last call only, attach once and clear() the timer
  /// before each call (clear() keeps the entries, so nothing is allocated).
  void attach_timer(PhaseTimer* timer) { timer_ = with_fft_phases(timer); }

  /// Whether the exchange leaves our own block to the packs (six_step_schedule()'s argument).
  bool leaves_own_block() const { return leaves_own_block_; }
  /// Tests: every later forward() and backward() also adds the bytes its operations report
  /// moving to `counter` (TrafficCounter's rules, the ones traffic() folds); nullptr detaches.
  void count_traffic(TrafficCounter* counter) { counter_ = counter; }

 private:
  void plan_local_transposes();
  void plan_columns();
  PlaneProgram<Real> compile(const std::vector<SixStepStep>& steps, bool backward) const;
  Sweep<Real> transpose_sweep(const SixStepStep& step) const;
  Sweep<Real> row_sweep(const SixStepStep& step, bool backward) const;
  void add_column_sweeps(const SixStepStep& step, bool backward, PlaneProgram<Real>& program) const;
  ProgramArrays arrays(const Complex* in, Complex* out) const;

  int rank_;
  SixStepGeometry geometry_;
  SixStep1dOptions options_;
  std::unique_ptr<ExchangePlan> exchange_;
  bool leaves_own_block_ = false;  // the packs put our own block straight into recv_
  ExchangeArray<Complex> work_;    // heap, huge pages where the kernel gives them
  ExchangeArray<Complex> send_;    // from exchange_->allocate()
  ExchangeArray<Complex> recv_;
  // W_N^m in double for either Real; row n2 of the N1 FFTs is twiddled by W_N^(n2 k1).
  TwiddleTable twiddles_;
  // Row FFTs, in place on each row (of every field): forward of length N1 and N2, then backward
  // of length N1 and N2.
  std::vector<PlaneFft<Real>> row_ffts_;
  // Local transposes: recv_ [N1][N2/P] or [N2][N1/P] -> rows, and rows [N2/P][N1] or
  // [N1/P][N2] -> send_ (rows in work_ or the caller's arrays).
  std::array<FftwPlan<Real>, 2> recv_to_rows_;
  std::array<FftwPlan<Real>, 2> rows_to_send_;
  // One rank only: the N1 FFTs down the columns, forward and backward, with a scratch of a
  // chunk of columns for each thread.
  std::array<std::unique_ptr<GatheredColumns<Real>>, 2> columns_;
  // The programs of forward() and backward(), compiled at construction.
  PlaneProgram<Real> forward_;
  PlaneProgram<Real> backward_;
  PhaseTimer* timer_ = nullptr;
  TrafficCounter* counter_ = nullptr;
  ProgramThreads threads_;  // no scratch of its own: the threads share every array
};

using SixStep1d = BasicSixStep1d<double>;

}  // namespace a2afft::detail::fft
