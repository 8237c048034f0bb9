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
    : line_points_(static_cast<std::size_t>(line.n)),
      width_(chunk_width(line_points_, sizeof(Complex), columns)),
      chunks_(columns / width_),
      tail_width_(columns % width_),
      slot_(scratch_slot<Complex>(width_ * static_cast<std::size_t>(line.n), threads)),
      scratch_(slot_ * static_cast<std::size_t>(std::max(1, threads))) {
  // Chunks start width_ columns apart: aligned as the plane only where that keeps the alignment.
  const bool chunks_aligned = aligned && width_ * sizeof(Complex) % 16 == 0;
  chunk_ = plan_chunk(line, width_, plane, direction, rigor, chunks_aligned);
  if (tail_width_ != 0) {
    tail_ = std::make_unique<Chunk>(
        plan_chunk(line, tail_width_, plane, direction, rigor, chunks_aligned));
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
  for (std::size_t chunk = 0; chunk < chunks_ + (tail_ ? 1 : 0); ++chunk)
    execute_chunk(chunk, plane, plane);
}

template <typename Real>
void StridedColumns<Real>::execute_chunk(std::size_t chunk, const Complex* from, Complex* to,
                                         Real factor) const {
  Complex* scratch = scratch_.data() + slot_ * static_cast<std::size_t>(plane_thread());
  const bool tail = chunk >= chunks_;
  const Chunk& plans = tail ? *tail_ : chunk_;
  const std::size_t first = chunk * width_;
  plans.fft.execute(from + first, scratch);
  if (factor != 1) {
    // The chunk's lines lie contiguous in the scratch: one loop over its reals.
    Real* reals = reinterpret_cast<Real*>(scratch);
    const std::size_t count = 2 * (tail ? tail_width_ : width_) * line_points_;
    for (std::size_t i = 0; i < count; ++i)
      reals[i] *= factor;
  }
  plans.copy.execute(scratch, to + first);
}

template class StridedColumns<double>;
template class StridedColumns<float>;

}  // namespace a2afft::detail::fft
