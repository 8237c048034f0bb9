// The public 3D FFT (include/a2afft/fft3d.hpp): the caller's arguments checked collectively,
// then a Topology and a fft::Pencil3d built on them. Everything the plan needs is made here;
// forward() and backward() check the arrays (one MPI_Allreduce) and run the engine.

#include <a2afft/fft3d.hpp>

#include <utility>

#include "collective_checks.hpp"
#include "error.hpp"
#include "fftw_plan.hpp"
#include "geometry.hpp"
#include "pencil3d.hpp"
#include "registry.hpp"
#include "spec.hpp"
#include "topology/topology.hpp"

namespace a2afft {

namespace {

constexpr const char* kWho = "Fft3d";

Box3 public_box(const fft::Box3& box, bool leading_swapped) {
  Box3 out;
  out.lower = box.offset;
  out.size = box.extent;
  if (leading_swapped) out.order = {1, 0, 2};
  return out;
}

// The grid the options ask for, checked against the number of ranks.
fft::ProcGrid grid_of(const std::array<int, 2>& grid, int ranks) {
  if (grid[0] == 0 && grid[1] == 0) return fft::near_square_grid(ranks);
  if (grid[0] < 1 || grid[1] < 1 || static_cast<long>(grid[0]) * grid[1] != ranks) {
    throw UsageError(std::string(kWho) + ": grid=" + std::to_string(grid[0]) + "x" +
                     std::to_string(grid[1]) + " is not valid on " + std::to_string(ranks) +
                     " ranks; expected p0 x p1 = " + std::to_string(ranks) + " (e.g. " +
                     fft::near_square_grid(ranks).to_string() + "), or 0x0 to choose");
  }
  return {grid[0], grid[1]};
}

}  // namespace

struct Fft3d::Plan {
  std::unique_ptr<Topology> topology;  // declared first: outlives the engine built on it
  std::unique_ptr<fft::Pencil3d> engine;
  PhaseTimer timer;  // the engine's; cleared before each call
  std::array<std::size_t, 3> shape{};
  fft::ProcGrid grid;
};

Fft3d::Fft3d(MPI_Comm comm, const std::array<std::size_t, 3>& shape, const Fft3dOptions& options)
    : plan_(std::make_unique<Plan>()) {
  library::check_communicator(comm, kWho);
  library::check_same_on_every_rank(
      {{"shape", fft::shape_to_string(shape)},
       {"grid", std::to_string(options.grid[0]) + "x" + std::to_string(options.grid[1])},
       {"row_exchange", options.row_exchange},
       {"column_exchange", options.column_exchange},
       {"rigor", std::to_string(static_cast<int>(options.rigor))},
       {"output", std::to_string(static_cast<int>(options.output))},
       {"wisdom_file", options.wisdom_file},
       {"scaling", std::to_string(static_cast<int>(options.scaling))},
       library::layout_argument(options.layout)},
      kWho, comm);
  // Every rank now holds the same arguments, so every check below ends alike on every rank.
  for (const std::size_t n : shape) {
    if (n == 0) {
      throw UsageError(std::string(kWho) + ": shape " + fft::shape_to_string(shape) +
                       " is not valid; every size must be at least 1");
    }
  }
  library::check_rigor_and_scaling(options.rigor, options.scaling, kWho);
  library::check_enum(static_cast<int>(options.output), 2, "output",
                      "transposed (0) or natural (1)", kWho);
  Plan& plan = *plan_;
  plan.shape = shape;
  plan.topology = std::make_unique<Topology>(
      comm, LayoutRequest::from_environment().overridden_by(options.layout));
  plan.grid = grid_of(options.grid, plan.topology->size());
  fft::Pencil3dOptions engine_options;
  // Names and keys are checked even for a transpose inside one rank, which runs no exchange;
  // values are checked against the layout where an exchange runs.
  engine_options.row_exchange = parse_spec(options.row_exchange);
  engine_options.column_exchange = parse_spec(options.column_exchange);
  check_spec(engine_options.row_exchange);
  check_spec(engine_options.column_exchange);
  engine_options.rigor = options.rigor;
  engine_options.natural_output = options.output == Fft3dOutput::natural;
  engine_options.scaling = options.scaling;
  plan.engine = library::planned_with_wisdom(options.wisdom_file, plan.topology->comm(), [&] {
    return std::make_unique<fft::Pencil3d>(*plan.topology, shape, plan.grid, engine_options);
  });
  plan.engine->attach_timer(&plan.timer);
}

Fft3d::~Fft3d() = default;
Fft3d::Fft3d(Fft3d&&) noexcept = default;
Fft3d& Fft3d::operator=(Fft3d&&) noexcept = default;

std::array<int, 2> Fft3d::default_grid(int ranks) {
  const fft::ProcGrid grid = fft::near_square_grid(ranks);
  return {grid.rows, grid.columns};
}

std::array<std::size_t, 2> Fft3d::exchange_block_bytes(const std::array<std::size_t, 3>& shape,
                                                       const std::array<int, 2>& grid,
                                                       Fft3dOutput output) {
  // Every rank's blocks are padded to the same size, so rank 0's geometry tells.
  const fft::PencilGeometry geometry(
      shape, {grid[0], grid[1]}, 0,
      output == Fft3dOutput::natural ? fft::PencilOutput::natural : fft::PencilOutput::transposed);
  return {geometry.row_block_bytes(), geometry.column_block_bytes()};
}

std::array<std::size_t, 3> Fft3d::shape() const {
  return plan_->shape;
}

std::array<int, 2> Fft3d::grid() const {
  return {plan_->grid.rows, plan_->grid.columns};
}

Box3 Fft3d::input_box() const {
  return public_box(plan_->engine->input_box(), false);
}

Box3 Fft3d::output_box() const {
  return public_box(plan_->engine->output_box(), plan_->engine->output_is_y_major());
}

std::size_t Fft3d::in_place_elements() const {
  return plan_->engine->in_place_elements();
}

void Fft3d::forward(const Complex* in, Complex* out) {
  library::check_arrays(in, input_elements(), out, output_elements(), "Fft3d::forward",
                        plan_->topology->comm());
  plan_->timer.clear();
  plan_->engine->forward(in, out);
}

void Fft3d::backward(const Complex* in, Complex* out) {
  library::check_arrays(in, output_elements(), out, input_elements(), "Fft3d::backward",
                        plan_->topology->comm());
  plan_->timer.clear();
  plan_->engine->backward(in, out);
}

std::size_t Fft3d::workspace_bytes() const {
  return plan_->engine->workspace_bytes();
}

std::string Fft3d::describe() const {
  return plan_->engine->describe();
}

FftTimes Fft3d::last_times() const {
  return library::times_of(plan_->timer);
}

}  // namespace a2afft
