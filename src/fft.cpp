// The free functions of include/a2afft/fft.hpp.

#include <a2afft/fft.hpp>

#include <cmath>

namespace a2afft {

double fft_flops(Kind kind, double points, std::size_t batch) {
  return (kind == Kind::r2c ? 2.5 : 5.0) * points * std::log2(points) * static_cast<double>(batch);
}

}  // namespace a2afft
