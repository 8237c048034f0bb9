#include "pencil3d.hpp"

#include <algorithm>

#include "error.hpp"
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

Pencil3d::Pencil3d(const Topology& topology, const Shape3& shape, const ProcGrid& grid,
                   const Pencil3dOptions& options)
    : shape_(shape), grid_(grid), options_(options) {
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
  // stride z over planes that fit in cache; its pack swaps the leading axes to match.
  y_major_ = grid.rows > 1;
  const Shape3 s2 = y_major_ ? Shape3{y_late.count, n0, z_part.count} : stages_[2].extent;

  // Row transpose among the p1 ranks of row a; column transpose among the p0 ranks of column b.
  const mpi::Comm row_comm = mpi::Comm::split(topology.comm(), row, column);
  const mpi::Comm column_comm = mpi::Comm::split(topology.comm(), column, row);
  row_topology_ = std::make_unique<Topology>(topology, row_comm.get());
  column_topology_ = std::make_unique<Topology>(topology, column_comm.get());
  row_ = std::make_unique<Transpose>(Transpose{TransposeStep(s0, s1, {2, n2, 1, n1}, grid.columns),
                                               TransposeStep(s1, s0, {1, n1, 2, n2}, grid.columns),
                                               nullptr});
  column_ = std::make_unique<Transpose>(
      y_major_ ? Transpose{TransposeStep(s1, s2, {1, n1, 1, n0}, grid.rows, true),
                           TransposeStep(s2, s1, {1, n0, 1, n1}, grid.rows, true), nullptr}
               : Transpose{TransposeStep(s1, s2, {1, n1, 0, n0}, grid.rows),
                           TransposeStep(s2, s1, {0, n0, 1, n1}, grid.rows), nullptr});
  std::size_t buffer_elements = 0;
  const auto make_plan = [&](Transpose& step, const Topology& members, const std::string& spec) {
    if (step.there.is_identity()) return;
    // Each row (or column) decides for itself, so refusals are agreed over all ranks first.
    const Spec parsed = parse_spec(spec);
    const ExchangeProblem problem{members, step.there.block_elements() * sizeof(Complex)};
    if (const std::string why = agreed_refusal(parsed, problem, topology.comm()); !why.empty()) {
      throw UsageError(parsed.to_string() + " cannot run on some " +
                       (&step == row_.get() ? "row" : "column") + " of the " + grid.to_string() +
                       " grid: " + why);
    }
    step.exchange = make_exchange(parsed, problem);
    buffer_elements = std::max(buffer_elements, step.there.buffer_elements());
  };
  make_plan(*row_, *row_topology_, options.row_exchange);
  make_plan(*column_, *column_topology_, options.column_exchange);
  send_.resize(buffer_elements);
  recv_.resize(buffer_elements);
  data_.resize(std::max({stages_[0].elements(), stages_[1].elements(), stages_[2].elements()}));

  // In-place plans on data_. z lines are contiguous; without a row transpose z and y form one
  // 2D plan over contiguous [y][z] planes; y lines have stride q2; x lines have stride q2 in
  // the y-major layout (r1 * q2 otherwise). Writing the transposes' blocks straight from the
  // FFTs (out-of-place, scattered strides) was measured slower than a separate pack.
  const auto n = [](std::size_t v) { return static_cast<std::ptrdiff_t>(v); };
  const std::size_t q2 = s1[2];
  for (const Direction direction : {Direction::forward, Direction::backward}) {
    auto& plans = direction == Direction::forward ? forward_plans_ : backward_plans_;
    Complex* data = data_.data();
    if (row_->there.is_identity()) {
      plans[0] = FftwPlan({{n(n1), n(n2)}, {n(n2), 1}}, {{n(s0[0]), n(n1 * n2)}}, data, data,
                          direction, options.rigor);
    } else {
      plans[0] =
          FftwPlan({{n(n2), 1}}, {{n(s0[0] * s0[1]), n(n2)}}, data, data, direction, options.rigor);
      plans[1] = FftwPlan({{n(n1), n(q2)}}, {{n(s1[0]), n(n1 * q2)}, {n(q2), 1}}, data, data,
                          direction, options.rigor);
    }
    plans[2] = y_major_ ? FftwPlan({{n(n0), n(q2)}}, {{n(s2[0]), n(n0 * q2)}, {n(q2), 1}}, data,
                                   data, direction, options.rigor)
                        : FftwPlan({{n(n0), n(s2[1] * s2[2])}}, {{n(s2[1] * s2[2]), 1}}, data, data,
                                   direction, options.rigor);
  }
}

Pencil3d::~Pencil3d() = default;

void Pencil3d::compute(const FftwPlan& plan) {
  if (!plan) return;  // merged into the previous 2D plan
  const ScopedPhase timed(timer_, "compute");
  plan.execute();
}

void Pencil3d::transpose(const Transpose& step, bool inverse) {
  if (!step.exchange) return;
  const ScopedPhase timed(timer_, "transpose");
  const TransposeStep& direction = inverse ? step.back : step.there;
  auto* data = reinterpret_cast<std::byte*>(data_.data());
  auto* send = reinterpret_cast<std::byte*>(send_.data());
  auto* recv = reinterpret_cast<std::byte*>(recv_.data());
  direction.pack(data, send, sizeof(Complex));
  step.exchange->run(send, recv);
  direction.unpack(recv, data, sizeof(Complex));
}

void Pencil3d::forward() {
  compute(forward_plans_[0]);
  transpose(*row_, false);
  compute(forward_plans_[1]);
  transpose(*column_, false);
  compute(forward_plans_[2]);
  if (options_.natural_output) {
    transpose(*column_, true);
    transpose(*row_, true);
  }
}

void Pencil3d::backward() {
  if (options_.natural_output) {
    transpose(*row_, false);
    transpose(*column_, false);
  }
  compute(backward_plans_[2]);
  transpose(*column_, true);
  compute(backward_plans_[1]);
  transpose(*row_, true);
  compute(backward_plans_[0]);
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

std::string Pencil3d::describe() const {
  const auto name = [](const Transpose& step) {
    return step.exchange ? step.exchange->describe() : std::string("-");
  };
  return "row=" + name(*row_) + ",column=" + name(*column_);
}

}  // namespace a2afft::fft
