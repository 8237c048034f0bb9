#include "axis_kinds.hpp"

#include <stdexcept>

namespace a2afft::detail::fft {

bool is_real_to_real(AxisKind axis) {
  return axis != AxisKind::dft && axis != AxisKind::r2c && axis != AxisKind::none;
}

fftw_r2r_kind fftw_kind(AxisKind axis, bool backward) {
  switch (axis) {
    case AxisKind::dct1:
      return FFTW_REDFT00;
    case AxisKind::dct2:
      return backward ? FFTW_REDFT01 : FFTW_REDFT10;
    case AxisKind::dct3:
      return backward ? FFTW_REDFT10 : FFTW_REDFT01;
    case AxisKind::dct4:
      return FFTW_REDFT11;
    case AxisKind::dst1:
      return FFTW_RODFT00;
    case AxisKind::dst2:
      return backward ? FFTW_RODFT01 : FFTW_RODFT10;
    case AxisKind::dst3:
      return backward ? FFTW_RODFT10 : FFTW_RODFT01;
    case AxisKind::dst4:
      return FFTW_RODFT11;
    default:
      throw std::logic_error("fftw_kind of an axis that is no r2r transform");
  }
}

std::size_t logical_size(AxisKind axis, std::size_t n) {
  switch (axis) {
    case AxisKind::none:
      return 1;
    case AxisKind::dft:
    case AxisKind::r2c:
      return n;
    case AxisKind::dct1:
      return 2 * (n - 1);
    case AxisKind::dst1:
      return 2 * (n + 1);
    default:
      return 2 * n;
  }
}

}  // namespace a2afft::detail::fft
