// The public 3D FFT (include/a2afft/fft3d.hpp): the caller's arguments checked collectively,
// then a Topology and a fft::Pencil3d built on them. Everything the plan needs is made here;
// forward() and backward() check the arrays (one MPI_Allreduce) and run the engine.

#include <a2afft/fft3d.hpp>

#include <type_traits>
#include <utility>
#include <variant>

#include "collective_checks.hpp"
#include "error.hpp"
#include "fftw_plan.hpp"
#include "geometry.hpp"
#include "pencil3d.hpp"
#include "registry.hpp"
#include "spec.hpp"
#include "topology/topology.hpp"

namespace a2afft {

// The engines (transpose/, fft/) live in a2afft::detail.
using namespace detail;

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
  // The engine of the plan's precision.
  std::variant<std::unique_ptr<fft::BasicPencil3d<double>>,
               std::unique_ptr<fft::BasicPencil3d<float>>>
      engine;
  PhaseTimer timer;  // the engine's; cleared before each call
  std::array<std::size_t, 3> shape{};
  fft::ProcGrid grid;
  Fft3dOptions options;

  // f(engine) on the engine, whichever precision it has.
  template <typename F>
  decltype(auto) visit(F&& f) const {
    return std::visit([&](const auto& held) -> decltype(auto) { return f(*held); }, engine);
  }
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
       library::layout_argument(options.layout),
       {"kind", std::to_string(static_cast<int>(options.kind))},
       {"precision", std::to_string(static_cast<int>(options.precision))},
       {"batch", std::to_string(options.batch)}},
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
  library::check_kind_precision_batch(options.kind, options.precision, options.batch, kWho);
  Plan& plan = *plan_;
  plan.shape = shape;
  plan.options = options;
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
  engine_options.real_input = options.kind == Kind::r2c;
  engine_options.batch = options.batch;
  const auto make = [&](auto real) {
    using Real = decltype(real);
    auto engine =
        library::planned_with_wisdom<Real>(options.wisdom_file, plan.topology->comm(), [&] {
          return std::make_unique<fft::BasicPencil3d<Real>>(*plan.topology, shape, plan.grid,
                                                            engine_options);
        });
    engine->attach_timer(&plan.timer);
    plan.engine = std::move(engine);
  };
  if (options.precision == Precision::single_precision) {
    make(float{});
  } else {
    make(double{});
  }
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

std::array<std::size_t, 2> Fft3d::exchange_block_bytes(const std::array<std::size_t, 3>& shape,
                                                       const std::array<int, 2>& grid,
                                                       Fft3dOutput output, Kind kind,
                                                       Precision precision, std::size_t batch) {
  const std::array<std::size_t, 3> moved{shape[0], shape[1],
                                         kind == Kind::r2c ? shape[2] / 2 + 1 : shape[2]};
  const fft::PencilGeometry geometry(
      moved, {grid[0], grid[1]}, 0,
      output == Fft3dOutput::natural ? fft::PencilOutput::natural : fft::PencilOutput::transposed);
  const std::size_t element_bytes =
      batch * (precision == Precision::single_precision ? sizeof(ComplexFloat) : sizeof(Complex));
  return {geometry.row_block_bytes(element_bytes), geometry.column_block_bytes(element_bytes)};
}

std::array<std::size_t, 3> Fft3d::shape() const {
  return plan_->shape;
}

std::array<int, 2> Fft3d::grid() const {
  return {plan_->grid.rows, plan_->grid.columns};
}

Kind Fft3d::kind() const {
  return plan_->options.kind;
}

Precision Fft3d::precision() const {
  return plan_->options.precision;
}

std::size_t Fft3d::batch() const {
  return plan_->options.batch;
}

Box3 Fft3d::input_box() const {
  return plan_->visit([](const auto& engine) { return public_box(engine.input_box(), false); });
}

Box3 Fft3d::output_box() const {
  return plan_->visit([](const auto& engine) {
    return public_box(engine.output_box(), engine.output_is_y_major());
  });
}

std::size_t Fft3d::input_elements() const {
  return plan_->visit([](const auto& engine) { return engine.input_scalars(); });
}

std::size_t Fft3d::output_elements() const {
  return plan_->visit([](const auto& engine) { return engine.output_scalars(); });
}

