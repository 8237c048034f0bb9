// The public 2D FFT (include/a2afft/fft2d.hpp): the 3D pencil plan of Fft3d on a 1 x n0 x n1
// array and a 1 x P grid, so slabs of rows, one transpose (the row transpose of the 1 x P grid)
// and no second one. Its own checks come first, so errors name Fft2d and the 2D shape.

#include <a2afft/fft2d.hpp>
#include <a2afft/fft3d.hpp>

#include <utility>

#include "collective_checks.hpp"
#include "error.hpp"

namespace a2afft {

namespace {

constexpr const char* kWho = "Fft2d";

Box2 box2(const Box3& box) {
  // Dimension 0 of the 3D array has one point; the transposed output is row-major (p0 = 1).
  return {{box.lower[1], box.lower[2]}, {box.size[1], box.size[2]}, {0, 1}};
}

}  // namespace

struct Fft2d::Plan {
  Fft3d fft;
  std::array<std::size_t, 2> shape;
};

Fft2d::Fft2d(MPI_Comm comm, const std::array<std::size_t, 2>& shape, const Fft2dOptions& options) {
  detail::library::check_communicator(comm, kWho);
  detail::library::check_same_on_every_rank(
      {{"shape", std::to_string(shape[0]) + "x" + std::to_string(shape[1])},
       {"exchange", options.exchange}},
      kWho, comm);
  if (shape[0] == 0 || shape[1] == 0) {
    throw UsageError(std::string(kWho) + ": shape " + std::to_string(shape[0]) + "x" +
                     std::to_string(shape[1]) + " is not valid; every size must be at least 1");
  }
  int ranks = 0;
  MPI_Comm_size(comm, &ranks);
  Fft3dOptions three;
  three.grid = {1, ranks};
  three.row_exchange = options.exchange;
  three.column_exchange = options.exchange;  // names checked; no column transpose runs
  three.rigor = options.rigor;
  three.output =
      options.output == Fft2dOutput::natural ? Fft3dOutput::natural : Fft3dOutput::transposed;
  three.wisdom_file = options.wisdom_file;
  three.scaling = options.scaling;
  three.layout = options.layout;
  three.kind = options.kind;
  three.precision = options.precision;
  three.batch = options.batch;
  plan_ = std::make_unique<Plan>(Plan{Fft3d(comm, {1, shape[0], shape[1]}, three), shape});
}

Fft2d::~Fft2d() = default;
Fft2d::Fft2d(Fft2d&&) noexcept = default;
Fft2d& Fft2d::operator=(Fft2d&&) noexcept = default;

std::array<std::size_t, 2> Fft2d::shape() const {
  return plan_->shape;
}
Kind Fft2d::kind() const {
  return plan_->fft.kind();
}
Precision Fft2d::precision() const {
  return plan_->fft.precision();
}
std::size_t Fft2d::batch() const {
  return plan_->fft.batch();
}
Box2 Fft2d::input_box() const {
  return box2(plan_->fft.input_box());
}
Box2 Fft2d::output_box() const {
  return box2(plan_->fft.output_box());
}
std::size_t Fft2d::input_elements() const {
  return plan_->fft.input_elements();
}
std::size_t Fft2d::output_elements() const {
  return plan_->fft.output_elements();
}
std::size_t Fft2d::in_place_elements() const {
  return plan_->fft.in_place_elements();
}
std::size_t Fft2d::input_bytes() const {
  return plan_->fft.input_bytes();
}
std::size_t Fft2d::output_bytes() const {
  return plan_->fft.output_bytes();
}
std::size_t Fft2d::in_place_bytes() const {
  return plan_->fft.in_place_bytes();
}

void Fft2d::forward(const Complex* in, Complex* out) {
  plan_->fft.forward(in, out);
}
void Fft2d::backward(const Complex* in, Complex* out) {
  plan_->fft.backward(in, out);
}
void Fft2d::forward(const ComplexFloat* in, ComplexFloat* out) {
  plan_->fft.forward(in, out);
}
void Fft2d::backward(const ComplexFloat* in, ComplexFloat* out) {
  plan_->fft.backward(in, out);
}
void Fft2d::forward(const double* in, Complex* out) {
  plan_->fft.forward(in, out);
}
void Fft2d::backward(const Complex* in, double* out) {
  plan_->fft.backward(in, out);
}
void Fft2d::forward(const float* in, ComplexFloat* out) {
  plan_->fft.forward(in, out);
}
void Fft2d::backward(const ComplexFloat* in, float* out) {
  plan_->fft.backward(in, out);
}
void Fft2d::forward(std::nullptr_t, std::nullptr_t) {
  plan_->fft.forward(nullptr, nullptr);
}
void Fft2d::backward(std::nullptr_t, std::nullptr_t) {
  plan_->fft.backward(nullptr, nullptr);
}
void Fft2d::execute(Direction direction, const void* in, std::size_t in_bytes, void* out,
                    std::size_t out_bytes) {
  plan_->fft.execute(direction, in, in_bytes, out, out_bytes);
}

std::size_t Fft2d::workspace_bytes() const {
  return plan_->fft.workspace_bytes();
}

TransformTraffic Fft2d::traffic(Direction direction) const {
  return plan_->fft.traffic(direction);
}

std::string Fft2d::describe() const {
  // `row=<exchange>,column=-`: the row transpose is the only one.
  const std::string both = plan_->fft.describe();
  const std::size_t column = both.rfind(",column=");
  return both.substr(4, column - 4);
}

FftTimes Fft2d::last_times() const {
  return plan_->fft.last_times();
}

}  // namespace a2afft
