// Issue 35: where one core's FFT time goes, by access shape, with FFTW 3.3.10 as a2afft calls
// it. Not part of the build: a measurement program for docs/results/local-fft-limits.md.
//   g++ -O2 -march=native local_fft_shapes.cpp -lfftw3 -o local_fft_shapes
//   ./local_fft_shapes 256    (one core; run on a quiet machine)
// Every row is the median of 7 rounds over the n^3 array (huge-page aligned, MADV_HUGEPAGE),
// FFTW_MEASURE plans, c2c double forward. GFlop/s count 5 n log2 n per transform of length n.
#include <fftw3.h>
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

namespace {
using Point = fftw_complex;

double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

Point* huge_page_array(std::size_t points) {
  void* memory = nullptr;
  if (posix_memalign(&memory, std::size_t{1} << 21, points * sizeof(Point)) != 0) std::abort();
  madvise(memory, points * sizeof(Point), MADV_HUGEPAGE);
  std::memset(memory, 0, points * sizeof(Point));
  return static_cast<Point*>(memory);
}

double median_ms(const std::function<void()>& work) {
  constexpr int kRounds = 7;
  work();
  std::vector<double> rounds;
  for (int round = 0; round < kRounds; ++round) {
    const double start = seconds_now();
    work();
    rounds.push_back(seconds_now() - start);
  }
  std::sort(rounds.begin(), rounds.end());
  return rounds[kRounds / 2] * 1e3;
}

// One length-n transform along a loop of `stride` points, repeated over `howmany` at `step`.
fftw_plan lines(int n, int stride, int howmany, int step, Point* in, Point* out) {
  fftw_iodim transform{n, stride, stride};
  fftw_iodim loop{howmany, step, step};
  return fftw_plan_guru_dft(1, &transform, 1, &loop, in, out, FFTW_FORWARD, FFTW_MEASURE);
}
}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 256;
  const std::size_t plane = std::size_t(n) * n, points = plane * n;
  Point* work = huge_page_array(points);
  Point* out = huge_page_array(points);
  const double one_axis_mflop =
      5.0 * n * std::log2(double(n)) * plane * 1e-6;  // one axis, n^2 lines
  const auto row = [&](const char* what, double ms, double axes) {
    std::printf("| %-62s | %8.2f | %6.1f |\n", what, ms, axes * one_axis_mflop / ms);
  };
  // Plans first (FFTW_MEASURE writes the arrays), then the data.
  fftw_plan whole = fftw_plan_dft_3d(n, n, n, work, work, FFTW_FORWARD, FFTW_MEASURE);
  int sides[2] = {n, n};
  fftw_plan plane_2d = fftw_plan_many_dft(2, sides, 1, work, nullptr, 1, 0, work, nullptr, 1, 0,
                                          FFTW_FORWARD, FFTW_MEASURE);
  fftw_plan z_rows = lines(n, 1, int(plane), n, work, work);
  fftw_plan y_in_plane = lines(n, n, n, 1, work, work);
  fftw_plan x_across = lines(n, int(plane), n, 1, out, out);
  fftw_plan x_in_y_major_plane = lines(n, n, n, 1, out, out);
  for (std::size_t i = 0; i < points; ++i) {
    work[i][0] = std::cos(0.001 * double(i));
    work[i][1] = std::sin(0.0007 * double(i));
  }
  std::printf("n = %d, %.0f MiB per array\n\n| what | ms | GFlop/s |\n|---|---|---|\n", n,
              points * sizeof(Point) / 1048576.0);
  row("FFTW's own 3D plan, in place", median_ms([&] { fftw_execute(whole); }), 3);
  row("z: contiguous rows of the whole array, in place", median_ms([&] { fftw_execute(z_rows); }),
      1);
  row("y: stride n inside each x plane, in place, plane by plane", median_ms([&] {
        for (int x = 0; x < n; ++x)
          fftw_execute_dft(y_in_plane, work + x * plane, work + x * plane);
      }),
      1);
  row("z and y: FFTW's 2D plan of each x plane, in place (a2afft's slab stage)", median_ms([&] {
        for (int x = 0; x < n; ++x)
          fftw_execute_dft(plane_2d, work + x * plane, work + x * plane);
      }),
      2);
  row("x, x-major: copy a y plane's n runs, transform at stride n^2 (one rank today)",
      median_ms([&] {
        for (int y = 0; y < n; ++y) {
          for (int x = 0; x < n; ++x)
            std::memcpy(out + x * plane + y * n, work + x * plane + y * n, n * sizeof(Point));
          fftw_execute_dft(x_across, out + y * n, out + y * n);
        }
      }),
      1);
  row("x, y-major: gather the same runs into one contiguous plane, stride n", median_ms([&] {
        for (int y = 0; y < n; ++y) {
          for (int x = 0; x < n; ++x)
            std::memcpy(out + y * plane + x * n, work + x * plane + y * n, n * sizeof(Point));
          fftw_execute_dft(x_in_y_major_plane, out + y * plane, out + y * plane);
        }
      }),
      1);
  row("memcpy of the whole array (no flops)",
      median_ms([&] { std::memcpy(out, work, points * sizeof(Point)); }), 0);
  fftw_plan in_cache = lines(n, 1, 16, n, work, out);
  fftw_plan in_cache_strided = lines(n, n, n, 1, work, work);
  const double lines_16 = median_ms([&] {
    for (int i = 0; i < 1000; ++i)
      fftw_execute(in_cache);
  });
  std::printf("\nin cache: 16 contiguous %d-point lines out of place %.1f GFlop/s; ", n,
              5.0 * n * std::log2(double(n)) * 16 * 1000 * 1e-6 / lines_16);
  const double plane_strided = median_ms([&] {
    for (int i = 0; i < 20; ++i)
      fftw_execute(in_cache_strided);
  });
  std::printf("one %dx%d plane at stride %d in place %.1f GFlop/s\n", n, n, n,
              20 * one_axis_mflop / n / plane_strided);
  return 0;
}
