#include "pencil_program.hpp"

#include <stdexcept>
#include <utility>

namespace a2afft::detail::fft {
namespace {

constexpr ProgramArray kInput = ProgramArray::input;
constexpr ProgramArray kOutput = ProgramArray::output;
constexpr ProgramArray kWork = ProgramArray::work;

// A stage's planes in bytes: where they lie in the work array (on the padded side), their runs
// (for copies and scaling), and what one plane holds on each side. All 0 on a rank whose stage
// holds nothing: its sweeps walk no planes (every copy of such a plane would be empty).
struct PlaneShape {
  std::size_t planes = 0;
  std::size_t plane_bytes = 0;
  std::size_t runs = 0;
  std::size_t run_stride = 0;
  std::size_t run_bytes = 0;
  std::size_t physical_bytes = 0;
  std::size_t modes_bytes = 0;
};

PlaneShape plane_shape(const PencilProgramSetup& setup, std::size_t index) {
  const PencilStage& stage = setup.geometry->stage(index);
  PlaneShape shape;
  if (stage.box.elements() == 0) return shape;
  // A plane is two loops (transform and batch): runs of the unit-stride one, the other apart.
  std::vector<Loop> loops = stage.transform;
  loops.insert(loops.end(), stage.batches.begin(), stage.batches.end());
  if (loops.size() != 2) throw std::logic_error("a pencil plane is not two loops");
  if (loops[0].stride < loops[1].stride) std::swap(loops[0], loops[1]);
  if (loops[1].stride != 1) throw std::logic_error("a pencil plane has no unit-stride loop");
  const std::size_t element_bytes = setup.batch * setup.scalar_bytes;
  shape.planes = stage.planes;
  shape.plane_bytes = stage.plane_stride * element_bytes;
  shape.runs = loops[0].count;
  shape.run_stride = loops[0].stride * element_bytes;
  shape.run_bytes = loops[1].count * element_bytes;
  shape.physical_bytes = stage.box.elements() / stage.planes * element_bytes;
  shape.modes_bytes = stage.spectral_box.elements() / stage.planes * element_bytes;
  return shape;
}

// One PencilSweepPlan into the plane operations of its sweep (docs/new-transform-step.md).
template <typename Real>
class SweepCompiler {
 public:
  SweepCompiler(const PencilProgramSetup& setup, const PencilSweepPlan& plan, bool backward)
      : setup_(setup), plan_(plan), shape_(plane_shape(setup, plan.stage)), backward_(backward) {}

  // The stage's FFT plans (none: it transforms nothing here), its scale factor (1: not the last
  // stage that transforms), and whether its planes come from (r2c) or go to (c2r) real ones.
  const std::vector<PlaneFft<Real>>* ffts = nullptr;
  double scale = 1.0;
  bool real_in = false;
  bool real_out = false;

  Sweep<Real> compile() const;

 private:
  bool resizes() const;
  bool transposes_locally() const;
  void plain(std::vector<PlaneOp<Real>>& ops) const;
  void truncating(std::vector<PlaneOp<Real>>& ops) const;
  void padding(std::vector<PlaneOp<Real>>& ops) const;
  void scattering(std::vector<PlaneOp<Real>>& ops) const;
  void transform(std::vector<PlaneOp<Real>>& ops, Planes at) const;
  void unpack(std::vector<PlaneOp<Real>>& ops, ProgramArray to) const;
  void pack(std::vector<PlaneOp<Real>>& ops, ProgramArray from) const;
  MoveRuns copy(Phase phase, ProgramArray from, ProgramArray to) const;
  MoveRuns local_runs(Phase phase, bool gather, Planes placed) const;

