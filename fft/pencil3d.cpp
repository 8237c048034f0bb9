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

namespace {

std::ptrdiff_t signed_size(std::size_t n) {
  return static_cast<std::ptrdiff_t>(n);
}

}  // namespace

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
  const Shape3& s2 = stages_[2].extent;

  // Row transpose among the p1 ranks of row a; column transpose among the p0 ranks of column b.
  const mpi::Comm row_comm = mpi::Comm::split(topology.comm(), row, column);
  const mpi::Comm column_comm = mpi::Comm::split(topology.comm(), column, row);
  row_topology_ = std::make_unique<Topology>(topology, row_comm.get());
  column_topology_ = std::make_unique<Topology>(topology, column_comm.get());
  row_ = std::make_unique<Transpose>(
      Transpose{TransposeStep(s0, s1, {2, n2, 1, n1}, grid.columns, column),
                TransposeStep(s1, s0, {1, n1, 2, n2}, grid.columns, column), nullptr});
  column_ = std::make_unique<Transpose>(
      Transpose{TransposeStep(s1, s2, {1, n1, 0, n0}, grid.rows, row),
                TransposeStep(s2, s1, {0, n0, 1, n1}, grid.rows, row), nullptr});
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

  // In-place plans on data_: z lines are contiguous; y lines have stride q2 inside each x slab;
  // x lines have stride r1 * q2 and are batched over the contiguous (y, z) plane.
  for (const Direction direction : {Direction::forward, Direction::backward}) {
    auto& plans = direction == Direction::forward ? forward_plans_ : backward_plans_;
    Complex* data = data_.data();
    plans[0] = FftwPlan({signed_size(n2), 1}, {{signed_size(s0[0] * s0[1]), signed_size(n2)}}, data,
                        data, direction, options.rigor);
    plans[1] = FftwPlan({signed_size(n1), signed_size(s1[2])},
                        {{signed_size(s1[0]), signed_size(n1 * s1[2])}, {signed_size(s1[2]), 1}},
                        data, data, direction, options.rigor);
    plans[2] = FftwPlan({signed_size(n0), signed_size(s2[1] * s2[2])},
                        {{signed_size(s2[1] * s2[2]), 1}}, data, data, direction, options.rigor);
  }
}

Pencil3d::~Pencil3d() = default;

void Pencil3d::compute(const FftwPlan& plan) {
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

std::string Pencil3d::describe() const {
  const auto name = [](const Transpose& step) {
    return step.exchange ? step.exchange->describe() : std::string("-");
  };
  return "row=" + name(*row_) + ",column=" + name(*column_);
}

}  // namespace a2afft::fft
