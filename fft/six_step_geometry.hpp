#pragma once

#include <complex>
#include <cstddef>
#include <string>
#include <string_view>

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

}  // namespace a2afft::fft
