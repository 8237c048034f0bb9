#include "pencil3d.hpp"

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
  std::unique_ptr<Exchange> exchange;  // none inside a single rank
};

// One pass over the planes of a stage: unpack a plane from the last exchange, transform it and
// pack it for the next exchange while it is in cache. Any of the three may be absent.
struct Pencil3d::Sweep {
  std::size_t planes = 0;
  std::size_t plane_stride = 0;  // elements between the starts of consecutive planes in data_
  const TransposeStep* unpack = nullptr;
  const FftwPlan* fft = nullptr;  // made for plane 0, run on each plane
  const TransposeStep* pack = nullptr;
  Exchange* exchange = nullptr;  // runs after the sweep when it packed
  // Our rank in that exchange when the pack puts our own block straight into recv_ (only in a
  // sweep that unpacks nothing, so no unread block is overwritten), else -1.
  int own_in_place = -1;
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
  Exchange* owner = row_->exchange ? row_->exchange.get() : column_->exchange.get();
  send_ = ComplexBuffer(owner, geometry_.buffer_elements());
  recv_ = ComplexBuffer(owner, geometry_.buffer_elements());
  data_.resize(geometry_.data_elements());

  // One plane of each stage's FFT, run at every plane. Without a row transpose stage 0's 2D
  // plan does stage 1's FFTs too.
  const bool merged = !geometry_.has_row_transpose();
  plane_plans_.reserve(6);
  StagePlans plans{};
  for (const Direction direction : {Direction::forward, Direction::backward}) {
    for (std::size_t k = 0; k < 3; ++k) {
      if (merged && k == 1) continue;  // part of stage 0's 2D plan
      const PencilStage& stage = geometry_.stage(k);
      if (stage.box.elements() == 0) continue;  // a rank holding nothing: FFTW cannot plan 0
      plane_plans_.emplace_back(strides(stage.transform), strides(stage.batches), data_.data(),
                                data_.data(), direction, options.rigor);
      plans[direction == Direction::backward][k] = &plane_plans_.back();
    }
  }

  // Forward walks stages 0..2 (0..4 back to the input layout), backward 2..4 (0..4 from it).
  const bool natural = options.natural_output;
  forward_ = compile(0, natural ? 4 : 2, false, plans);
  backward_ = compile(natural ? 0 : 2, 4, true, plans);
}

Pencil3d::~Pencil3d() = default;

// The sweeps over stages kStageAt[first..last]: each unpacks what the transpose into its stage
// brought, transforms (only in the stages of the transform proper) and packs for the transpose
// out of it.
std::vector<Pencil3d::Sweep> Pencil3d::compile(std::size_t first, std::size_t last, bool backward,
                                               const StagePlans& plans) const {
  const bool merged = !geometry_.has_row_transpose();
  const std::array<const TransposeStep*, 4> between{&row_->there, &column_->there, &column_->back,
                                                    &row_->back};
  const std::array<Exchange*, 4> exchange_between{row_->exchange.get(), column_->exchange.get(),
                                                  column_->exchange.get(), row_->exchange.get()};
  const std::array<int, 4> rank_in_exchange{row_topology_->rank(), column_topology_->rank(),
                                            column_topology_->rank(), row_topology_->rank()};
  std::vector<Sweep> schedule;
  const TransposeStep* incoming = nullptr;
  for (std::size_t k = first; k <= last; ++k) {
    const auto index = static_cast<std::size_t>(kStageAt[k]);
    if (merged && index == 1) continue;  // S1 is S0; the row transposes around it are identities
    // Only the stages of the transform proper compute; the rest only reorder.
    const bool computes = backward ? k >= 2 : k <= 2;
    Sweep sweep{geometry_.stage(index).planes,
                geometry_.stage(index).plane_stride,
                incoming,
                computes ? plans[backward][index] : nullptr,
                nullptr,
                nullptr};
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
    if (sweep.unpack != nullptr || sweep.fft != nullptr || sweep.pack != nullptr) {
      schedule.push_back(sweep);
    }
  }
  return schedule;
}

void Pencil3d::sweep(const Sweep& step) {
  auto* data = reinterpret_cast<std::byte*>(data_.data());
  auto* send = reinterpret_cast<std::byte*>(send_.data());
  const auto* recv = reinterpret_cast<const std::byte*>(recv_.data());
  for (std::size_t plane = 0; plane < step.planes; ++plane) {
    if (step.unpack != nullptr) {
      const ScopedPhase timed(timer_, "transpose");
      step.unpack->unpack(recv, data, plane, sizeof(Complex));
    }
    if (step.fft != nullptr) {
      const ScopedPhase timed(timer_, "compute");
      Complex* start = data_.data() + plane * step.plane_stride;
      step.fft->execute(start, start);
    }
    if (step.pack != nullptr) {
      const ScopedPhase timed(timer_, "transpose");
      step.pack->pack(data, send, plane, sizeof(Complex), step.own_in_place,
                      reinterpret_cast<std::byte*>(recv_.data()));
    }
  }
  if (step.exchange != nullptr) {
    const ScopedPhase timed(timer_, "transpose");
    if (step.own_in_place >= 0) {
      step.exchange->run_others(send, reinterpret_cast<std::byte*>(recv_.data()));
    } else {
      step.exchange->run(send, reinterpret_cast<std::byte*>(recv_.data()));
    }
  }
}

void Pencil3d::forward() {
  for (const Sweep& step : forward_)
    sweep(step);
}

void Pencil3d::backward() {
  for (const Sweep& step : backward_)
    sweep(step);
}

std::vector<Complex> Pencil3d::output_in_natural_order() const {
  const Box3& box = output_box();
  std::vector<Complex> natural(box.elements());
  const auto* from = reinterpret_cast<const std::byte*>(data_.data());
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
  auto* to = reinterpret_cast<std::byte*>(data_.data());
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
