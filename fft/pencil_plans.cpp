#include "pencil_plans.hpp"

#include <algorithm>
#include <iterator>
#include <memory>

namespace a2afft::detail::fft {
namespace {

// The plan loops of `loops` (in points) over interleaved fields: strides scaled by `batch`.
// `real_side` maps a complex stride of stage 0 (row-major, n2c points per line) to the real
// array's (n2 per line), for the input of r2c and the output of c2r; its line has n2 points.
struct RealSide {
  std::size_t complex_line;  // n2/2+1
  std::size_t real_line;     // n2
  std::ptrdiff_t stride(std::size_t complex_stride) const {
    return static_cast<std::ptrdiff_t>(
        complex_stride == 1 ? 1 : complex_stride / complex_line * real_line);
  }
};

std::vector<Stride> strides(const std::vector<Loop>& loops, std::size_t batch, const RealSide* real,
                            bool real_is_input) {
  std::vector<Stride> result;
  const auto b = static_cast<std::ptrdiff_t>(batch);
  for (const Loop& loop : loops) {
    const auto stride = static_cast<std::ptrdiff_t>(loop.stride) * b;
    auto count = static_cast<std::ptrdiff_t>(loop.count);
    if (real == nullptr) {
      result.push_back({count, stride});
      continue;
    }
    const std::ptrdiff_t real_stride = real->stride(loop.stride) * b;
    // The line along z counts the real points; FFTW works out the n/2+1 complex ones.
    if (loop.stride == 1 && count == static_cast<std::ptrdiff_t>(real->complex_line)) {
      count = static_cast<std::ptrdiff_t>(real->real_line);
    }
    result.push_back(real_is_input ? Stride{count, real_stride, stride}
                                   : Stride{count, stride, real_stride});
  }
  return result;
}

// The interleaved fields, as FFTW's innermost howmany loop.
std::vector<Stride> with_fields(std::vector<Stride> batches, std::size_t batch) {
  if (batch > 1) batches.push_back({static_cast<std::ptrdiff_t>(batch), 1, 1});
  return batches;
}

// The loops of complex data seen as reals (an r2r transform of the real and the imaginary
// parts): every stride doubles.
std::vector<Stride> as_reals(std::vector<Stride> loops) {
  for (Stride& loop : loops) {
    loop.stride *= 2;
    if (loop.output_stride != Stride::kSameAsInput) loop.output_stride *= 2;
  }
  return loops;
}

}  // namespace

template <typename Real>
bool PencilPlaneFfts<Real>::transforms(std::size_t stage) const {
  const std::vector<int>& axes = setup_.geometry->stage(stage).axes;
  return std::any_of(axes.begin(), axes.end(), [&](int axis) {
    return setup_.axes[static_cast<std::size_t>(axis)] != AxisKind::none;
  });
}

template <typename Real>
const std::vector<PlaneFft<Real>>& PencilPlaneFfts<Real>::plans(std::size_t stage,
                                                                Direction direction, bool aligned) {
  const auto key = std::make_pair(direction, stage);
  if (!plans_.count(key)) plans_[key] = plan_stage(stage, direction, aligned);
  return plans_[key];
}

template <typename Real>
std::vector<PlaneFft<Real>> PencilPlaneFfts<Real>::plan_stage(std::size_t index,
                                                              Direction direction, bool aligned) {
  const PencilStage& stage = setup_.geometry->stage(index);
  const bool forward = direction == Direction::forward;
  std::vector<Loop> dft_axes, dft_loops = stage.batches, r2r_axes, r2r_loops = stage.batches;
  std::vector<fftw_r2r_kind> kinds;
  bool r2c = false;
  for (std::size_t i = 0; i < stage.transform.size(); ++i) {
    const AxisKind axis = setup_.axes[static_cast<std::size_t>(stage.axes[i])];
    const Loop& loop = stage.transform[i];
    const bool dft_family = axis == AxisKind::dft || axis == AxisKind::r2c;
    r2c = r2c || axis == AxisKind::r2c;
    (dft_family ? dft_axes : dft_loops).push_back(loop);
    (is_real_to_real(axis) ? r2r_axes : r2r_loops).push_back(loop);
    if (is_real_to_real(axis)) kinds.push_back(fftw_kind(axis, !forward));
  }
  std::vector<PlaneFft<Real>> plans;
  const auto plan_dft = [&] {
    if (!dft_axes.empty()) plan_dft_family(plans, dft_axes, dft_loops, r2c, direction, aligned);
  };
  const auto plan_r2r_axes = [&] {
    if (!r2r_axes.empty()) plan_r2r(plans, r2r_axes, r2r_loops, kinds, direction, aligned);
  };
  if (forward) {
    plan_dft();
    plan_r2r_axes();
  } else {
    plan_r2r_axes();
    plan_dft();
  }
  return plans;
}

// One guru r2r plan over the cosine and sine axes, in place on the work array. On complex data
// it transforms the real and the imaginary parts apart: strides doubled, one more loop of 2.
template <typename Real>
void PencilPlaneFfts<Real>::plan_r2r(std::vector<PlaneFft<Real>>& plans,
                                     const std::vector<Loop>& axes, const std::vector<Loop>& loops,
                                     const std::vector<fftw_r2r_kind>& kinds, Direction direction,
                                     bool aligned) {
  const bool forward = direction == Direction::forward;
  const std::size_t batch = setup_.batch;
  std::vector<Stride> transform = strides(axes, batch, nullptr, forward);
  std::vector<Stride> plan_loops = with_fields(strides(loops, batch, nullptr, forward), batch);
  if (!setup_.real_data) {
    transform = as_reals(transform);
    plan_loops = as_reals(plan_loops);
    plan_loops.push_back({2, 1, 1});
  }
  auto* data = reinterpret_cast<Real*>(setup_.work);
  plans.emplace_back(
      FftwPlan<Real>(transform, kinds, plan_loops, data, data, setup_.rigor, aligned));
}

// The dft family's plans of one plane: one FFTW plan over `axes`, except that under ESTIMATE a
// line strided across the plane (y in the 2D planes of slabs, y of stage 1, x of stage 2) goes
// apart into GatheredColumns: ESTIMATE's own plan of it ran 8x slower than MEASURE's at 256
// points (plane_fft.hpp). The rest (the contiguous z lines, r2c or c2r among them) stays one
// plan, which ESTIMATE plans within 1.2x of MEASURE (15.0 against 12.4 ms on the z lines of 128
// planes of 256 x 256). Forward runs that plan first, so the r2c makes the complex plane;
// backward last, so the c2r ends in the real plane. MEASURE and PATIENT keep one plan over all
// the axes: their own buffered plans measured as fast as the chunks or faster.
template <typename Real>
void PencilPlaneFfts<Real>::plan_dft_family(std::vector<PlaneFft<Real>>& plans,
                                            std::vector<Loop> axes, std::vector<Loop> loops,
                                            bool r2c, Direction direction, bool aligned) {
  const bool forward = direction == Direction::forward;
  // The columns: the plane's unit-stride loop, every field of each point.
  std::size_t columns = 0;
  for (const std::vector<Loop>* list : {&axes, &loops}) {
    for (const Loop& loop : *list) {
      if (loop.stride == 1) columns = loop.count * setup_.batch;
    }
  }
  std::vector<Loop> across;  // at most one: a plane has a single strided loop
  if (setup_.rigor == Rigor::estimate && columns > 0) {
    const auto strided = [](const Loop& loop) { return loop.stride != 1 && loop.count > 1; };
    std::copy_if(axes.begin(), axes.end(), std::back_inserter(across), strided);
    axes.erase(std::remove_if(axes.begin(), axes.end(), strided), axes.end());
    loops.insert(loops.end(), across.begin(), across.end());
  }
  const auto plan_across = [&] {
    if (across.empty()) return;
    const Stride line = strides(across, setup_.batch, nullptr, forward).front();
    plans.emplace_back(std::make_unique<GatheredColumns<Real>>(line, columns, direction,
                                                               setup_.rigor, setup_.threads));
  };
  if (forward) {
    if (!axes.empty()) plan_dft_along(plans, axes, loops, r2c, direction, aligned);
    plan_across();
  } else {
    plan_across();
    if (!axes.empty()) plan_dft_along(plans, axes, loops, r2c, direction, aligned);
  }
}

// The dft family's plan along the plane's axes (all of them but under ESTIMATE): c2c in place on
// the work array, or the r2c from the real plane into it, or the c2r from it into the real plane.
template <typename Real>
void PencilPlaneFfts<Real>::plan_dft_along(std::vector<PlaneFft<Real>>& plans,
                                           const std::vector<Loop>& axes,
                                           const std::vector<Loop>& loops, bool r2c,
                                           Direction direction, bool aligned) {
  const bool forward = direction == Direction::forward;
  const std::size_t batch = setup_.batch;
  const RealSide real_side{setup_.geometry->physical_shape()[2], setup_.physical[2]};
  const RealSide* side = r2c ? &real_side : nullptr;
  const std::vector<Stride> transform = strides(axes, batch, side, forward);
  const std::vector<Stride> plan_loops = with_fields(strides(loops, batch, side, forward), batch);
  const Rigor rigor = setup_.rigor;
  std::complex<Real>* work = setup_.work;
  if (!r2c) {
    plans.emplace_back(
        FftwPlan<Real>(transform, plan_loops, work, work, direction, rigor, aligned));
  } else if (forward) {
    plans.emplace_back(
        FftwPlan<Real>(transform, plan_loops, setup_.real_plane, work, rigor, aligned));
  } else {
    plans.emplace_back(
        FftwPlan<Real>(transform, plan_loops, work, setup_.real_plane, rigor, aligned));
  }
}

template class PencilPlaneFfts<double>;
template class PencilPlaneFfts<float>;

}  // namespace a2afft::detail::fft
