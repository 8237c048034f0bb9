// Issue 35: would a transposing unpack pay for itself on a 3D plan with p0 > 1? Stage 2 of a
// 256^3 c2c double plan on 2 x 1 slabs, one rank's 128 y planes after the column exchange
// (recv: block s = [y local][x of s][z]), then the x FFTs (FFTW_MEASURE):
//   cur:     unpack the runs into a [x][z] plane (today's y-major stage 2), x lines at stride z;
//   trans:   unpack transposed into [z][x] (an output order {1, 2, 0}), x lines contiguous,
//            8 x 8 tiles element by element;
//   trans2:  the same with 2 x 2 complex blocks in AVX registers, T x T tiles (argv[2]);
//   scratch: transposed into a plane-sized scratch, contiguous FFTs, transposed back into
//            [x][z] (keeps today's output layout);
//   unpack / tunpack / tunpack2: the copies alone.
// Build and run: g++ -O2 -march=native -std=c++20 transposed_unpack.cpp -lfftw3 && ./a.out 256 4
// Results: local-fft-limits.md.
#include <fftw3.h>
#include <immintrin.h>
#include <sys/mman.h>
#include <algorithm>
#include <chrono>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
using C = std::complex<double>;
static C* alloc(size_t n) {
  size_t bytes = ((n * 16 + (2 << 20) - 1) / (2 << 20)) * (2 << 20);
  void* p = aligned_alloc(2 << 20, bytes);
  madvise(p, bytes, MADV_HUGEPAGE);
  memset(p, 0, bytes);
  return (C*)p;
}
int main(int argc, char** argv) {
  size_t n = argc > 1 ? atoi(argv[1]) : 256, P = 2, ny = n / P, nx = n, nz = n, xs = n / P;
  size_t plane = nx * nz, local = ny * plane;
  C *recv = alloc(local), *out = alloc(local), *scr = alloc(plane);
  for (size_t i = 0; i < local; ++i)
    recv[i] = C(i % 7, i % 13);
  // recv: block s = [y local][x of s][z]
  size_t block = local / P;
  fftw_iodim len{(int)nx, (int)nz, (int)nz}, many{(int)nz, 1, 1};
  fftw_plan strided = fftw_plan_guru_dft(1, &len, 1, &many, (fftw_complex*)out, (fftw_complex*)out,
                                         FFTW_FORWARD, FFTW_MEASURE);
  fftw_iodim len2{(int)nx, 1, 1}, many2{(int)nz, (int)nx, (int)nx};
  fftw_plan contig = fftw_plan_guru_dft(1, &len2, 1, &many2, (fftw_complex*)out, (fftw_complex*)out,
                                        FFTW_FORWARD, FFTW_MEASURE);
  for (size_t i = 0; i < local; ++i)
    recv[i] = C(i % 7, i % 13);
  auto cur = [&] {
    for (size_t y = 0; y < ny; ++y) {
      C* p = out + y * plane;
      for (size_t s = 0; s < P; ++s)
        memcpy(p + s * xs * nz, recv + s * block + y * xs * nz, xs * nz * 16);
      fftw_execute_dft(strided, (fftw_complex*)p, (fftw_complex*)p);
    }
  };
  auto tunpack = [&](C* p, size_t y) {  // [x of s][z] -> [z][x], tiles 8x8
    for (size_t s = 0; s < P; ++s) {
      const C* b = recv + s * block + y * xs * nz;
      for (size_t x0 = 0; x0 < xs; x0 += 8)
        for (size_t z0 = 0; z0 < nz; z0 += 8)
          for (size_t x = x0; x < x0 + 8; ++x)
            for (size_t z = z0; z < z0 + 8; ++z)
              p[z * nx + s * xs + x] = b[x * nz + z];
    }
  };
  // 2x2 complex blocks in AVX registers, tiles T x T
  size_t T = argc > 2 ? atoi(argv[2]) : 16;
  auto tunpack2 = [&](C* p, size_t y) {
    for (size_t s = 0; s < P; ++s) {
      const double* b = (const double*)(recv + s * block + y * xs * nz);
      double* q = (double*)(p + s * xs);
      for (size_t x0 = 0; x0 < xs; x0 += T)
        for (size_t z0 = 0; z0 < nz; z0 += T)
          for (size_t x = x0; x < x0 + T; x += 2)
            for (size_t z = z0; z < z0 + T; z += 2) {
              __m256d a = _mm256_load_pd(b + 2 * (x * nz + z));
              __m256d c = _mm256_load_pd(b + 2 * ((x + 1) * nz + z));
              _mm256_store_pd(q + 2 * (z * nx + x), _mm256_permute2f128_pd(a, c, 0x20));
              _mm256_store_pd(q + 2 * ((z + 1) * nx + x), _mm256_permute2f128_pd(a, c, 0x31));
            }
    }
  };
  auto trans2 = [&] {
    for (size_t y = 0; y < ny; ++y) {
      C* p = out + y * plane;
      tunpack2(p, y);
      fftw_execute_dft(contig, (fftw_complex*)p, (fftw_complex*)p);
    }
  };
  auto tunpack2_only = [&] {
    for (size_t y = 0; y < ny; ++y)
      tunpack2(out + y * plane, y);
  };
  auto trans = [&] {
    for (size_t y = 0; y < ny; ++y) {
      C* p = out + y * plane;
      tunpack(p, y);
      fftw_execute_dft(contig, (fftw_complex*)p, (fftw_complex*)p);
    }
  };
  auto scratch = [&] {
    for (size_t y = 0; y < ny; ++y) {
      tunpack(scr, y);
      fftw_execute_dft(contig, (fftw_complex*)scr, (fftw_complex*)scr);
      C* p = out + y * plane;
      for (size_t z0 = 0; z0 < nz; z0 += 8)
        for (size_t x0 = 0; x0 < nx; x0 += 8)
          for (size_t z = z0; z < z0 + 8; ++z)
            for (size_t x = x0; x < x0 + 8; ++x)
              p[x * nz + z] = scr[z * nx + x];
    }
  };
  auto unpack_only = [&] {
    for (size_t y = 0; y < ny; ++y) {
      C* p = out + y * plane;
      for (size_t s = 0; s < P; ++s)
        memcpy(p + s * xs * nz, recv + s * block + y * xs * nz, xs * nz * 16);
    }
  };
  auto tunpack_only = [&] {
    for (size_t y = 0; y < ny; ++y)
      tunpack(out + y * plane, y);
  };
  auto time = [&](auto&& fn) {
    std::vector<double> v;
    for (int k = 0; k < 9; ++k) {
      auto t0 = std::chrono::steady_clock::now();
      fn();
      v.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  // check scratch == cur
  cur();
  std::vector<C> a(out, out + local);
  scratch();
  double err = 0;
  for (size_t i = 0; i < local; ++i)
    err = std::max(err, std::abs(a[i] - out[i]));
  printf("scratch vs cur max diff %.3g\n", err);
  trans();
  std::vector<C> t1(out, out + local);
  trans2();
  err = 0;
  for (size_t i = 0; i < local; ++i)
    err = std::max(err, std::abs(t1[i] - out[i]));
  printf("trans2 vs trans max diff %.3g\n", err);
  for (int r = 0; r < 3; ++r)
    printf("T=%zu trans2 %.2f tunpack2 %.2f\n", T, time(trans2), time(tunpack2_only));
  for (int r = 0; r < 2; ++r)
    printf("n=%zu cur %.2f trans %.2f scratch %.2f | unpack %.2f tunpack %.2f ms\n", n, time(cur),
           time(trans), time(scratch), time(unpack_only), time(tunpack_only));
}
