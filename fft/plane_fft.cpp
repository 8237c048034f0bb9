#include "plane_fft.hpp"

#include <algorithm>

namespace a2afft::detail::fft {
namespace {

// Columns a chunk: enough to fill 64 KiB of scratch, and at least 8 (fewer ran slower: 2 columns
// 52 ms, 4 columns 46 ms, 16 columns 40 ms on 128 planes of 256 x 256; see StridedColumns).
std::size_t chunk_width(std::size_t points, std::size_t point_bytes, std::size_t columns) {
  const std::size_t filling =
      (std::size_t{64} << 10) / std::max<std::size_t>(1, points * point_bytes);
  return std::min(columns, std::max<std::size_t>(8, filling));
}

// Complex numbers of one thread's scratch of `complex` numbers: whole cache lines apart for
// several threads (aligned alike for FFTW, no line shared), exactly `complex` for one.
template <typename Complex>
std::size_t scratch_slot(std::size_t complex, int threads) {
  if (threads <= 1) return complex;
  return (complex * sizeof(Complex) + 63) / 64 * 64 / sizeof(Complex);
}

thread_local int t_plane_thread = 0;

}  // namespace

int plane_thread() {
  return t_plane_thread;
}

void set_plane_thread(int thread) {
  t_plane_thread = thread;
}

template <typename Real>
StridedColumns<Real>::StridedColumns(const Stride& line, std::size_t columns, Complex* plane,
                                     Direction direction, Rigor rigor, bool aligned, int threads)
    : width_(chunk_width(static_cast<std::size_t>(line.n), sizeof(Complex), columns)),
      chunks_(columns / width_),
      slot_(scratch_slot<Complex>(width_ * static_cast<std::size_t>(line.n), threads)),
      scratch_(slot_ * static_cast<std::size_t>(std::max(1, threads))) {
  // Chunks start width_ columns apart: aligned as the plane only where that keeps the alignment.
  const bool chunks_aligned = aligned && width_ * sizeof(Complex) % 16 == 0;
  chunk_ = plan_chunk(line, width_, plane, direction, rigor, chunks_aligned);
  if (const std::size_t rest = columns % width_; rest != 0) {
    tail_ =
        std::make_unique<Chunk>(plan_chunk(line, rest, plane, direction, rigor, chunks_aligned));
  }
}

template <typename Real>
auto StridedColumns<Real>::plan_chunk(const Stride& line, std::size_t width, Complex* plane,
                                      Direction direction, Rigor rigor, bool aligned) -> Chunk {
  const auto w = static_cast<std::ptrdiff_t>(width);
  const std::ptrdiff_t n = line.n;
  // scratch_[c * n + k] holds point k of column c.
  FftwPlan<Real> fft({{n, line.stride, 1}}, {{w, 1, n}}, plane, scratch_.data(), direction, rigor,
                     aligned);
  FftwPlan<Real> copy({}, {{w, n, 1}, {n, 1, line.stride}}, scratch_.data(), plane,
                      Direction::forward, rigor, aligned);
  return {std::move(fft), std::move(copy)};
}

template <typename Real>
void StridedColumns<Real>::execute_in_place(Complex* plane) const {
  Complex* scratch = scratch_.data() + slot_ * static_cast<std::size_t>(plane_thread());
  for (std::size_t chunk = 0; chunk < chunks_; ++chunk) {
    Complex* columns = plane + chunk * width_;
    chunk_.fft.execute(columns, scratch);
    chunk_.copy.execute(scratch, columns);
  }
  if (!tail_) return;
  Complex* columns = plane + chunks_ * width_;
  tail_->fft.execute(columns, scratch);
  tail_->copy.execute(scratch, columns);
}

template class StridedColumns<double>;
template class StridedColumns<float>;

namespace {

// GatheredColumns' columns a chunk: runs of 256 bytes of each line's row (16 complex doubles;
// 8 ran 42 ms, 32 40-50 ms at N1 = 2048), fewer where that scratch would pass 1 MiB, never
// fewer than 4.
std::size_t gathered_width(std::size_t points, std::size_t point_bytes, std::size_t columns) {
  const std::size_t run = 256 / point_bytes;
  const std::size_t fitting =
      (std::size_t{1} << 20) / std::max<std::size_t>(1, points * point_bytes);
  return std::min(columns, std::max<std::size_t>(4, std::min(run, fitting)));
}

}  // namespace

template <typename Real>
GatheredColumns<Real>::GatheredColumns(const Stride& line, std::size_t columns, Complex* array,
                                       Direction direction, Rigor rigor, int threads)
    : points_(static_cast<std::size_t>(line.n)),
      line_stride_(points_ + 64 / sizeof(Complex)),
      width_(gathered_width(points_, sizeof(Complex), columns)),
      chunks_(columns / width_),
      tail_width_(columns % width_),
      slot_(scratch_slot<Complex>(width_ * line_stride_, threads)),
      scratch_(slot_ * static_cast<std::size_t>(std::max(1, threads))) {
  // Chunks start width_ columns apart: aligned as the array only where that keeps the alignment.
  const bool aligned = width_ * sizeof(Complex) % 16 == 0;
  chunk_ = plan_chunk(line, width_, array, direction, rigor, aligned);
  if (tail_width_ != 0) {
    tail_ =
        std::make_unique<Chunk>(plan_chunk(line, tail_width_, array, direction, rigor, aligned));
  }
}

template <typename Real>
auto GatheredColumns<Real>::plan_chunk(const Stride& line, std::size_t width, Complex* array,
                                       Direction direction, Rigor rigor, bool aligned) -> Chunk {
  const auto w = static_cast<std::ptrdiff_t>(width);
  const auto n = static_cast<std::ptrdiff_t>(points_);
  const auto lines = static_cast<std::ptrdiff_t>(line_stride_);
  Complex* scratch = scratch_.data();
  // scratch[c * line_stride_ + k] holds point k of column c; the copies run along the columns'
  // rows (the array's contiguous runs) as their inner loop.
  FftwPlan<Real> gather({}, {{n, line.stride, 1}, {w, 1, lines}}, array, scratch,
                        Direction::forward, rigor, aligned);
  FftwPlan<Real> fft({{n, 1}}, {{w, lines}}, scratch, scratch, direction, rigor, true);
  FftwPlan<Real> scatter({}, {{w, lines, 1}, {n, 1, line.stride}}, scratch, array,
                         Direction::forward, rigor, aligned);
  return {std::move(gather), std::move(fft), std::move(scatter)};
}

template <typename Real>
void GatheredColumns<Real>::execute_chunk(std::size_t chunk, const Complex* from, Complex* to,
                                          Real factor) const {
  Complex* scratch = scratch_.data() + slot_ * static_cast<std::size_t>(plane_thread());
  const bool tail = chunk >= chunks_;
  const Chunk& plans = tail ? *tail_ : chunk_;
  const std::size_t first = chunk * width_;
  plans.gather.execute(from + first, scratch);
  plans.fft.execute_in_place(scratch);
  if (factor != 1) {
    const std::size_t width = tail ? tail_width_ : width_;
    for (std::size_t c = 0; c < width; ++c) {
      Complex* points = scratch + c * line_stride_;
      for (std::size_t k = 0; k < points_; ++k)
        points[k] *= factor;
    }
  }
  plans.scatter.execute(scratch, to + first);
}

template class GatheredColumns<double>;
template class GatheredColumns<float>;

}  // namespace a2afft::detail::fft
