#include "fft_candidate.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iostream>
#include <new>

#include <a2afft/buffer.hpp>
#include <a2afft/error.hpp>
#include <a2afft/tools/fft_tools.hpp>

#include "commands.hpp"

namespace a2afft::commands {

std::array<std::size_t, 3> BenchmarkTransform::output_shape(
    const std::array<std::size_t, 3>& shape) const {
  return {shape[0], shape[1], kind == Kind::r2c ? shape[2] / 2 + 1 : shape[2]};
}

namespace {

// The sizes `axes` (or the padding) name: all three, the last two of a 2D plan's 1 x n0 x n1,
// or (without either, a 1D plan) the points.
std::vector<std::size_t> sizes_of(const a2afft::Transform& transform,
                                  const std::array<std::size_t, 3>& shape) {
  const std::size_t axes = std::max(transform.axes.size(), transform.padding.size());
  if (axes == 3) return {shape[0], shape[1], shape[2]};
  if (axes == 2) return {shape[1], shape[2]};
  return {shape[0] * shape[1] * shape[2]};
}

}  // namespace

double BenchmarkTransform::flops(const std::array<std::size_t, 3>& shape) const {
  return fft_flops(*this, sizes_of(*this, shape));
}

std::array<std::size_t, 3> BenchmarkTransform::padded_shape(
    const std::array<std::size_t, 3>& shape) const {
  if (!padded()) return shape;
  const std::vector<std::size_t> padded = a2afft::padded_shape(*this, sizes_of(*this, shape));
  return padded.size() == 3 ? std::array<std::size_t, 3>{padded[0], padded[1], padded[2]}
                            : std::array<std::size_t, 3>{1, padded[0], padded[1]};
}

double BenchmarkTransform::round_trip_factor(const std::array<std::size_t, 3>& shape) const {
  const std::vector<std::size_t> sizes = sizes_of(*this, padded_shape(shape));
  double factor = 1;
  for (std::size_t d = 0; d < sizes.size(); ++d)
    factor *= static_cast<double>(d < axes.size() ? logical_size(axes[d], sizes[d]) : sizes[d]);
  return factor;
}

namespace {

// f(real) with `real` a value of the transform's precision: the typed bodies below, once.
template <typename F>
decltype(auto) with_real(const BenchmarkTransform& transform, F&& f) {
  if (transform.precision == Precision::single_precision) return f(float{});
  return f(double{});
}

std::size_t slot_of(std::size_t point, const InputRows& rows) {
  return point / rows.row * rows.padded_row + point % rows.row;
}

// `plan` (Fft3d, Fft2d or Fft1d) in `direction` on `array`, in place, through the type-erased
// execute(), so one call serves every kind and precision.
template <typename Plan>
void execute_in_place(Plan& plan, Direction direction, const Buffer& array) {
  plan.execute(direction, array.data(), array.size(), array.data(), array.size());
}

}  // namespace

Arrays parse_arrays(const std::string& text) {
  if (text == "huge-pages") return Arrays::huge_pages;
  if (text == "plain") return Arrays::plain;
  throw UsageError("--arrays=" + text + " is not valid; expected huge-pages or plain");
}

Buffer candidate_array(std::size_t bytes, Arrays arrays) {
  bytes = std::max<std::size_t>(bytes, 64);
  Buffer buffer;
  if (arrays == Arrays::huge_pages) {
    buffer = a2afft::allocate(bytes);
  } else {
    constexpr std::align_val_t kAlignment{64};
    auto* data = static_cast<std::byte*>(::operator new(bytes, kAlignment));
    buffer = Buffer(
        std::shared_ptr<void>(data, [](void* memory) { ::operator delete(memory, kAlignment); }),
        data, bytes);
  }
  std::memset(buffer.data(), 0, bytes);
  return buffer;
}

void store_fields(const BenchmarkTransform& transform, const std::vector<Complex>& input,
                  const InputRows& rows, void* array) {
  with_real(transform, [&](auto real) {
    using Real = decltype(real);
    const std::size_t batch = transform.batch;
    for (std::size_t point = 0; point < input.size(); ++point) {
      const std::size_t at = slot_of(point, rows) * batch;
      for (std::size_t f = 0; f < batch; ++f) {
        const Complex value = input[point] * static_cast<double>(f + 1);
        if (transform.real_input()) {
          static_cast<Real*>(array)[at + f] = static_cast<Real>(value.real());
        } else {
          static_cast<std::complex<Real>*>(array)[at + f] = std::complex<Real>(value);
        }
      }
    }
  });
}

RoundTrip compare_fields(const BenchmarkTransform& transform, const std::vector<Complex>& input,
                         const InputRows& rows, const void* array, double points) {
  return with_real(transform, [&](auto real) {
    using Real = decltype(real);
    RoundTrip result;
    const std::size_t batch = transform.batch;
    for (std::size_t point = 0; point < input.size(); ++point) {
      const std::size_t at = slot_of(point, rows) * batch;
      for (std::size_t f = 0; f < batch; ++f) {
        Complex want = input[point] * static_cast<double>(f + 1);
        Complex got;
        if (transform.real_input()) {
          want = want.real();
          got = static_cast<const Real*>(array)[at + f];
        } else {
          got = Complex(static_cast<const std::complex<Real>*>(array)[at + f]);
        }
        result.worst = std::max(result.worst, std::abs(got / points - want));
        result.scale = std::max(result.scale, std::abs(want));
      }
    }
    return result;
  });
}

std::vector<Complex> field_zero(const BenchmarkTransform& transform, const void* array,
                                std::size_t points) {
  return with_real(transform, [&](auto real) {
    using Real = decltype(real);
    std::vector<Complex> values(points);
    const auto* complex = static_cast<const std::complex<Real>*>(array);
    const auto* reals = static_cast<const Real*>(array);
    for (std::size_t point = 0; point < points; ++point) {
      const std::size_t at = point * transform.batch;
      values[point] = transform.real_output() ? Complex(reals[at]) : Complex(complex[at]);
    }
    return values;
  });
}

Fft3dCandidate::Fft3dCandidate(MPI_Comm comm, const std::array<std::size_t, 3>& shape,
                               const Fft3dOptions& options, Arrays arrays)
    : FftCandidate("a2afft",
                   {options.kind, options.precision, options.batch, options.axes, options.padding}),
      comm_(comm),
      fft_(comm, shape, options),
      array_(candidate_array(fft_.in_place_bytes(), arrays)) {}

void Fft3dCandidate::load(const std::vector<Complex>& input) {
  store_fields(transform(), input, {fft_.input_box().size[2], fft_.input_box().size[2]},
               array_.data());
}

void Fft3dCandidate::forward() {
  execute_in_place(fft_, Direction::forward, array_);
}

void Fft3dCandidate::backward() {
  execute_in_place(fft_, Direction::backward, array_);
}

std::vector<Complex> Fft3dCandidate::gather_output() const {
  const Box3 box = fft_.output_box();
  const std::vector<Complex> values = field_zero(transform(), array_.data(), box.elements());
  return gather_global(values.data(), box, transform().output_shape(fft_.shape()), comm_);
}

RoundTrip Fft3dCandidate::round_trip(const std::vector<Complex>& input, double points) const {
  const std::size_t row = fft_.input_box().size[2];
  return compare_fields(transform(), input, {row, row}, array_.data(), points);
}

namespace {

Box3 as_box3(const Box2& box) {
  Box3 three;
  three.lower = {0, box.lower[0], box.lower[1]};
  three.size = {1, box.size[0], box.size[1]};
  three.order = {0, box.order[0] + 1, box.order[1] + 1};
  return three;
}

}  // namespace

Fft2dCandidate::Fft2dCandidate(MPI_Comm comm, const std::array<std::size_t, 2>& shape,
                               const Fft2dOptions& options, Arrays arrays)
    : FftCandidate("a2afft",
                   {options.kind, options.precision, options.batch, options.axes, options.padding}),
      comm_(comm),
      fft_(comm, shape, options),
      array_(candidate_array(fft_.in_place_bytes(), arrays)) {}

Box3 Fft2dCandidate::input_box() const {
  return as_box3(fft_.input_box());
}

void Fft2dCandidate::load(const std::vector<Complex>& input) {
  const std::size_t row = fft_.input_box().size[1];
  store_fields(transform(), input, {row, row}, array_.data());
}

void Fft2dCandidate::forward() {
  execute_in_place(fft_, Direction::forward, array_);
}

void Fft2dCandidate::backward() {
  execute_in_place(fft_, Direction::backward, array_);
}

std::vector<Complex> Fft2dCandidate::gather_output() const {
  const Box2 box = fft_.output_box();
  const std::vector<Complex> values = field_zero(transform(), array_.data(), box.elements());
  const std::array<std::size_t, 2> shape = fft_.shape();
  return gather_global(values.data(), as_box3(box),
                       transform().output_shape({1, shape[0], shape[1]}), comm_);
}

RoundTrip Fft2dCandidate::round_trip(const std::vector<Complex>& input, double points) const {
  const std::size_t row = fft_.input_box().size[1];
  return compare_fields(transform(), input, {row, row}, array_.data(), points);
}

Fft1dCandidate::Fft1dCandidate(MPI_Comm comm, std::size_t n, const Fft1dOptions& options,
                               Arrays arrays)
    : FftCandidate("a2afft", {Kind::c2c, options.precision, options.batch}),
      comm_(comm),
      fft_(comm, n, options),
      array_(candidate_array(fft_.local_bytes(), arrays)) {}

Box3 Fft1dCandidate::input_box() const {
  return {{0, 0, fft_.input_offset()}, {1, 1, fft_.local_points()}};
}

void Fft1dCandidate::load(const std::vector<Complex>& input) {
  store_fields(transform(), input, {input.size(), input.size()}, array_.data());
}

void Fft1dCandidate::forward() {
  execute_in_place(fft_, Direction::forward, array_);
}

void Fft1dCandidate::backward() {
  execute_in_place(fft_, Direction::backward, array_);
}

RoundTrip Fft1dCandidate::round_trip(const std::vector<Complex>& input, double points) const {
  return compare_fields(transform(), input, {input.size(), input.size()}, array_.data(), points);
}

std::vector<Complex> Fft1dCandidate::gather_output() const {
  // The output as each rank holds it, gathered by rank, with the index of every element beside
  // it (exact as a double below 2^53), then put in natural order on rank 0.
  const std::array<std::size_t, 3> whole{1, 1, fft_.length()};
  const std::size_t points = fft_.local_points();
  std::vector<Complex> indices(points);
  for (std::size_t i = 0; i < points; ++i) {
    indices[i] = static_cast<double>(fft_.output_index(i));
  }
  const std::vector<Complex> mine = field_zero(transform(), array_.data(), points);
  const std::vector<Complex> values = gather_global(mine.data(), input_box(), whole, comm_);
  const std::vector<Complex> where = gather_global(indices.data(), input_box(), whole, comm_);
  std::vector<Complex> natural(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    natural[static_cast<std::size_t>(where[i].real())] = values[i];
  }
  return natural;
}

CandidateMaker skipping_refusal_if(bool skip, std::string spec, MakeCandidate make,
                                   std::string consequence) {
  auto skipping = [skip, make = std::move(make),
                   consequence = std::move(consequence)]() -> std::unique_ptr<FftCandidate> {
    try {
      return make();
    } catch (const UsageError& error) {
      if (!skip) throw;
      if (is_printing_rank()) std::cout << "# not run: " << error.what() << consequence << '\n';
      return nullptr;
    }
  };
  return {std::move(spec), std::move(skipping)};
}

std::unique_ptr<FftCandidate> DistinctCandidates::make(const CandidateMaker& maker) {
  std::unique_ptr<FftCandidate> candidate = maker.make();
  if (!candidate) return nullptr;
  const std::string describe = candidate->describe();
  const auto same = std::find_if(made_.begin(), made_.end(), [&](const Made& made) {
    return made.engine == candidate->engine() && made.describe == describe;
  });
  if (same != made_.end()) {
    same->repeats.push_back(maker.spec);
    return nullptr;
  }
  made_.push_back({candidate->engine(), describe, maker.spec, {}});
  return candidate;
}

void DistinctCandidates::print_notes(std::ostream& out) const {
  for (const Made& made : made_) {
    if (made.repeats.empty()) continue;
    std::string specs;
    for (const std::string& spec : made.repeats)
      specs += (specs.empty() ? "" : ", ") + spec;
    out << "# not run: " << specs << ": same plan as " << made.spec << " (" << made.describe
        << ")\n";
  }
}

}  // namespace a2afft::commands
