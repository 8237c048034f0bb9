#pragma once

#include <complex>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

// The 1D six-step FFT's sizes and twiddles. Pure, no MPI, unit-tested.
namespace a2afft::fft {

/// Parses a 1D length: `1048576`, `2^20`, or a product such as `2^4*3^2*5`. Throws UsageError
/// (naming `option`) for zero, garbled or overflowing (> 2^40) lengths.
std::size_t parse_length(std::string_view text, std::string_view option = "--n");

/// N = N1 * N2 with `ranks` dividing both, as the six-step FFT needs.
struct SixStepSplit {
  std::size_t n1;
  std::size_t n2;
};
/// N1 nearest sqrt(N) (the larger on a tie) among the valid ones; `n1` = 0 chooses, any other
/// value is checked. Throws UsageError naming N, P and valid alternatives (the nearest valid
/// N, or the valid N1) when there is none.
SixStepSplit choose_six_step_split(std::size_t n, int ranks, std::size_t n1 = 0);

/// exp(sign * 2 pi i * m / n), accurate to about one ulp for any m < n (the angle is reduced to
/// the first octant exactly in integers, then sin and cos are taken in long double), so a
/// table of N entries loses no digits at N = 2^30 the way a recurrence would.
std::complex<double> unit_root(std::size_t m, std::size_t n, int sign);

/// a * b, or a * conj(b). Written out because std::complex's operator* checks for NaN and
/// infinities (C99 Annex G), a library call per element in the twiddle loops.
inline std::complex<double> multiply(const std::complex<double>& a, const std::complex<double>& b,
                                     bool conjugate = false) {
  const double br = b.real();
  const double bi = conjugate ? -b.imag() : b.imag();
  return {a.real() * br - a.imag() * bi, a.real() * bi + a.imag() * br};
}

/// W_N^m = exp(-2 pi i m / N) for any m < N from two small tables of exact roots: the low
/// bits of m index W_N^(m mod L), the high bits W_N^(L floor(m / L)), with L a power of two
/// near sqrt(N). Their product is within a few ulp, and the tables (2 sqrt(N) entries) stay in
/// cache where a full table of N/P entries would be one more stream through memory.
class TwiddleTable {
 public:
  explicit TwiddleTable(std::size_t n);
  std::complex<double> operator()(std::size_t m) const {
    return multiply(high_[m >> low_bits_], low_[m & low_mask_]);
  }

 private:
  unsigned low_bits_ = 0;
  std::size_t low_mask_ = 0;
  std::vector<std::complex<double>> low_;
  std::vector<std::complex<double>> high_;
};

}  // namespace a2afft::fft
