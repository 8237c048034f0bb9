// The public 2D FFT (include/a2afft/fft2d.hpp): the 3D pencil plan of Fft3d on a 1 x n0 x n1
// array and a 1 x P grid, so slabs of rows, one transpose (the row transpose of the 1 x P grid)
// and no second one. Errors name Fft2d and the 2D shape; forward() and backward() are
// DistributedFft's.

#include <a2afft/fft2d.hpp>

#include <utility>

#include "fft_core.hpp"

namespace a2afft {

namespace {

constexpr const char* kWho = "Fft2d";

Box2 box2(const Box3& box) {
  // Dimension 0 of the 3D array has one point; the transposed output is row-major (p0 = 1).
  return {{box.lower[1], box.lower[2]}, {box.size[1], box.size[2]}, {0, 1}};
}

// The 3D options of the plan (make_pencil_core gives a 2D plan its 1 x P grid): its row
// transpose runs `exchange`.
Fft3dOptions three_d(const Fft2dOptions& options) {
  Fft3dOptions three;
  static_cast<PlanOptions&>(three) = options;
  three.output =
      options.output == Fft2dOutput::natural ? Fft3dOutput::natural : Fft3dOutput::transposed;
  return three;
}

}  // namespace

Fft2d::Fft2d(MPI_Comm comm, const std::array<std::size_t, 2>& shape, const Fft2dOptions& options)
    : DistributedFft(detail::make_pencil_core(
          comm, kWho, {1, shape[0], shape[1]},
          std::to_string(shape[0]) + "x" + std::to_string(shape[1]), three_d(options), true)),
      shape_(shape) {}

Fft2d::~Fft2d() = default;
Fft2d::Fft2d(Fft2d&&) noexcept = default;
Fft2d& Fft2d::operator=(Fft2d&&) noexcept = default;

std::array<std::size_t, 2> Fft2d::shape() const {
  return shape_;
}
std::array<std::size_t, 2> Fft2d::padded_shape() const {
  const std::vector<std::size_t> padded =
      a2afft::padded_shape(core().transform, {shape_[0], shape_[1]});
  return {padded[0], padded[1]};
}
Box2 Fft2d::input_box() const {
  return box2(core().engine->input_box());
}
Box2 Fft2d::output_box() const {
  return box2(core().engine->output_box());
}

}  // namespace a2afft
