#include "pencil3d.hpp"

#include <algorithm>
#include <stdexcept>

#include "error.hpp"
#include "gather.hpp"
#include "mpi/comm.hpp"
#include "registry.hpp"

namespace a2afft::fft {

// One of the two transposes: the forward and the inverse direction share one exchange plan,
// since both move blocks of the same size among the same ranks.
struct Pencil3d::Transpose {
  TransposeStep there;
  TransposeStep back;
  std::unique_ptr<ExchangePlan> exchange;  // none inside a single rank
};

// One pass over the planes of a stage: unpack a plane from the last exchange, transform (and
// scale) it and pack it for the next exchange while it is in cache. Any of them may be absent.
struct Pencil3d::Sweep {
  std::size_t stage = 0;
  std::size_t planes = 0;
  std::size_t plane_stride = 0;  // elements between the starts of consecutive planes
  const TransposeStep* unpack = nullptr;
  bool computes = false;          // the stage's FFTs run in this sweep
  const FftwPlan* fft = nullptr;  // made for plane 0, run on each plane; none on an empty stage
  const TransposeStep* pack = nullptr;
  ExchangePlan* exchange = nullptr;  // runs after the sweep when it packed
  // Our rank in that exchange when the pack puts our own block straight into recv_ (only in a
  // sweep that unpacks nothing, so no unread block is overwritten), else -1.
  int own_in_place = -1;
  // The first sweep reads the caller's input, the last writes the caller's output; the others
  // stay in work_. Where no unpack brings a plane, it is copied from `in` or into `out`.
  bool from_input = false;
  bool to_output = false;
  // A plane's elements: `runs` of `run_length` contiguous elements, for copies and scaling.
  Loop runs{0, 0};
  std::size_t run_length = 0;
  double scale = 1.0;  // each plane is multiplied by it right after its FFT
};

namespace {

// The stages a transform passes through, in forward order: S0, S1, S2 and, for output in the
// input layout, back through S1 to S0. Transpose k sits between stage k and stage k + 1.
constexpr std::array<int, 5> kStageAt{0, 1, 2, 1, 0};

// The grid, once every rank has checked that it covers exactly the job's ranks.
const ProcGrid& grid_of_job(const ProcGrid& grid, int ranks) {
  if (grid.rows * grid.columns != ranks) {
    throw UsageError("grid " + grid.to_string() + " has " +
                     std::to_string(grid.rows * grid.columns) + " ranks but the job has " +
                     std::to_string(ranks));
  }
  return grid;
}

std::vector<Stride> strides(const std::vector<Loop>& loops) {
  std::vector<Stride> result;
  for (const Loop& loop : loops) {
    result.push_back(
        {static_cast<std::ptrdiff_t>(loop.count), static_cast<std::ptrdiff_t>(loop.stride)});
  }
  return result;
}

}  // namespace

Pencil3d::Pencil3d(const Topology& topology, const Shape3& shape, const ProcGrid& grid,
                   const Pencil3dOptions& options)
    : comm_(topology.comm()),
      geometry_(shape, grid_of_job(grid, topology.size()), topology.rank(),
                options.natural_output ? PencilOutput::natural : PencilOutput::transposed),
      options_(options) {
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
  const auto make_plan = [&](Transpose& step, const Topology& members, const Spec& spec) {
    if (step.there.is_identity()) return;
    // Each row (or column) decides for itself, so refusals are agreed over all ranks first.
    const ExchangeProblem problem{members, step.there.block_elements() * sizeof(Complex)};
    if (const std::string why = agreed_refusal(spec, problem, topology.comm()); !why.empty()) {
      throw UsageError(spec.to_string() + " cannot run on some " +
                       (&step == row_.get() ? "row" : "column") + " of the " + grid.to_string() +
                       " grid: " + why);
    }
    step.exchange = make_exchange(spec, problem);
  };
  make_plan(*row_, *row_topology_, options.row_exchange);
  make_plan(*column_, *column_topology_, options.column_exchange);
  // One pair of buffers serves both transposes; the row exchange's memory, when there is one.
  ExchangePlan* owner = row_->exchange ? row_->exchange.get() : column_->exchange.get();
  send_ = ComplexBuffer(owner, geometry_.buffer_elements());
  recv_ = ComplexBuffer(owner, geometry_.buffer_elements());
  work_.resize(geometry_.data_elements());

  // Forward walks stages 0..2 (0..4 back to the input layout), backward 2..4 (0..4 from it).
  const bool natural = options.natural_output;
  forward_ = compile(0, natural ? 4 : 2, false);
  backward_ = compile(natural ? 0 : 2, 4, true);
  plan_ffts(forward_, Direction::forward);
  plan_ffts(backward_, Direction::backward);
}

Pencil3d::~Pencil3d() = default;

// The sweeps over stages kStageAt[first..last]: each unpacks what the transpose into its stage
// brought, transforms (only in the stages of the transform proper) and packs for the transpose
// out of it. plan_ffts() then gives them their FFTs.
std::vector<Pencil3d::Sweep> Pencil3d::compile(std::size_t first, std::size_t last,
                                               bool backward) const {
  const bool merged = !geometry_.has_row_transpose();
  const std::array<const TransposeStep*, 4> between{&row_->there, &column_->there, &column_->back,
                                                    &row_->back};
  const std::array<ExchangePlan*, 4> exchange_between{
      row_->exchange.get(), column_->exchange.get(), column_->exchange.get(), row_->exchange.get()};
  const std::array<int, 4> rank_in_exchange{row_topology_->rank(), column_topology_->rank(),
                                            column_topology_->rank(), row_topology_->rank()};
  std::vector<Sweep> schedule;
  const TransposeStep* incoming = nullptr;
  for (std::size_t k = first; k <= last; ++k) {
    const auto index = static_cast<std::size_t>(kStageAt[k]);
    if (merged && index == 1) continue;  // S1 is S0; the row transposes around it are identities
    Sweep sweep;
    sweep.stage = index;
    sweep.planes = geometry_.stage(index).planes;
    sweep.plane_stride = geometry_.stage(index).plane_stride;
    sweep.unpack = incoming;
    // Only the stages of the transform proper compute; the rest only reorder.
    sweep.computes = backward ? k >= 2 : k <= 2;
    incoming = nullptr;
    for (std::size_t t = k; t < last; ++t) {  // the transpose out of this stage, if any
      if (!between[t]->is_identity()) {
        sweep.pack = incoming = between[t];
        sweep.exchange = exchange_between[t];
        if (sweep.unpack == nullptr && sweep.exchange->can_leave_own_block()) {
          sweep.own_in_place = rank_in_exchange[t];
        }
        break;
      }
      if (!merged || kStageAt[t + 1] != 1) break;
    }
    if (sweep.unpack != nullptr || sweep.computes || sweep.pack != nullptr) {
      schedule.push_back(sweep);
    }
  }
  return schedule;
}

// Gives the computing sweeps of `schedule` their plane plans (none where the stage holds
// nothing: FFTW cannot plan 0 points) and the last of them its scaling (on a rank whose last
// stage is empty, none: an earlier stage's data is scaled where it arrives). Where no unpack
// brought a plane (the first sweep reads `in`, a last one without unpack writes `out`), the
// plane is copied into place while in cache and transformed there: in-place plans measured
// ~10% faster than out-of-place ones for the first stage's 2D planes. The first and the last
// sweep are never one, so in-place calls (in == out) work.
void Pencil3d::plan_ffts(std::vector<Sweep>& schedule, Direction direction) {
  if (schedule.size() < 2) throw std::logic_error("a pencil schedule has fewer than two sweeps");
  schedule.front().from_input = true;
  schedule.back().to_output = true;
  Sweep* last_fft = nullptr;  // the same stage on every rank, so each point is scaled once
  for (Sweep& sweep : schedule) {
    const PencilStage& stage = geometry_.stage(sweep.stage);
    if (!sweep.computes) continue;
    last_fft = &sweep;
    if (stage.box.elements() == 0) continue;
    const auto [plan, made] = plane_plans_.try_emplace(std::make_pair(direction, sweep.stage));
    if (made) {
      plan->second = FftwPlan(strides(stage.transform), strides(stage.batches), work_.data(),
                              work_.data(), direction, options_.rigor);
    }
    sweep.fft = &plan->second;
    // A plane is two loops (transform and batch): runs of the unit-stride one, the other apart.
    std::vector<Loop> loops = stage.transform;
    loops.insert(loops.end(), stage.batches.begin(), stage.batches.end());
    if (loops.size() != 2) throw std::logic_error("a pencil plane is not two loops");
    if (loops[0].stride < loops[1].stride) std::swap(loops[0], loops[1]);
    if (loops[1].stride != 1) throw std::logic_error("a pencil plane has no unit-stride loop");
    sweep.runs = loops[0];
    sweep.run_length = loops[1].count;
  }
  if (last_fft == nullptr || last_fft->fft == nullptr) return;  // nothing here to scale
  const Shape3& shape = geometry_.shape();
  last_fft->scale = scale_factor(options_.scaling, direction, shape[0] * shape[1] * shape[2]);
}

void Pencil3d::sweep(const Sweep& step, const Complex* in, Complex* out) {
  const Complex* from = step.from_input ? in : work_.data();
  Complex* to = step.to_output ? out : work_.data();
  // Once unpacked or transformed a plane is in `to`; a sweep that only packs reads `from`.
  const Complex* packed = step.unpack != nullptr || step.fft != nullptr ? to : from;
  auto* send = reinterpret_cast<std::byte*>(send_.data());
  auto* recv = reinterpret_cast<std::byte*>(recv_.data());
  for (std::size_t plane = 0; plane < step.planes; ++plane) {
    if (step.unpack != nullptr) {
      const ScopedPhase timed(timer_, "transpose");
      step.unpack->unpack(recv, reinterpret_cast<std::byte*>(to), plane, sizeof(Complex));
    }
    if (step.fft != nullptr) {
      const ScopedPhase timed(timer_, "compute");
      const std::size_t start = plane * step.plane_stride;
      Complex* target = to + start;
      const bool copy_in = step.unpack == nullptr && from != to;
      for (std::size_t i = 0; copy_in && i < step.runs.count; ++i) {
        const std::size_t offset = start + i * step.runs.stride;
        std::copy_n(from + offset, step.run_length, to + offset);
      }
      step.fft->execute(target, target);
      for (std::size_t i = 0; step.scale != 1.0 && i < step.runs.count; ++i) {
        Complex* run = target + i * step.runs.stride;
        for (std::size_t j = 0; j < step.run_length; ++j)
          run[j] *= step.scale;
      }
    }
    if (step.pack != nullptr) {
      const ScopedPhase timed(timer_, "transpose");
      step.pack->pack(reinterpret_cast<const std::byte*>(packed), send, plane, sizeof(Complex),
                      step.own_in_place, recv);
    }
  }
  if (step.exchange != nullptr) {
    const ScopedPhase timed(timer_, "transpose");
    if (step.own_in_place >= 0) {
      step.exchange->run_others(send, recv);
    } else {
      step.exchange->run(send, recv);
    }
  }
}

void Pencil3d::run(const std::vector<Sweep>& schedule, const Complex* in, Complex* out) {
  for (const Sweep& step : schedule)
    sweep(step, in, out);
}

void Pencil3d::forward(const Complex* in, Complex* out) {
  check_fftw_alignment(in, "forward's input");
  check_fftw_alignment(out, "forward's output");
  run(forward_, in, out);
}

void Pencil3d::backward(const Complex* in, Complex* out) {
  check_fftw_alignment(in, "backward's input");
  check_fftw_alignment(out, "backward's output");
  run(backward_, in, out);
}

Complex* Pencil3d::data() {
  if (data_.size() < in_place_elements()) data_.resize(in_place_elements());
  return data_.data();
}

void Pencil3d::forward() {
  Complex* array = data();
  forward(array, array);
}

void Pencil3d::backward() {
  Complex* array = data();
  backward(array, array);
}

std::size_t Pencil3d::in_place_elements() const {
  return std::max(input_box().elements(), output_box().elements());
}

std::size_t Pencil3d::workspace_bytes() const {
  return (work_.size() + send_.size() + recv_.size()) * sizeof(Complex);
}

const Complex* Pencil3d::own_array(std::size_t elements) const {
  if (data_.size() < elements) {
    throw std::logic_error("Pencil3d: data() was never called, so it holds no output");
  }
  return data_.data();
}

std::vector<Complex> Pencil3d::output_in_natural_order() const {
  return output_in_natural_order(own_array(output_box().elements()));
}

std::vector<Complex> Pencil3d::output_in_natural_order(const Complex* out) const {
  const Box3& box = output_box();
  std::vector<Complex> natural(box.elements());
  const auto* from = reinterpret_cast<const std::byte*>(out);
  auto* to = reinterpret_cast<std::byte*>(natural.data());
  if (output_is_y_major()) {
    const Shape3 stored{box.extent[1], box.extent[0], box.extent[2]};
    copy_box_swapping_leading(from, stored, {}, to, box.extent, {}, stored, sizeof(Complex));
  } else {
    copy_box(from, box.extent, {}, to, box.extent, {}, box.extent, sizeof(Complex));
  }
  return natural;
}

void Pencil3d::set_output_from_natural_order(const Complex* natural) {
  const Box3& box = output_box();
  const auto* from = reinterpret_cast<const std::byte*>(natural);
  auto* to = reinterpret_cast<std::byte*>(data());
  if (output_is_y_major()) {
    const Shape3 stored{box.extent[1], box.extent[0], box.extent[2]};
    copy_box_swapping_leading(from, box.extent, {}, to, stored, {}, box.extent, sizeof(Complex));
  } else {
    copy_box(from, box.extent, {}, to, box.extent, {}, box.extent, sizeof(Complex));
  }
}

std::vector<Complex> Pencil3d::gather_output() const {
  const std::vector<Complex> natural = output_in_natural_order();
  return gather_global(natural.data(), output_box(), geometry_.shape(), comm_);
}

std::string Pencil3d::describe() const {
  const auto name = [](const Transpose& step) {
    return step.exchange ? step.exchange->describe() : std::string("-");
  };
  return "row=" + name(*row_) + ",column=" + name(*column_);
}

}  // namespace a2afft::fft