std::size_t Fft3d::in_place_elements() const {
  return plan_->visit([](const auto& engine) { return engine.in_place_elements(); });
}

// Every public forward() and backward(): the overload must fit the plan's kind and precision,
// then the arrays are checked on every rank and the engine runs.
template <typename In, typename Out>
void Fft3d::run(bool forward, const In* in, Out* out, std::string size_failure) {
  const std::string call =
      library::checked_call<In, Out>(plan_->options.precision, plan_->options.kind, forward, kWho);
  using Value = library::real_of<In, Out>;
  auto& engine = *std::get<std::unique_ptr<fft::BasicPencil3d<Value>>>(plan_->engine);
  const std::size_t in_count = forward ? engine.input_scalars() : engine.output_scalars();
  const std::size_t out_count = forward ? engine.output_scalars() : engine.input_scalars();
  library::check_arrays(in, in_count, out, out_count, call, plan_->topology->comm(),
                        std::move(size_failure));
  plan_->timer.clear();
  if constexpr (std::is_floating_point_v<Out>) {
    engine.backward(in, out);
  } else if constexpr (std::is_floating_point_v<In>) {
    engine.forward(in, out);
  } else if (forward) {
    engine.forward(in, out);
  } else {
    engine.backward(in, out);
  }
}

void Fft3d::forward(const Complex* in, Complex* out) {
  run(true, in, out);
}

void Fft3d::backward(const Complex* in, Complex* out) {
  run(false, in, out);
}

void Fft3d::forward(const ComplexFloat* in, ComplexFloat* out) {
  run(true, in, out);
}

void Fft3d::backward(const ComplexFloat* in, ComplexFloat* out) {
  run(false, in, out);
}

void Fft3d::forward(const double* in, Complex* out) {
  run(true, in, out);
}

void Fft3d::backward(const Complex* in, double* out) {
  run(false, in, out);
}

void Fft3d::forward(const float* in, ComplexFloat* out) {
  run(true, in, out);
}

void Fft3d::backward(const ComplexFloat* in, float* out) {
  run(false, in, out);
}

void Fft3d::forward(std::nullptr_t, std::nullptr_t) {
  library::dispatch(kind(), precision(), true, nullptr, nullptr,
                    [&](const auto* in, auto* out) { run(true, in, out); });
}

void Fft3d::backward(std::nullptr_t, std::nullptr_t) {
  library::dispatch(kind(), precision(), false, nullptr, nullptr,
                    [&](const auto* in, auto* out) { run(false, in, out); });
}

std::size_t Fft3d::input_bytes() const {
  return input_elements() * library::input_scalar_bytes(kind(), precision());
}

std::size_t Fft3d::output_bytes() const {
  return output_elements() * library::complex_bytes(precision());
}

std::size_t Fft3d::in_place_bytes() const {
  return in_place_elements() * library::complex_bytes(precision());
}

void Fft3d::execute(Direction direction, const void* in, std::size_t in_bytes, void* out,
                    std::size_t out_bytes) {
  const bool forward = direction == Direction::forward;
  std::string failure =
      library::size_failure(in, in_bytes, forward ? input_bytes() : output_bytes(), out, out_bytes,
                            forward ? output_bytes() : input_bytes(), in_place_bytes());
  library::dispatch(kind(), precision(), forward, in, out,
                    [&](const auto* typed_in, auto* typed_out) {
                      run(forward, typed_in, typed_out, std::move(failure));
                    });
}

std::size_t Fft3d::workspace_bytes() const {
  return plan_->visit([](const auto& engine) { return engine.workspace_bytes(); });
}

TransformTraffic Fft3d::traffic(Direction direction) const {
  TransformTraffic traffic = plan_->visit(
      [&](const auto& engine) { return engine.traffic(direction == Direction::backward); });
  const std::array<std::size_t, 3>& n = plan_->shape;
  traffic.flops = fft_flops(kind(), static_cast<double>(n[0] * n[1] * n[2]), batch()) /
                  static_cast<double>(plan_->grid.rows * plan_->grid.columns);
  return traffic;
}

std::string Fft3d::describe() const {
  return plan_->visit([](const auto& engine) { return engine.describe(); });
}

FftTimes Fft3d::last_times() const {
  return library::times_of(plan_->timer);
}

}  // namespace a2afft
