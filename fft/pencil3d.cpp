#include "pencil3d.hpp"

#include <algorithm>

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

}  // namespace

Pencil3d::Pencil3d(const Topology& topology, const Shape3& shape, const ProcGrid& grid,
                   const Pencil3dOptions& options)
    : comm_(topology.comm()), shape_(shape), grid_(grid), options_(options) {
  if (grid.rows * grid.columns != topology.size()) {
    throw UsageError("grid " + grid.to_string() + " has " +
                     std::to_string(grid.rows * grid.columns) + " ranks but the job has " +
                     std::to_string(topology.size()));
  }
  check_grid_fits(shape, grid);
  const int row = topology.rank() / grid.columns;     // a: which part of x (and later y)
  const int column = topology.rank() % grid.columns;  // b: which part of y (and later z)
  const auto [n0, n1, n2] = shape;
  const Split x_part = split_range(n0, grid.rows, row);
  const Split y_part = split_range(n1, grid.columns, column);
  const Split z_part = split_range(n2, grid.columns, column);
  const Split y_late = split_range(n1, grid.rows, row);
  stages_[0] = {{x_part.offset, y_part.offset, 0}, {x_part.count, y_part.count, n2}};
  stages_[1] = {{x_part.offset, 0, z_part.offset}, {x_part.count, n1, z_part.count}};
  stages_[2] = {{0, y_late.offset, z_part.offset}, {n0, y_late.count, z_part.count}};
  const Shape3& s0 = stages_[0].extent;
  const Shape3& s1 = stages_[1].extent;
  // The last stage in memory: [y][x][z] when the column transpose exists, so x FFTs run at
  // stride z over planes that fit in cache, and every transpose keeps axis 0 of both sides
  // (TransposeStep packs by leading planes). With p0 = 1 it is the x-major S1 itself.
  y_major_ = grid.rows > 1;
  const Shape3 s2{y_late.count, n0, z_part.count};

  // Row transpose among the p1 ranks of row a; column transpose among the p0 ranks of column b.
  const mpi::Comm row_comm = mpi::Comm::split(topology.comm(), row, column);
  const mpi::Comm column_comm = mpi::Comm::split(topology.comm(), column, row);
  row_topology_ = std::make_unique<Topology>(topology, row_comm.get());
  column_topology_ = std::make_unique<Topology>(topology, column_comm.get());
  row_ = std::make_unique<Transpose>(Transpose{TransposeStep(s0, s1, {2, n2, 1, n1}, grid.columns),
                                               TransposeStep(s1, s0, {1, n1, 2, n2}, grid.columns),
                                               nullptr});
  column_ = std::make_unique<Transpose>(
      Transpose{TransposeStep(s1, s2, {1, n1, 1, n0}, grid.rows, true),
                TransposeStep(s2, s1, {1, n0, 1, n1}, grid.rows, true), nullptr});
  std::size_t buffer_elements = 0;
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
    buffer_elements = std::max(buffer_elements, step.there.buffer_elements());
  };
  make_plan(*row_, *row_topology_, options.row_exchange);
  make_plan(*column_, *column_topology_, options.column_exchange);
  // One pair of buffers serves both transposes; the row exchange's memory, when there is one.
  Exchange* owner = row_->exchange ? row_->exchange.get() : column_->exchange.get();
  send_ = ComplexBuffer(owner, buffer_elements);
  recv_ = ComplexBuffer(owner, buffer_elements);
  data_.resize(std::max({stages_[0].elements(), stages_[1].elements(), stages_[2].elements()}));

  // Planes of each stage and the one-plane FFT along its axis. z lines are contiguous; y lines
  // have stride q2; x lines stride q2 in the y-major S2 (whose planes are y), n1 * q2 in the
  // x-major one (whose "planes" are the y columns, q2 apart). Without a row transpose S0 and S1
  // are one stage whose FFT is a single 2D plan over contiguous [y][z] planes.
  const auto n = [](std::size_t v) { return static_cast<std::ptrdiff_t>(v); };
  const std::size_t q2 = s1[2];
  const bool merged = row_->there.is_identity();
  struct Stage {
    std::size_t planes, plane_stride;
    std::vector<Stride> transform, batches;
  };
  const std::array<Stage, 3> stage{{
      merged ? Stage{s0[0], n1 * n2, {{n(n1), n(n2)}, {n(n2), 1}}, {}}
             : Stage{s0[0], s0[1] * n2, {{n(n2), 1}}, {{n(s0[1]), n(n2)}}},
      {s1[0], n1 * q2, {{n(n1), n(q2)}}, {{n(q2), 1}}},
      y_major_ ? Stage{s2[0], n0 * q2, {{n(n0), n(q2)}}, {{n(q2), 1}}}
               : Stage{n1, q2, {{n(n0), n(n1 * q2)}}, {{n(q2), 1}}},
  }};
  plane_plans_.reserve(6);
  std::array<std::array<const FftwPlan*, 3>, 2> plans{};  // [backward][stage]
  for (const Direction direction : {Direction::forward, Direction::backward}) {
    for (std::size_t k = 0; k < 3; ++k) {
      if (merged && k == 1) continue;  // part of stage 0's 2D plan
      plane_plans_.emplace_back(stage[k].transform, stage[k].batches, data_.data(), data_.data(),
                                direction, options.rigor);
      plans[direction == Direction::backward][k] = &plane_plans_.back();
    }
  }

  // Forward walks stages 0..2 (0..4 back to the input layout), backward 2..4 (0..4 from it).
  const std::array<const TransposeStep*, 4> between{&row_->there, &column_->there, &column_->back,
                                                    &row_->back};
  const std::array<Exchange*, 4> exchange_between{row_->exchange.get(), column_->exchange.get(),
                                                  column_->exchange.get(), row_->exchange.get()};
  const std::array<int, 4> rank_in_exchange{row_topology_->rank(), column_topology_->rank(),
                                            column_topology_->rank(), row_topology_->rank()};
  const auto compile = [&](std::size_t first, std::size_t last, bool backward) {
    std::vector<Sweep> schedule;
    const TransposeStep* incoming = nullptr;
    for (std::size_t k = first; k <= last; ++k) {
      const auto index = static_cast<std::size_t>(kStageAt[k]);
      if (merged && index == 1) continue;  // S1 is S0; the row transposes around it are identities
      // Only the stages of the transform proper compute; the rest only reorder.
      const bool computes = backward ? k >= 2 : k <= 2;
      Sweep sweep{stage[index].planes,
                  stage[index].plane_stride,
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
  };
  const bool natural = options.natural_output;
  forward_ = compile(0, natural ? 4 : 2, false);
  backward_ = compile(natural ? 0 : 2, 4, true);
}

Pencil3d::~Pencil3d() = default;

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
  return gather_global(natural.data(), output_box(), shape_, comm_);
}

std::string Pencil3d::describe() const {
  const auto name = [](const Transpose& step) {
    return step.exchange ? step.exchange->describe() : std::string("-");
  };
  return "row=" + name(*row_) + ",column=" + name(*column_);
}

}  // namespace a2afft::fft
