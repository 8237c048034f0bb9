#include "pencil3d.hpp"

#include <algorithm>
#include <iterator>
#include <stdexcept>

#include "copy_bytes.hpp"
#include "error.hpp"
#include "mpi/comm.hpp"
#include "registry.hpp"

namespace a2afft::detail::fft {

// One of the two transposes: the forward and the inverse direction share one exchange plan,
// since both move blocks of the same size among the same ranks.
template <typename Real>
struct BasicPencil3d<Real>::Transpose {
  TransposeStep there;
  TransposeStep back;
  std::unique_ptr<ExchangePlan> exchange;  // none inside a single rank
};

// One pass over the planes of a stage: unpack a plane from the last exchange, transform (and
// scale) it and pack it for the next exchange while it is in cache. Any of them may be absent.
// Offsets and lengths count complex numbers (a point of every field: batch of them).
template <typename Real>
struct BasicPencil3d<Real>::Sweep {
  std::size_t stage = 0;
  std::size_t planes = 0;
  std::size_t plane_stride = 0;  // scalars (complex, or real for real data) between planes
  const TransposeStep* unpack = nullptr;
  bool computes = false;  // the stage's FFTs run in this sweep
  // Made for plane 0, run in order on each plane; none where the stage transforms nothing here.
  const std::vector<PlaneFft<Real>>* ffts = nullptr;
  const TransposeStep* pack = nullptr;
  ExchangePlan* exchange = nullptr;  // runs after the sweep when it packed
  // Our rank in that exchange when the pack puts our own block straight into recv_ (only in a
  // sweep that unpacks nothing, so no unread block is overwritten), else -1.
  int own_in_place = -1;
  // The first sweep reads the caller's input, the last writes the caller's output; the others
  // stay in work_. Where no unpack brings a plane, it is copied from `in` or into `out` (when it
  // is transformed there, or nothing packs it).
  bool from_input = false;
  bool to_output = false;
  // Real input: forward's first sweep reads real planes (r2c), backward's last writes them
  // (c2r), each through real_plane_.
  bool real_in = false;
  bool real_out = false;
  // A plane's scalars: `runs` of `run_length` contiguous ones, for copies and scaling.
  Loop runs{0, 0};
  std::size_t run_length = 0;
  double scale = 1.0;  // each plane is multiplied by it right after its FFT
  // A padded stage: the plane's FFTs run on its padded side; forward keeps the modes of each
  // plane (truncate_plane), backward pads them (pad_plane). Planes of the modes lie densely.
  bool resizes = false;
  bool backward = false;
  PlaneResize resize;
  // The y-major stage 2 of p0 = 1 (PencilGeometry::transposes_locally()), next to the x-major
  // stage 1 on the same rank: a plane's runs lie `local_runs` apart there, planes
  // `local_plane_stride` apart. Forward gathers each plane from there into place; backward
  // transforms each plane in plane_scratch_ and scatters it there.
  bool transposes_locally = false;
  Loop local_runs{0, 0};
  std::size_t local_plane_stride = 0;
};

namespace {

// The grid, once every rank has checked that it covers exactly the job's ranks.
const ProcGrid& grid_of_job(const ProcGrid& grid, int ranks) {
  if (grid.rows * grid.columns != ranks) {
    throw UsageError("grid " + grid.to_string() + " has " +
                     std::to_string(grid.rows * grid.columns) + " ranks but the job has " +
                     std::to_string(ranks));
  }
  return grid;
}

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

// Real input and an r2c last axis are one thing; either option sets both.
Pencil3dOptions with_real_input(Pencil3dOptions options) {
  if (options.real_input) options.axes[2] = AxisKind::r2c;
  options.real_input = options.axes[2] == AxisKind::r2c;
  return options;
}

// r2c transforms the z lines of n2 reals into n2/2+1 complex points.
Shape3 complex_shape(const Shape3& shape, bool real_input) {
  return real_input ? Shape3{shape[0], shape[1], shape[2] / 2 + 1} : shape;
}

// The padded side's complex shape, or {} without padding.
Shape3 complex_padded_shape(const Pencil3dOptions& options) {
  if (options.padded == Shape3{}) return {};
  return complex_shape(options.padded, with_real_input(options).real_input);
}

Shape3 stored(const BoxRange& box, bool y_major) {
  return y_major ? Shape3{box.extent[1], box.extent[0], box.extent[2]} : box.extent;
}

}  // namespace

template <typename Real>
BasicPencil3d<Real>::BasicPencil3d(const Topology& topology, const Shape3& shape,
                                   const ProcGrid& grid, const Pencil3dOptions& options)
    : shape_(shape),
      physical_(options.padded == Shape3{} ? shape : options.padded),
      geometry_(complex_shape(shape, with_real_input(options).real_input),
                grid_of_job(grid, topology.size()), topology.rank(),
                options.natural_output ? PencilOutput::natural : PencilOutput::transposed,
                complex_padded_shape(options)),
      options_(with_real_input(options)),
      input_box_(geometry_.input_box()),
      real_data_(std::none_of(
          options_.axes.begin(), options_.axes.end(),
          [](AxisKind axis) { return axis == AxisKind::dft || axis == AxisKind::r2c; })),
      scalar_bytes_(real_data_ ? sizeof(Real) : sizeof(Complex)),
      element_bytes_(options.batch * scalar_bytes_) {
  if (options.batch == 0) throw std::logic_error("a pencil plan of a batch of 0 fields");
  if (options_.real_input) input_box_.extent[2] = physical_[2];
  // Row transpose among the p1 ranks of row a; column transpose among the p0 ranks of column b.
  const int row = geometry_.row();
  const int column = geometry_.column();
  const mpi::Comm row_comm = mpi::Comm::split(topology.comm(), row, column);
  const mpi::Comm column_comm = mpi::Comm::split(topology.comm(), column, row);
  row_topology_ = std::make_unique<Topology>(topology, row_comm.get());
  column_topology_ = std::make_unique<Topology>(topology, column_comm.get());
  const TransposeShape& row_shape = geometry_.row_transpose();
  const TransposeShape& column_shape = geometry_.column_transpose();
  row_ = std::make_unique<Transpose>(
      Transpose{TransposeStep(row_shape), TransposeStep(row_shape.inverse()), nullptr});
  column_ = std::make_unique<Transpose>(
      Transpose{TransposeStep(column_shape), TransposeStep(column_shape.inverse()), nullptr});
  const std::array<bool, 2> own_block_left = pencil_own_block_left(geometry_);
  const auto make_plan = [&](Transpose& step, const Topology& members, const Spec& spec,
                             bool own_left) {
    if (step.there.is_identity()) return;
    // Each row (or column) decides for itself, so refusals are agreed over all ranks first.
    const ExchangeProblem problem{members, step.there.block_elements() * element_bytes_, own_left};
    if (const std::string why = agreed_refusal(spec, problem, topology.comm()); !why.empty()) {
      throw UsageError(spec.to_string() + " cannot run on some " +
                       (&step == row_.get() ? "row" : "column") + " of the " + grid.to_string() +
                       " grid: " + why);
    }
    step.exchange = make_exchange(spec, problem);
  };
  make_plan(*row_, *row_topology_, options.row_exchange, own_block_left[0]);
  make_plan(*column_, *column_topology_, options.column_exchange, own_block_left[1]);
  // One pair of buffers serves both transposes; the row exchange's memory, when there is one.
  ExchangePlan* owner = row_->exchange ? row_->exchange.get() : column_->exchange.get();
  send_ = ExchangeArray<Complex>(owner, complex_units(geometry_.buffer_elements()));
  recv_ = ExchangeArray<Complex>(owner, complex_units(geometry_.buffer_elements()));
  work_ = ExchangeArray<Complex>(nullptr, complex_units(geometry_.data_elements()));
  if (options_.real_input) {
    real_plane_.resize(input_box_.extent[1] * physical_[2] * options.batch);
  }
  if (geometry_.transposes_locally()) {
    plane_scratch_ =
        ExchangeArray<Complex>(nullptr, complex_units(geometry_.stage(2).plane_stride));
  }

  forward_ = compile(false);
  backward_ = compile(true);
  plan_ffts(forward_, Direction::forward);
  plan_ffts(backward_, Direction::backward);
}

template <typename Real>
BasicPencil3d<Real>::~BasicPencil3d() = default;

template <typename Real>
std::size_t BasicPencil3d<Real>::complex_units(std::size_t points) const {
  return (points * element_bytes_ + sizeof(Complex) - 1) / sizeof(Complex);
}

// The sweeps pencil_schedule() lays out for one direction, with the transposes, exchanges and
// plane sizes they use here. plan_ffts() then gives them their FFTs.
template <typename Real>
auto BasicPencil3d<Real>::compile(bool backward) const -> std::vector<Sweep> {
  const std::array<const TransposeStep*, 4> between{&row_->there, &column_->there, &column_->back,
                                                    &row_->back};
  const std::array<ExchangePlan*, 4> exchange_between{
      row_->exchange.get(), column_->exchange.get(), column_->exchange.get(), row_->exchange.get()};
  const std::array<int, 4> rank_in_exchange{row_topology_->rank(), column_topology_->rank(),
                                            column_topology_->rank(), row_topology_->rank()};
  const auto at = [](int transpose) { return static_cast<std::size_t>(transpose); };
  std::vector<Sweep> schedule;
  for (const PencilSweepPlan& plan : pencil_schedule(geometry_, backward, leaves_own_block())) {
    Sweep sweep;
    sweep.stage = plan.stage;
    sweep.planes = geometry_.stage(plan.stage).planes;
    sweep.plane_stride = geometry_.stage(plan.stage).plane_stride * options_.batch;
    if (plan.unpack >= 0) sweep.unpack = between[at(plan.unpack)];
    sweep.computes = plan.computes;
    if (plan.pack >= 0) {
      sweep.pack = between[at(plan.pack)];
      sweep.exchange = exchange_between[at(plan.pack)];
      if (plan.own_in_place) sweep.own_in_place = rank_in_exchange[at(plan.pack)];
    }
    sweep.from_input = plan.from_input;
    sweep.to_output = plan.to_output;
    // A plane is two loops (transform and batch): runs of the unit-stride one, the other apart.
    // An empty stage has no planes to copy or scale (and loops of stride 0).
    const PencilStage& stage = geometry_.stage(plan.stage);
    if (stage.box.elements() == 0) {
      schedule.push_back(sweep);
      continue;
    }
    std::vector<Loop> loops = stage.transform;
    loops.insert(loops.end(), stage.batches.begin(), stage.batches.end());
    if (loops.size() != 2) throw std::logic_error("a pencil plane is not two loops");
    if (loops[0].stride < loops[1].stride) std::swap(loops[0], loops[1]);
    if (loops[1].stride != 1) throw std::logic_error("a pencil plane has no unit-stride loop");
    sweep.runs = {loops[0].count, loops[0].stride * options_.batch};
    sweep.run_length = loops[1].count * options_.batch;
    sweep.resizes = plan.computes && stage.box.extent != stage.spectral_box.extent;
    sweep.backward = backward;
    if (sweep.resizes) sweep.resize = plane_resize(plan.stage);
    if (plan.stage == 2 && geometry_.transposes_locally()) local_transpose(sweep);
    schedule.push_back(sweep);
  }
  return schedule;
}

// Stage 2 of p0 = 1 with transposed output: its y planes ([x][z] each, contiguous) lie in stage
// 1's x-major storage of the same box as runs of z, one per x, n1 runs apart. The sweep is the
// first of backward (reading the caller's input) or the last of forward (writing the caller's
// output), never one that unpacks or packs.
template <typename Real>
void BasicPencil3d<Real>::local_transpose(Sweep& sweep) const {
  const bool reads_input_writes_work = sweep.from_input && !sweep.to_output;
  const bool reads_work_writes_output = !sweep.from_input && sweep.to_output;
  if (sweep.unpack != nullptr || sweep.pack != nullptr ||
      !(sweep.backward ? reads_input_writes_work : reads_work_writes_output)) {
    throw std::logic_error("a local transpose in a sweep that exchanges or stays in work_");
  }
  const std::size_t lines = geometry_.stage(1).box.extent[1];  // y: the x-major runs' stride
  sweep.transposes_locally = true;
  sweep.local_runs = {sweep.runs.count, lines * sweep.run_length};
  sweep.local_plane_stride = sweep.run_length;
}

// How a padded stage's planes go from its padded side to its modes, in its stored order: the
// axes it transforms padded as the plan says, the others (and the plane axis) untouched.
template <typename Real>
PlaneResize BasicPencil3d<Real>::plane_resize(std::size_t index) const {
  const PencilStage& stage = geometry_.stage(index);
  PlaneResize resize;
  resize.padded_shape = stored(stage.box, stage.y_major);
  resize.modes_shape = stored(stage.spectral_box, stage.y_major);
  for (std::size_t axis = 0; axis < 3; ++axis) {
    const std::size_t kept = resize.modes_shape[axis];
    resize.axes[axis] = {kept, kept, false, false};
  }
  for (const int axis : stage.axes) {
    const auto global = static_cast<std::size_t>(axis);
    const std::size_t at = stage.y_major && global < 2 ? 1 - global : global;
    resize.axes[at] =
        padded_axis(shape_[global], physical_[global], options_.axes[global] == AxisKind::r2c);
    resize.transformed[at] = options_.axes[global] != AxisKind::none;
  }
  // The x-major last stage (p0 = 1) pads x, its leading axis: its planes are the y columns.
  resize.plane_axis = index == 2 && !stage.y_major ? 1 : 0;
  resize.values_per_point = options_.batch;
  return resize;
}

template <typename Real>
std::array<bool, 2> BasicPencil3d<Real>::leaves_own_block() const {
  const auto leaves = [](const Transpose& step) {
    return step.exchange != nullptr && step.exchange->can_leave_own_block();
  };
  return {leaves(*row_), leaves(*column_)};
}

template <typename Real>
TransformTraffic BasicPencil3d<Real>::traffic(bool backward) const {
  // The caller's arrays: the input side (real for r2c) and the complex output side.
  const std::size_t input_side =
      input_scalars() * (options_.real_input ? sizeof(Real) : scalar_bytes_);
  const std::size_t output_side = output_scalars() * scalar_bytes_;
  const std::vector<PencilSweepPlan> schedule =
      pencil_schedule(geometry_, backward, leaves_own_block());
  const std::size_t moved =
      pencil_bytes_moved(geometry_, schedule, element_bytes_, backward ? output_side : input_side,
                         backward ? input_side : output_side, backward);
  const Shape3& complex_shape = geometry_.shape();
  const int ranks = geometry_.grid().rows * geometry_.grid().columns;
  TransformTraffic traffic;
  traffic.bytes_moved = moved;
  traffic.array_bytes = complex_shape[0] * complex_shape[1] * complex_shape[2] * element_bytes_ /
                        static_cast<std::size_t>(ranks);
  traffic.memory_passes = static_cast<double>(moved) /
                          static_cast<double>(std::max<std::size_t>(1, traffic.array_bytes));
  traffic.exchanged_bytes = pencil_bytes_exchanged(geometry_, schedule, element_bytes_);
  return traffic;
}

// Gives the computing sweeps of `schedule` their plane plans (none where the stage holds
// nothing, since FFTW cannot plan 0 points, or transforms nothing) and the last sweep that
// transforms its scaling (on a rank whose last stage is empty, none: an earlier stage's data is
// scaled where it arrives). Where no unpack brought a plane (the first sweep reads `in`, a last
// one without unpack writes `out`), the plane is copied into place while in cache and
// transformed there: in-place plans measured ~10% faster than out-of-place ones for the first
// stage's 2D planes. Real planes go through real_plane_ (r2c out of it, c2r into it), which is
// aligned for FFTW wherever the caller's plane starts. The first and the last sweep are never
// one, so in-place calls (in == out) work.
template <typename Real>
void BasicPencil3d<Real>::plan_ffts(std::vector<Sweep>& schedule, Direction direction) {
  const bool real = options_.real_input;
  schedule.front().real_in = real && direction == Direction::forward;
  schedule.back().real_out = real && direction == Direction::backward;
  const auto transforms = [&](std::size_t stage) {
    const std::vector<int>& axes = geometry_.stage(stage).axes;
    return std::any_of(axes.begin(), axes.end(), [&](int axis) {
      return options_.axes[static_cast<std::size_t>(axis)] != AxisKind::none;
    });
  };
  Sweep* last_fft = nullptr;  // the same stage on every rank, so each point is scaled once
  for (Sweep& sweep : schedule) {
    if (!sweep.computes || !transforms(sweep.stage)) continue;
    last_fft = &sweep;
    if (geometry_.stage(sweep.stage).box.elements() == 0) continue;
    const auto key = std::make_pair(direction, sweep.stage);
    if (!plane_plans_.count(key)) {
      // Planes at offsets FFTW's SIMD alignment does not divide (float, odd planes) need plans
      // made for any alignment; complex doubles are always aligned alike.
      const bool aligned = sweep.plane_stride * scalar_bytes_ % 16 == 0;
      plane_plans_[key] = plan_stage(sweep.stage, direction, aligned);
    }
    sweep.ffts = &plane_plans_[key];
  }
  if (last_fft == nullptr || last_fft->ffts == nullptr) return;  // nothing here to scale
  last_fft->scale =
      scale_factor(options_.scaling, direction,
                   logical_points({options_.axes.begin(), options_.axes.end()}, physical_));
}

// The FFTW plans of one plane of `stage`, in the order they run. The dft family (dft and r2c
// axes) is one plan, as FFTW's multi-dimensional r2c is (the r2c along z, c2c along the
// others), and the r2r axes another (a kind per axis); each takes the other's axes and the
// none axes as loops. Forward runs the dft family first, so the r2c makes the complex data the
// r2r axes transform; backward the reverse, so the c2r comes last.
template <typename Real>
std::vector<PlaneFft<Real>> BasicPencil3d<Real>::plan_stage(std::size_t index, Direction direction,
                                                            bool aligned) {
  const PencilStage& stage = geometry_.stage(index);
  const bool forward = direction == Direction::forward;
  const std::size_t batch = options_.batch;
  std::vector<Loop> dft_axes, dft_loops = stage.batches, r2r_axes, r2r_loops = stage.batches;
  std::vector<fftw_r2r_kind> kinds;
  bool r2c = false;
  for (std::size_t i = 0; i < stage.transform.size(); ++i) {
    const AxisKind axis = options_.axes[static_cast<std::size_t>(stage.axes[i])];
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
  const auto plan_r2r = [&] {
    if (r2r_axes.empty()) return;
    std::vector<Stride> transform = strides(r2r_axes, batch, nullptr, forward);
    std::vector<Stride> loops = with_fields(strides(r2r_loops, batch, nullptr, forward), batch);
    if (!real_data_) {  // the real and the imaginary parts, apart
      transform = as_reals(transform);
      loops = as_reals(loops);
      loops.push_back({2, 1, 1});
    }
    auto* data = reinterpret_cast<Real*>(work_.data());
    plans.emplace_back(
        FftwPlan<Real>(transform, kinds, loops, data, data, options_.rigor, aligned));
  };
  if (forward) {
    plan_dft();
    plan_r2r();
  } else {
    plan_r2r();
    plan_dft();
  }
  return plans;
}

// The dft family's plans of one plane (see plan_stage): one FFTW plan over `axes`, except that
// under ESTIMATE a line strided across the plane (y in the 2D planes of slabs, y of stage 1, x
// of stage 2) goes apart into StridedColumns: ESTIMATE's own plan of it ran 8x slower than
// MEASURE's at 256 points (plane_fft.hpp). The rest (the contiguous z lines, r2c or c2r among
// them) stays one plan, which ESTIMATE plans within 1.2x of MEASURE (15.0 against 12.4 ms on the
// z lines of 128 planes of 256 x 256). Forward runs that plan first, so the r2c makes the
// complex plane; backward last, so the c2r ends in the real plane. MEASURE and PATIENT keep one
// plan over all the axes: their own buffered plans measured as fast as the chunks or faster.
template <typename Real>
void BasicPencil3d<Real>::plan_dft_family(std::vector<PlaneFft<Real>>& plans,
                                          std::vector<Loop> axes, std::vector<Loop> loops, bool r2c,
                                          Direction direction, bool aligned) {
  const bool forward = direction == Direction::forward;
  const std::size_t batch = options_.batch;
  // The columns: the plane's unit-stride loop, every field of each point.
  std::size_t columns = 0;
  for (const std::vector<Loop>* list : {&axes, &loops}) {
    for (const Loop& loop : *list) {
      if (loop.stride == 1) columns = loop.count * batch;
    }
  }
  std::vector<Loop> across;  // at most one: a plane has a single strided loop
  if (options_.rigor == Rigor::estimate && columns > 0) {
    const auto strided = [](const Loop& loop) { return loop.stride != 1 && loop.count > 1; };
    std::copy_if(axes.begin(), axes.end(), std::back_inserter(across), strided);
    axes.erase(std::remove_if(axes.begin(), axes.end(), strided), axes.end());
    loops.insert(loops.end(), across.begin(), across.end());
  }
  const auto plan_across = [&] {
    if (across.empty()) return;
    const Stride line = strides(across, batch, nullptr, forward).front();
    plans.emplace_back(std::make_unique<StridedColumns<Real>>(line, columns, work_.data(),
                                                              direction, options_.rigor, aligned));
  };
  const auto plan_along = [&] {
    if (axes.empty()) return;
    const RealSide real_side{geometry_.physical_shape()[2], physical_[2]};
    const RealSide* side = r2c ? &real_side : nullptr;
    const std::vector<Stride> transform = strides(axes, batch, side, forward);
    const std::vector<Stride> plan_loops = with_fields(strides(loops, batch, side, forward), batch);
    const Rigor rigor = options_.rigor;
    if (!r2c) {
      plans.emplace_back(FftwPlan<Real>(transform, plan_loops, work_.data(), work_.data(),
                                        direction, rigor, aligned));
    } else if (forward) {
      plans.emplace_back(
          FftwPlan<Real>(transform, plan_loops, real_plane_.data(), work_.data(), rigor, aligned));
    } else {
      plans.emplace_back(
          FftwPlan<Real>(transform, plan_loops, work_.data(), real_plane_.data(), rigor, aligned));
    }
  };
  if (forward) {
    plan_along();
    plan_across();
  } else {
    plan_across();
    plan_along();
  }
}

template <typename Real>
void BasicPencil3d<Real>::sweep(const Sweep& step, const void* in, void* out) {
  if (step.transposes_locally && step.backward) {
    scattering_sweep(step, in);
    return;
  }
  if (step.resizes) {
    if (step.backward) {
      padding_sweep(step, in, out);
    } else {
      truncating_sweep(step, in, out);
    }
    return;
  }
  auto* work = reinterpret_cast<std::byte*>(work_.data());
  const auto* from = step.from_input ? static_cast<const std::byte*>(in) : work;
  std::byte* to = step.to_output && !step.real_out ? static_cast<std::byte*>(out) : work;
  const bool transforms = step.ffts != nullptr;
  // Once unpacked or transformed a plane is in `to`; a sweep that only packs reads `from`.
  const std::byte* packed = step.unpack != nullptr || transforms ? to : from;
  const bool copy_in =
      step.unpack == nullptr && from != to && !step.real_in && (transforms || step.pack == nullptr);
  auto* send = reinterpret_cast<std::byte*>(send_.data());
  auto* recv = reinterpret_cast<std::byte*>(recv_.data());
  for (std::size_t plane = 0; plane < step.planes; ++plane) {
    const std::size_t start = plane * step.plane_stride * scalar_bytes_;
    if (step.unpack != nullptr) {
      const ScopedPhase timed(timer_, "transpose");
      step.unpack->unpack(recv, to, plane, element_bytes_);
    }
    if (copy_in) {
      const ScopedPhase timed(timer_, transforms ? "compute" : "transpose");
      if (step.transposes_locally) {  // from work_, stage 1's storage
        move_local_runs(step, to + start, plane, true);
      } else {
        copy_runs(step, to, from, start);
      }
    }
    if (transforms) {
      const ScopedPhase timed(timer_, "compute");
      transform_plane(step, plane, to + start, in, out);
    }
    if (step.pack != nullptr) {
      const ScopedPhase timed(timer_, "transpose");
      step.pack->pack(packed, send, plane, element_bytes_, step.own_in_place, recv);
    }
  }
  exchange_after(step);
}

// The runs of plane `start` (bytes from the array's start) from one array to another of the
// same layout.
template <typename Real>
void BasicPencil3d<Real>::copy_runs(const Sweep& step, std::byte* to, const std::byte* from,
                                    std::size_t start) const {
  for (std::size_t i = 0; i < step.runs.count; ++i) {
    const std::size_t offset = start + i * step.runs.stride * scalar_bytes_;
    copy_bytes(to + offset, from + offset, step.run_length * scalar_bytes_);
  }
}

// Plane `plane` of a locally transposed stage between its place (runs step.runs apart from
// `plane_start`) and stage 1's x-major storage in work_ (runs step.local_runs apart): gathered
// from there, or scattered back.
template <typename Real>
void BasicPencil3d<Real>::move_local_runs(const Sweep& step, std::byte* plane_start,
                                          std::size_t plane, bool gather) {
  const std::size_t run_bytes = step.run_length * scalar_bytes_;
  std::byte* local =
      reinterpret_cast<std::byte*>(work_.data()) + plane * step.local_plane_stride * scalar_bytes_;
  for (std::size_t i = 0; i < step.runs.count; ++i) {
    std::byte* placed = plane_start + i * step.runs.stride * scalar_bytes_;
    std::byte* stored = local + i * step.local_runs.stride * scalar_bytes_;
    if (gather) {
      copy_bytes(placed, stored, run_bytes);
    } else {
      copy_bytes(stored, placed, run_bytes);
    }
  }
}

// Backward into a locally transposed stage 2: each y plane of the caller's input is copied into
// plane_scratch_, transformed there in cache and scattered into stage 1's x-major work_. (In
// place it could not be: a y plane's runs overwrite other planes' in the x-major order.)
template <typename Real>
void BasicPencil3d<Real>::scattering_sweep(const Sweep& step, const void* in) {
  auto* scratch = reinterpret_cast<std::byte*>(plane_scratch_.data());
  const auto* input = static_cast<const std::byte*>(in);
  const std::size_t plane_bytes = step.plane_stride * scalar_bytes_;
  for (std::size_t plane = 0; plane < step.planes; ++plane) {
    const ScopedPhase timed(timer_, "compute");
    copy_bytes(scratch, input + plane * plane_bytes, plane_bytes);
    if (step.ffts != nullptr) transform_plane(step, plane, scratch, nullptr, nullptr);
    move_local_runs(step, scratch, plane, false);
  }
}

template <typename Real>
void BasicPencil3d<Real>::exchange_after(const Sweep& step) {
  if (step.exchange == nullptr) return;
  const ScopedPhase timed(timer_, "transpose");
  auto* send = reinterpret_cast<std::byte*>(send_.data());
  auto* recv = reinterpret_cast<std::byte*>(recv_.data());
  if (step.own_in_place >= 0) {
    step.exchange->run_others(send, recv);
  } else {
    step.exchange->run(send, recv);
  }
}

// Forward through a padded stage: each plane arrives on the padded side in work_ (unpacked,
// copied from the caller's input, or left there by the sweep before), is transformed there and
// truncated to its modes, in work_ (densely, in place) or in the caller's output; the pack
// reads the modes. Only the modes reach the exchange.
template <typename Real>
void BasicPencil3d<Real>::truncating_sweep(const Sweep& step, const void* in, void* out) {
  auto* work = reinterpret_cast<std::byte*>(work_.data());
  Complex* modes = step.to_output ? static_cast<Complex*>(out) : work_.data();
  auto* send = reinterpret_cast<std::byte*>(send_.data());
  auto* recv = reinterpret_cast<std::byte*>(recv_.data());
  for (std::size_t plane = 0; plane < step.planes; ++plane) {
    const std::size_t start = plane * step.plane_stride * scalar_bytes_;
    if (step.unpack != nullptr) {
      const ScopedPhase timed(timer_, "transpose");
      step.unpack->unpack(recv, work, plane, element_bytes_);
    }
    {
      const ScopedPhase timed(timer_, "compute");
      if (step.unpack == nullptr && step.from_input && !step.real_in) {
        copy_runs(step, work, static_cast<const std::byte*>(in), start);
      }
      transform_plane(step, plane, work + start, in, out);
      truncate_plane(work_.data(), modes, step.resize, plane);
    }
    if (step.pack != nullptr) {
      const ScopedPhase timed(timer_, "transpose");
      step.pack->pack(reinterpret_cast<const std::byte*>(modes), send, plane, element_bytes_,
                      step.own_in_place, recv);
    }
  }
  exchange_after(step);
}

// Backward through a padded stage: each plane's modes (unpacked into work_, from the caller's
// input, or left in work_ by the sweep before) are padded into work_, transformed there and
// packed, or written to the caller's output. Planes go in reverse: a padded plane fills more
// than its modes did, so in place each lands on modes already padded.
template <typename Real>
void BasicPencil3d<Real>::padding_sweep(const Sweep& step, const void* in, void* out) {
  auto* work = reinterpret_cast<std::byte*>(work_.data());
  const Complex* modes =
      step.unpack == nullptr && step.from_input ? static_cast<const Complex*>(in) : work_.data();
  auto* send = reinterpret_cast<std::byte*>(send_.data());
  auto* recv = reinterpret_cast<std::byte*>(recv_.data());
  for (std::size_t plane = step.planes; plane-- > 0;) {
    const std::size_t start = plane * step.plane_stride * scalar_bytes_;
    if (step.unpack != nullptr) {
      const ScopedPhase timed(timer_, "transpose");
      step.unpack->unpack(recv, work, plane, element_bytes_);
    }
    {
      const ScopedPhase timed(timer_, "compute");
      pad_plane(modes, work_.data(), step.resize, plane);
      transform_plane(step, plane, work + start, in, out);
      if (step.to_output && !step.real_out)
        copy_runs(step, static_cast<std::byte*>(out), work, start);
    }
    if (step.pack != nullptr) {
      const ScopedPhase timed(timer_, "transpose");
      step.pack->pack(work, send, plane, element_bytes_, step.own_in_place, recv);
    }
  }
  exchange_after(step);
}

// The stage's plans on one plane at `target`, then its scaling. A real plane (r2c forward,
// c2r backward) goes through real_plane_ from the caller's input or into the caller's output.
template <typename Real>
void BasicPencil3d<Real>::transform_plane(const Sweep& step, std::size_t plane, std::byte* target,
                                          const void* in, void* out) {
  const std::vector<PlaneFft<Real>>& plans = *step.ffts;
  const std::size_t real_plane = real_plane_.size();
  auto* complex_target = reinterpret_cast<Complex*>(target);
  const auto scale = static_cast<Real>(step.scale);
  if (step.real_in) {
    std::copy_n(static_cast<const Real*>(in) + plane * real_plane, real_plane, real_plane_.data());
    plans.front().execute(real_plane_.data(), complex_target);
    for (std::size_t k = 1; k < plans.size(); ++k)
      plans[k].execute_in_place(target);
  } else if (step.real_out) {
    for (std::size_t k = 0; k + 1 < plans.size(); ++k)
      plans[k].execute_in_place(target);
    plans.back().execute(complex_target, real_plane_.data());
    Real* real = static_cast<Real*>(out) + plane * real_plane;
    for (std::size_t i = 0; i < real_plane; ++i)
      real[i] = real_plane_[i] * scale;
    return;
  } else {
    for (const PlaneFft<Real>& plan : plans)
      plan.execute_in_place(target);
  }
  if (step.scale == 1.0) return;
  const std::size_t reals_per_scalar = scalar_bytes_ / sizeof(Real);
  for (std::size_t i = 0; i < step.runs.count; ++i) {
    Real* run = reinterpret_cast<Real*>(target + i * step.runs.stride * scalar_bytes_);
    for (std::size_t j = 0; j < step.run_length * reals_per_scalar; ++j)
      run[j] *= scale;
  }
}

template <typename Real>
void BasicPencil3d<Real>::run(const std::vector<Sweep>& schedule, const void* in, void* out) {
  for (const Sweep& step : schedule)
    sweep(step, in, out);
}

template <typename Real>
void BasicPencil3d<Real>::forward(const void* in, void* out) {
  check_fftw_alignment(in, "forward's input");
  check_fftw_alignment(out, "forward's output");
  run(forward_, in, out);
}

template <typename Real>
void BasicPencil3d<Real>::backward(const void* in, void* out) {
  check_fftw_alignment(in, "backward's input");
  check_fftw_alignment(out, "backward's output");
  run(backward_, in, out);
}

template <typename Real>
std::size_t BasicPencil3d<Real>::in_place_elements() const {
  const std::size_t input_bytes =
      input_scalars() * (options_.real_input ? sizeof(Real) : scalar_bytes_);
  const std::size_t bytes = std::max(input_bytes, output_scalars() * scalar_bytes_);
  return (bytes + scalar_bytes_ - 1) / scalar_bytes_;
}

template <typename Real>
std::size_t BasicPencil3d<Real>::workspace_bytes() const {
  return (work_.size() + send_.size() + recv_.size() + plane_scratch_.size()) * sizeof(Complex) +
         real_plane_.size() * sizeof(Real);
}

template <typename Real>
std::string BasicPencil3d<Real>::describe_exchange(PencilTranspose which) const {
  const Transpose& step = which == PencilTranspose::row ? *row_ : *column_;
  return step.exchange ? step.exchange->describe() : std::string("-");
}

template <typename Real>
std::string BasicPencil3d<Real>::describe() const {
  return "row=" + describe_exchange(PencilTranspose::row) +
         ",column=" + describe_exchange(PencilTranspose::column);
}

template class BasicPencil3d<double>;
template class BasicPencil3d<float>;

}  // namespace a2afft::detail::fft
