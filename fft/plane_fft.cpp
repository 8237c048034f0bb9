#include "plane_fft.hpp"

#include <algorithm>

namespace a2afft::detail::fft {
namespace {

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

// The rows a gather or scatter fetches ahead of the one it copies: 4 and 8 ran alike, 16 slower
// (the gather 11 ms against 8; N1 = 2048, 16 columns, loaded machine).
constexpr std::size_t kPrefetchRows = 4;

// Asks for the cache lines of `bytes` bytes from `start` ahead of their use, for reading
// (kForWriting 0) or writing (1).
template <int kForWriting>
void prefetch_run(const void* start, std::size_t bytes) {
  const auto* at = static_cast<const char*>(start);
  for (std::size_t b = 0; b < bytes; b += 64)
    __builtin_prefetch(at + b, kForWriting);
}

// `n` rows of `width` points, `stride` apart in `from`, into `width` lines of `n` points,
// `line_stride` apart in `lines`.
template <typename Complex>
void gather_columns(const Complex* from, std::size_t stride, std::size_t n, std::size_t width,
                    Complex* lines, std::size_t line_stride) {
  for (std::size_t r = 0; r < n; ++r) {
    if (r + kPrefetchRows < n)
      prefetch_run<0>(from + (r + kPrefetchRows) * stride, width * sizeof(Complex));
    const Complex* row = from + r * stride;
    for (std::size_t c = 0; c < width; ++c)
      lines[c * line_stride + r] = row[c];
  }
}

// The reverse: the lines back into the rows, each row's cache lines fetched for writing ahead.
template <typename Complex>
void scatter_columns(const Complex* lines, std::size_t line_stride, std::size_t n,
                     std::size_t width, Complex* to, std::size_t stride) {
  for (std::size_t r = 0; r < n; ++r) {
    if (r + kPrefetchRows < n)
      prefetch_run<1>(to + (r + kPrefetchRows) * stride, width * sizeof(Complex));
    Complex* row = to + r * stride;
    for (std::size_t c = 0; c < width; ++c)
      row[c] = lines[c * line_stride + r];
  }
}

}  // namespace

template <typename Real>
GatheredColumns<Real>::GatheredColumns(const Stride& line, std::size_t columns, Direction direction,
                                       Rigor rigor, int threads)
    : points_(static_cast<std::size_t>(line.n)),
      stride_(static_cast<std::size_t>(line.stride)),
      line_stride_(points_ + 64 / sizeof(Complex)),
      width_(gathered_width(points_, sizeof(Complex), columns)),
      chunks_(columns / width_),
      tail_width_(columns % width_),
      slot_(scratch_slot<Complex>(width_ * line_stride_, threads)),
      scratch_(slot_ * static_cast<std::size_t>(std::max(1, threads))) {
  fft_ = plan_lines(width_, direction, rigor);
  if (tail_width_ != 0) tail_fft_ = plan_lines(tail_width_, direction, rigor);
}

// scratch[c * line_stride_ + k] holds point k of column c. Every thread's slot starts whole
// cache lines after the first, so aligned as the one planned on.
template <typename Real>
FftwPlan<Real> GatheredColumns<Real>::plan_lines(std::size_t width, Direction direction,
                                                 Rigor rigor) {
  const auto n = static_cast<std::ptrdiff_t>(points_);
  const auto lines = static_cast<std::ptrdiff_t>(line_stride_);
  return FftwPlan<Real>({{n, 1}}, {{static_cast<std::ptrdiff_t>(width), lines}}, scratch_.data(),
                        scratch_.data(), direction, rigor, true);
}

template <typename Real>
void GatheredColumns<Real>::execute_chunk(std::size_t chunk, const Complex* from, Complex* to,
                                          Real factor) const {
  Complex* scratch = scratch_.data() + slot_ * static_cast<std::size_t>(plane_thread());
  const bool tail = chunk >= chunks_;
  const std::size_t width = tail ? tail_width_ : width_;
  const std::size_t first = chunk * width_;
  gather_columns(from + first, stride_, points_, width, scratch, line_stride_);
  (tail ? tail_fft_ : fft_).execute_in_place(scratch);
  if (factor != 1) {
    for (std::size_t c = 0; c < width; ++c) {
      Complex* points = scratch + c * line_stride_;
      for (std::size_t k = 0; k < points_; ++k)
        points[k] *= factor;
    }
  }
  scatter_columns(scratch, line_stride_, points_, width, to + first, stride_);
}

template class GatheredColumns<double>;
template class GatheredColumns<float>;

}  // namespace a2afft::detail::fft
