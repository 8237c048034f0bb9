#pragma once

#include <complex>
#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "fftw_plan.hpp"

namespace a2afft::detail::fft {

/// Which of a plan's threads runs planes on this thread now: its number in the team run_program
/// starts for a sweep, 0 everywhere else. Not omp_get_thread_num(): a plan of one thread called
/// inside the application's own parallel region (a plan per thread) would read the
/// application's thread number and run past its one scratch.
int plane_thread();
/// Set by run_program inside its team (and back to 0 after).
void set_plane_thread(int thread);

/// Out-of-place c2c FFTs down the `columns` columns of a matrix, line c having `line.n` points
/// `line.stride` complex numbers apart from c (the columns side by side), into the same places
/// of another array laid out alike (or the same one). Two users:
/// - the six-step FFT's N1 FFTs on one rank (issue 45), whose lines are N1 = 2048 points 32 KiB
///   apart at N = 2^22;
/// - under FFTW_ESTIMATE, the lines of a pencil stage's plane that run across it (y in the 2D
///   planes of slabs, y of stage 1, x of stage 2; issue 43). Handed the whole plane in place,
///   ESTIMATE (no wisdom) plans n = 256 as a loop over the lines, each a Cooley-Tukey FFT at the
///   line's stride (`dft-vrank>=1-x256/1 (dft-ct-dit/8 ...)`): at 4 KiB every point of a line
///   falls in one L1 set, and the y FFTs of 128 planes of 256 x 256 took 311-378 ms against
///   36-46 ms for MEASURE's plan, which buffers chunks of columns (`dft-buffered`), a copy
///   ESTIMATE's cost model never chooses (docs/results/estimate-plans.md).
///
/// A chunk of `width()` columns at a time: a loop gathers the chunk's columns into lines of a
/// scratch (apart by a line and a cache line: lines a power of two of bytes apart share L1
/// sets), the FFTs run in place on the lines in cache (an FFTW plan), and a loop scatters them
/// back. The loops copy each row's run whole and fetch the row 4 ahead: every row is a new page
/// and a new stream, which the hardware's prefetchers do not follow. Measured at N1 = N2 =
/// 2048, one core, ESTIMATE, loaded machine: 26-27 ms for the three steps (16 columns a chunk;
/// gather 8, FFTs 10, scatter 8); 34-35 ms with FFTW's rank-0 copies for gather and scatter
/// (14 and 11; the whole transform 118-123 ms against the loops' 103-111, three runs each;
/// under MEASURE alike, 95-112 against 95-110); 49-58 ms for an FFT reading the columns itself
/// into a scratch and an FFTW copy back (the pencils' way before: 37-41 ms of it); 32 columns
/// (1 MiB of scratch) 40-50 ms; lines without the padding 46 ms. In the 3D transform under
/// ESTIMATE (256^3, loaded machine, alternating launches, min of 10 runs): 183-199 ms on one
/// rank against 234-239 for that earlier way, 121-127 against 153-164 on 2 ranks.
template <typename Real>
class GatheredColumns {
 public:
  using Complex = std::complex<Real>;

  /// FFT plans made on a scratch of its own for each of `threads` OpenMP threads that may run
  /// chunks at once.
  GatheredColumns(const Stride& line, std::size_t columns, Direction direction, Rigor rigor,
                  int threads = 1);

  /// Chunks of `width()` columns; the rest, `tail_width()` columns (0: none), are chunk
  /// whole_chunks(), run by an FFT plan of their own width.
  std::size_t whole_chunks() const { return chunks_; }
  std::size_t width() const { return width_; }
  std::size_t tail_width() const { return tail_width_; }
  /// Chunk `chunk`'s columns of `from` through the scratch of plane_thread() into the same
  /// columns of `to` (`to` may be `from`: the chunk is read whole before it is written), times
  /// `factor` while in the scratch (1: no multiplication).
  void execute_chunk(std::size_t chunk, const Complex* from, Complex* to, Real factor = 1) const;
  /// Every chunk of `plane`'s columns, in place, in the scratch of plane_thread().
  void execute_in_place(Complex* plane) const {
    for (std::size_t chunk = 0; chunk < chunks_ + (tail_width_ != 0 ? 1 : 0); ++chunk)
      execute_chunk(chunk, plane, plane);
  }

 private:
  FftwPlan<Real> plan_lines(std::size_t width, Direction direction, Rigor rigor);

  std::size_t points_ = 0;       // a line's
  std::size_t stride_ = 0;       // complex numbers between a column's points in the arrays
  std::size_t line_stride_ = 0;  // complex numbers between the scratch's lines
  std::size_t width_ = 0;
  std::size_t chunks_ = 0;
  std::size_t tail_width_ = 0;
  std::size_t slot_ = 0;  // complex numbers of one thread's scratch, whole cache lines
  // Written by every execute: a const plan still runs in it, each thread in its own slot.
  mutable std::vector<Complex> scratch_;
  FftwPlan<Real> fft_;       // in place on width_ lines of the scratch
  FftwPlan<Real> tail_fft_;  // on tail_width_ lines (when there is a tail)
};

/// One step of the FFTs a pencil stage runs on every plane: one FFTW plan, or GatheredColumns.
template <typename Real>
class PlaneFft {
 public:
  using Complex = std::complex<Real>;

  explicit PlaneFft(FftwPlan<Real> plan) : plan_(std::move(plan)) {}
  explicit PlaneFft(std::unique_ptr<GatheredColumns<Real>> columns)
      : columns_(std::move(columns)) {}

  /// An r2c or c2r step (always one FFTW plan): see FftwPlan::execute.
  void execute(const Real* in, Complex* out) const { plan_.execute(in, out); }
  void execute(Complex* in, Real* out) const { plan_.execute(in, out); }
  /// A c2c or r2r step on `data`, in place.
  void execute_in_place(void* data) const {
    if (columns_) {
      columns_->execute_in_place(static_cast<Complex*>(data));
    } else {
      plan_.execute_in_place(data);
    }
  }

 private:
  FftwPlan<Real> plan_;
  std::unique_ptr<GatheredColumns<Real>> columns_;
};

}  // namespace a2afft::detail::fft
