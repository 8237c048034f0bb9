#pragma once

#include <cstddef>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace a2afft::detail {

/// memcpy for the runs a transpose packs and unpacks (and the blocks an exchange copies),
/// without glibc's `rep movsb` path. glibc 2.36 copies 2 KiB and more with `rep movsb` on CPUs
/// with ERMS/FSRM; on AMD Zen 3 and 4 that runs at about 5 GB/s instead of tens when source and
/// destination lie close together modulo 4 KiB, as the rows of a transpose of power-of-two sizes
/// do (fft3d 128^3 on 2 ranks spent about a third of its transpose time there;
/// GLIBC_TUNABLES=glibc.cpu.x86_rep_movsb_threshold=1000000000 showed the same gain). Explicit
/// 16-byte vector moves, 64 bytes a step, never take that path; the tail goes to memcpy.
inline void copy_bytes(std::byte* to, const std::byte* from, std::size_t bytes) {
#if defined(__SSE2__)
  std::size_t done = 0;
  for (; done + 64 <= bytes; done += 64) {
    const auto* source = reinterpret_cast<const __m128i*>(from + done);
    auto* target = reinterpret_cast<__m128i*>(to + done);
    const __m128i a = _mm_loadu_si128(source);
    const __m128i b = _mm_loadu_si128(source + 1);
    const __m128i c = _mm_loadu_si128(source + 2);
    const __m128i d = _mm_loadu_si128(source + 3);
    _mm_storeu_si128(target, a);
    _mm_storeu_si128(target + 1, b);
    _mm_storeu_si128(target + 2, c);
    _mm_storeu_si128(target + 3, d);
  }
  std::memcpy(to + done, from + done, bytes - done);
#else
  std::memcpy(to, from, bytes);
#endif
}

/// copy_bytes on `count` elements of type T.
template <typename T>
void copy_elements(T* to, const T* from, std::size_t count) {
  copy_bytes(reinterpret_cast<std::byte*>(to), reinterpret_cast<const std::byte*>(from),
             count * sizeof(T));
}

}  // namespace a2afft::detail
