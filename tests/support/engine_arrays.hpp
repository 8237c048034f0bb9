#pragma once

// What the engines' own tests need of a plan beside the plan itself (issue 44: the engines hold
// no test harness): an array of the plan's own with forward() and backward() on it, a pencil
// plan's output in natural order and back, a six-step plan's output gathered in natural order,
// and the engines' boxes as the tools' public ones (for a2afft/tools' test signal and gather).

#include <mpi.h>

#include <a2afft/tools/fft_tools.hpp>

#include <complex>
#include <cstdint>
#include <vector>

#include "geometry.hpp"
#include "pencil3d.hpp"
#include "six_step1d.hpp"

namespace a2afft::detail::testing_support {

/// An engine's box (always row-major) as the tools' public one.
inline a2afft::Box3 public_box(const fft::BoxRange& box) {
  a2afft::Box3 result;
  result.lower = box.offset;
  result.size = box.extent;
  return result;
}

/// The tools' test signal and gather over an engine's box.
inline void fill_test_signal(Complex* local, const fft::BoxRange& box, const fft::Shape3& shape,
                             std::uint64_t salt = 0) {
  a2afft::fill_test_signal(local, public_box(box), shape, salt);
}
inline std::vector<Complex> gather_global(const Complex* local, const fft::BoxRange& box,
                                          const fft::Shape3& shape, MPI_Comm comm) {
  return a2afft::gather_global(local, public_box(box), shape, comm);
}

/// A plan (fft::BasicPencil3d or fft::BasicSixStep1d) with an array of its own for in-place
/// transforms, allocated (zeroed) on the first data(); forward() and backward() transform it:
/// the same calls as forward(data(), data()), the same bits.
template <typename Plan>
class WithArray : public Plan {
 public:
  using Complex = typename Plan::Complex;
  using Plan::backward;
  using Plan::forward;
  using Plan::Plan;

  Complex* data() {
    if (data_.empty()) data_.resize(elements());
    return data_.data();
  }
  void forward() { forward(data(), data()); }
  void backward() { backward(data(), data()); }

 private:
  std::size_t elements() const {
    if constexpr (requires(const Plan& plan) { plan.in_place_elements(); }) {
      return this->in_place_elements();
    } else {
      return this->local_scalars();
    }
  }
  std::vector<Complex> data_;
};
using TestPencil3d = WithArray<fft::Pencil3d>;
using TestSixStep1d = WithArray<fft::SixStep1d>;

/// Copies a pencil plan's forward output (output_box(), one field or a batch) from the plan's
/// output order into row-major order, or back (`to_natural` false).
template <typename Real>
void reorder_output(const fft::BasicPencil3d<Real>& plan, const void* from, void* to,
                    bool to_natural) {
  const fft::Shape3& extent = plan.output_box().extent;
  const std::size_t element_bytes =
      plan.batch() * (plan.real_data() ? sizeof(Real) : sizeof(std::complex<Real>));
  const auto* source = static_cast<const std::byte*>(from);
  auto* target = static_cast<std::byte*>(to);
  if (!plan.output_is_y_major()) {
    fft::copy_box(source, extent, {}, target, extent, {}, extent, element_bytes);
    return;
  }
  const fft::Shape3 stored{extent[1], extent[0], extent[2]};
  const fft::Shape3& from_shape = to_natural ? stored : extent;
  const fft::Shape3& to_shape = to_natural ? extent : stored;
  fft::copy_box_swapping_leading(source, from_shape, {}, target, to_shape, {}, from_shape,
                                 element_bytes);
}

/// `out`, a pencil plan's forward output, reordered row-major over its output_box().
template <typename Real>
std::vector<std::complex<Real>> natural_output(const fft::BasicPencil3d<Real>& plan,
                                               const std::complex<Real>* out) {
  std::vector<std::complex<Real>> natural(plan.output_scalars());
  reorder_output(plan, out, natural.data(), true);
  return natural;
}

/// `natural` (row-major over output_box()) written into `out` in the plan's output order.
template <typename Real>
void set_natural_output(const fft::BasicPencil3d<Real>& plan, const std::complex<Real>* natural,
                        std::complex<Real>* out) {
  reorder_output(plan, natural, out, false);
}

/// A six-step plan's whole output `out` (one field) in natural order on rank 0 (empty
/// elsewhere): every rank's block gathered in rank order, then each element moved to its
/// output_index(). Collective over `comm`, the plan's.
inline std::vector<Complex> gather_output(const fft::SixStep1d& plan, const Complex* out,
                                          MPI_Comm comm) {
  const std::size_t n = plan.length();
  const std::vector<Complex> blocks = gather_global(out, plan.input_box(), {1, 1, n}, comm);
  const fft::SixStepGeometry& geometry = plan.geometry();
  if (!geometry.scrambled_output() || blocks.empty()) return blocks;
  std::vector<Complex> natural(n);
  const std::size_t local = geometry.local_length();
  for (int owner = 0; owner < geometry.ranks(); ++owner) {
    for (std::size_t i = 0; i < local; ++i)
      natural[geometry.output_index(owner, i)] =
          blocks[static_cast<std::size_t>(owner) * local + i];
  }
  return natural;
}

}  // namespace a2afft::detail::testing_support