  const PencilProgramSetup& setup_;
  const PencilSweepPlan& plan_;
  PlaneShape shape_;
  bool backward_;
};

template <typename Real>
bool SweepCompiler<Real>::resizes() const {
  const PencilStage& stage = setup_.geometry->stage(plan_.stage);
  return plan_.computes && stage.box.extent != stage.spectral_box.extent;
}

// The y-major stage 2 of p0 = 1 next to the x-major stage 1 on the same rank
// (PencilGeometry::transposes_locally()): its sweep is the first of backward (reading the
// caller's input) or the last of forward (writing the caller's output), never one that
// exchanges.
template <typename Real>
bool SweepCompiler<Real>::transposes_locally() const {
  if (plan_.stage != 2 || !setup_.geometry->transposes_locally()) return false;
  const bool reads_input = plan_.from_input && !plan_.to_output;
  const bool writes_output = !plan_.from_input && plan_.to_output;
  if (plan_.unpack >= 0 || plan_.pack >= 0 || !(backward_ ? reads_input : writes_output)) {
    throw std::logic_error("a local transpose in a sweep that exchanges or stays in work");
  }
  return true;
}

template <typename Real>
Sweep<Real> SweepCompiler<Real>::compile() const {
  Sweep<Real> sweep;
  sweep.planes = shape_.planes;
  if (sweep.planes == 0) return sweep;
  if (transposes_locally() && backward_) {
    scattering(sweep.ops);
  } else if (resizes() && backward_) {
    sweep.reverse = true;  // in place, each padded plane lands on modes already padded
    padding(sweep.ops);
  } else if (resizes()) {
    truncating(sweep.ops);
  } else {
    plain(sweep.ops);
  }
  return sweep;
}

// Unpack (or copy in), transform, pack: the plane goes from the receive buffer, the caller's
// input or the work array to the send buffer, the caller's output or the work array. Where no
// unpack brings a plane that is transformed (or not packed), it is copied into place while in
// cache and transformed there: in-place plans measured ~10% faster than out-of-place ones for
// the first stage's 2D planes. The first and the last sweep are never one, so in-place calls
// (in == out) work.
template <typename Real>
void SweepCompiler<Real>::plain(std::vector<PlaneOp<Real>>& ops) const {
  const ProgramArray from = plan_.from_input ? kInput : kWork;
  const ProgramArray to = plan_.to_output && !real_out ? kOutput : kWork;
  const bool transforms = ffts != nullptr;
  const bool copy_in = plan_.unpack < 0 && from != to && !real_in && (transforms || plan_.pack < 0);
  if (plan_.unpack >= 0) unpack(ops, to);
  if (copy_in) {
    const Phase phase = transforms ? Phase::compute : Phase::transpose;
    if (transposes_locally()) {
      ops.push_back(local_runs(phase, true, {to, shape_.plane_bytes}));
    } else {
      ops.push_back(copy(phase, from, to));
    }
  }
  if (transforms) transform(ops, {to, shape_.plane_bytes});
  // Once unpacked or transformed a plane is in `to`; a sweep that only packs reads `from`.
  if (plan_.pack >= 0) pack(ops, plan_.unpack >= 0 || transforms ? to : from);
}

// Forward through a padded stage: each plane arrives on the padded side in the work array
// (unpacked, copied from the caller's input, or left there by the sweep before), is transformed
// there and truncated to its modes, in the work array (densely, in place) or in the caller's
// output; the pack reads the modes. Only the modes reach the exchange.
template <typename Real>
void SweepCompiler<Real>::truncating(std::vector<PlaneOp<Real>>& ops) const {
  const ProgramArray modes = plan_.to_output ? kOutput : kWork;
  if (plan_.unpack >= 0) unpack(ops, kWork);
  if (plan_.unpack < 0 && plan_.from_input && !real_in) {
    ops.push_back(copy(Phase::compute, kInput, kWork));
  }
  transform(ops, {kWork, shape_.plane_bytes});
  const PlaneResize* resize = &(*setup_.resizes)[plan_.stage];
  ops.push_back(Truncate{resize, kWork, modes, shape_.physical_bytes, shape_.modes_bytes});
  if (plan_.pack >= 0) pack(ops, modes);
}

// Backward through a padded stage: each plane's modes (unpacked into the work array, from the
// caller's input, or left in the work array by the sweep before) are padded in the work array,
// transformed there and packed, or written to the caller's output.
template <typename Real>
void SweepCompiler<Real>::padding(std::vector<PlaneOp<Real>>& ops) const {
  const ProgramArray modes = plan_.unpack < 0 && plan_.from_input ? kInput : kWork;
  if (plan_.unpack >= 0) unpack(ops, kWork);
  const PlaneResize* resize = &(*setup_.resizes)[plan_.stage];
  ops.push_back(Pad{resize, modes, kWork, shape_.modes_bytes, shape_.physical_bytes});
  transform(ops, {kWork, shape_.plane_bytes});
  if (plan_.to_output && !real_out) ops.push_back(copy(Phase::compute, kWork, kOutput));
  if (plan_.pack >= 0) pack(ops, kWork);
}

// Backward into a locally transposed stage 2: each y plane of the caller's input is copied into
// the plane scratch, transformed there in cache and scattered into stage 1's x-major work array.
// (In place it could not be: a y plane's runs overwrite other planes' in the x-major order.)
template <typename Real>
void SweepCompiler<Real>::scattering(std::vector<PlaneOp<Real>>& ops) const {
  const Planes scratch{ProgramArray::plane_scratch, 0};
  ops.push_back(
      MoveRuns{Phase::compute, {kInput, shape_.plane_bytes}, 0, scratch, 0, 1, shape_.plane_bytes});
  if (ffts != nullptr) transform(ops, scratch);
  ops.push_back(local_runs(Phase::compute, false, scratch));
}

// The stage's plans on the plane `at`, then its scaling. A real plane (r2c forward, c2r
// backward) goes through the real plane scratch, aligned for FFTW wherever the caller's plane
// starts: copied there from the caller's input, or from there into the caller's output.
template <typename Real>
void SweepCompiler<Real>::transform(std::vector<PlaneOp<Real>>& ops, Planes at) const {
  const std::vector<PlaneFft<Real>>& plans = *ffts;
  const std::size_t real_bytes = setup_.real_plane_bytes;
  const Planes real_plane{ProgramArray::real_plane, 0};
  const Planes real_side{real_in ? kInput : kOutput, real_bytes};
  std::size_t first = 0;
  std::size_t last = plans.size();
  if (real_in) {
    ops.push_back(MoveRuns{Phase::compute, real_side, 0, real_plane, 0, 1, real_bytes});
    ops.push_back(
        RealToComplex<Real>{&plans[first++], real_plane, at, real_bytes, shape_.physical_bytes});
  }
  if (real_out) --last;
  for (std::size_t k = first; k < last; ++k)
    ops.push_back(InPlaceFft<Real>{&plans[k], at, shape_.physical_bytes});
  const auto factor = static_cast<Real>(scale);
  if (real_out) {
    ops.push_back(
        ComplexToReal<Real>{&plans.back(), at, real_plane, shape_.physical_bytes, real_bytes});
    ops.push_back(MoveRuns{Phase::compute, real_plane, 0, real_side, 0, 1, real_bytes});
    if (scale != 1.0)
      ops.push_back(Scale<Real>{real_side, 1, 0, real_bytes / sizeof(Real), factor});
    return;
  }
  if (scale == 1.0) return;
  const std::size_t run_reals = shape_.run_bytes / sizeof(Real);
  ops.push_back(Scale<Real>{at, shape_.runs, shape_.run_stride, run_reals, factor});
}

template <typename Real>
void SweepCompiler<Real>::unpack(std::vector<PlaneOp<Real>>& ops, ProgramArray to) const {
  const auto t = static_cast<std::size_t>(plan_.unpack);
  const TransposeStep* step = setup_.transposes[t];
  const std::size_t element_bytes = setup_.batch * setup_.scalar_bytes;
  const Shape3& stored = step->shape().to;
  ops.push_back(Unpack{step, to, element_bytes, stored[1] * stored[2] * element_bytes});
}

template <typename Real>
void SweepCompiler<Real>::pack(std::vector<PlaneOp<Real>>& ops, ProgramArray from) const {
  const auto t = static_cast<std::size_t>(plan_.pack);
  const TransposeStep* step = setup_.transposes[t];
  const std::size_t element_bytes = setup_.batch * setup_.scalar_bytes;
  const int own = plan_.own_in_place ? setup_.ranks_in_exchange[t] : -1;
  const Shape3& stored = step->shape().from;
  ops.push_back(Pack{step, from, element_bytes, own, stored[1] * stored[2] * element_bytes});
}

// The runs of a plane from one array to another of the same layout.
template <typename Real>
MoveRuns SweepCompiler<Real>::copy(Phase phase, ProgramArray from, ProgramArray to) const {
  return {phase,
          {from, shape_.plane_bytes},
          shape_.run_stride,
          {to, shape_.plane_bytes},
          shape_.run_stride,
          shape_.runs,
          shape_.run_bytes};
}

// A locally transposed stage's plane between `placed` (its runs shape_.run_stride apart) and
// stage 1's x-major storage in the work array, where plane p's runs start p runs in and lie a
// whole x-major plane (y lines of runs) apart: gathered from there, or scattered back.
template <typename Real>
MoveRuns SweepCompiler<Real>::local_runs(Phase phase, bool gather, Planes placed) const {
  const std::size_t lines = setup_.geometry->stage(1).box.extent[1];
  const Planes stored{kWork, shape_.run_bytes};
  const std::size_t stored_stride = lines * shape_.run_bytes;
  if (gather) {
    return {phase, stored, stored_stride, placed, shape_.run_stride, shape_.runs, shape_.run_bytes};
  }
  return {phase, placed, shape_.run_stride, stored, stored_stride, shape_.runs, shape_.run_bytes};
}

// The last sweep that transforms: the same stage on every rank, so each point is scaled once
// (on a rank whose stage is empty there, nothing: an earlier stage's data is scaled where it
// arrives).
template <typename Real>
std::size_t last_transforming(const std::vector<PencilSweepPlan>& schedule,
                              const PencilPlaneFfts<Real>& ffts) {
  std::size_t last = schedule.size();
  for (std::size_t i = 0; i < schedule.size(); ++i) {
    if (schedule[i].computes && ffts.transforms(schedule[i].stage)) last = i;
  }
  return last;
}

ExchangeRun exchange_after(const PencilProgramSetup& setup, const PencilSweepPlan& plan) {
  const auto t = static_cast<std::size_t>(plan.pack);
  const TransposeStep& step = *setup.transposes[t];
  return {setup.exchanges[t], plan.own_in_place,
          step.block_elements() * setup.batch * setup.scalar_bytes,
          static_cast<std::size_t>(step.shape().parts)};
}

}  // namespace

PlaneResize pencil_plane_resize(const PencilGeometry& geometry, const Shape3& shape,
                                const Shape3& physical, const std::array<AxisKind, 3>& axes,
                                std::size_t batch, std::size_t index) {
  const PencilStage& stage = geometry.stage(index);
  const auto stored = [&](const BoxRange& box) {
    return stage.y_major ? Shape3{box.extent[1], box.extent[0], box.extent[2]} : box.extent;
  };
  PlaneResize resize;
  resize.padded_shape = stored(stage.box);
  resize.modes_shape = stored(stage.spectral_box);
  for (std::size_t axis = 0; axis < 3; ++axis) {
    const std::size_t kept = resize.modes_shape[axis];
    resize.axes[axis] = {kept, kept, false, false};
  }
  for (const int axis : stage.axes) {
    const auto global = static_cast<std::size_t>(axis);
    const std::size_t at = stage.y_major && global < 2 ? 1 - global : global;
    resize.axes[at] = padded_axis(shape[global], physical[global], axes[global] == AxisKind::r2c);
    resize.transformed[at] = axes[global] != AxisKind::none;
  }
  // The x-major last stage (p0 = 1) pads x, its leading axis: its planes are the y columns.
  resize.plane_axis = index == 2 && !stage.y_major ? 1 : 0;
  resize.values_per_point = batch;
  return resize;
}

template <typename Real>
PlaneProgram<Real> compile_pencil_program(const PencilProgramSetup& setup,
                                          const std::vector<PencilSweepPlan>& schedule,
                                          Direction direction, PencilPlaneFfts<Real>& ffts) {
  const bool backward = direction == Direction::backward;
  const std::size_t scaled = last_transforming(schedule, ffts);
  PlaneProgram<Real> program;
  for (std::size_t i = 0; i < schedule.size(); ++i) {
    const PencilSweepPlan& plan = schedule[i];
    SweepCompiler<Real> sweep(setup, plan, backward);
    const PencilStage& stage = setup.geometry->stage(plan.stage);
    if (plan.computes && ffts.transforms(plan.stage) && stage.box.elements() > 0) {
      // Planes at offsets FFTW's SIMD alignment does not divide (float, odd planes) need plans
      // made for any alignment; complex doubles are always aligned alike.
      const std::size_t plane_bytes = stage.plane_stride * setup.batch * setup.scalar_bytes;
      sweep.ffts = &ffts.plans(plan.stage, direction, plane_bytes % 16 == 0);
      if (i == scaled) sweep.scale = scale_factor(setup.scaling, direction, setup.logical_points);
    }
    sweep.real_in = setup.real_input && !backward && i == 0;
    sweep.real_out = setup.real_input && backward && i + 1 == schedule.size();
    program.emplace_back(sweep.compile());
    if (plan.pack >= 0) program.emplace_back(exchange_after(setup, plan));
  }
  return program;
}

template PlaneProgram<double> compile_pencil_program(const PencilProgramSetup&,
                                                     const std::vector<PencilSweepPlan>&, Direction,
                                                     PencilPlaneFfts<double>&);
template PlaneProgram<float> compile_pencil_program(const PencilProgramSetup&,
                                                    const std::vector<PencilSweepPlan>&, Direction,
                                                    PencilPlaneFfts<float>&);

}  // namespace a2afft::detail::fft
