// The public 3D FFT (include/a2afft/fft3d.hpp): the caller's arguments checked collectively,
// then a Topology and a fft::BasicPencil3d of the plan's precision built on them
// (detail::begin_plan, plan_engine). Everything the plan needs is made here; forward() and
// backward() are DistributedFft's. Fft2d plans through make_pencil_core too.

#include <a2afft/fft3d.hpp>

#include <cstdio>
#include <utility>

#include "axes.hpp"
#include "collective_checks.hpp"
#include "error.hpp"
#include "fft_core.hpp"
#include "fftw_plan.hpp"
#include "geometry.hpp"
#include "make_exchange.hpp"
#include "pencil3d.hpp"
#include "plan_search.hpp"
#include "reshaped_engine.hpp"
#include "spec.hpp"
#include "topology/topology.hpp"
#include "wisdom.hpp"

namespace a2afft {

namespace {

constexpr const char* kWho = "Fft3d";

}  // namespace

namespace detail {
namespace {

// The grid the options ask for, checked against the number of ranks.
fft::ProcGrid grid_of(const std::array<int, 2>& grid, int ranks, const char* who) {
  if (grid[0] == 0 && grid[1] == 0) return fft::near_square_grid(ranks);
  if (grid[0] < 1 || grid[1] < 1 || static_cast<long>(grid[0]) * grid[1] != ranks) {
    throw UsageError(
        std::string(who) + ": grid=" + std::to_string(grid[0]) + "x" + std::to_string(grid[1]) +
        " is not valid on " + std::to_string(ranks) + " ranks; expected p0 x p1 = " +
        std::to_string(ranks) + " (e.g. " + fft::near_square_grid(ranks).to_string() +
        "), 0x0 for the rule's grid, or -1x-1 (timed_grid, A2AFFT_GRID_TIMED) to time the "
        "candidates");
  }
  return {grid[0], grid[1]};
}

// What a timed plan's wisdom key names of the plan besides the machine: everything that
// changes which grid and thread count are fastest.
std::string timed_pencil_arguments(const std::string& shape_text, const Fft3dOptions& options,
                                   bool two_d) {
  return std::string(two_d ? "2d " : "") + shape_text + " | " + options.transform().to_string() +
         " | exchange " + options.exchange + ", row " + options.row_exchange + ", column " +
         options.column_exchange + " | output " + std::to_string(static_cast<int>(options.output)) +
         " | rigor " + std::to_string(static_cast<int>(options.rigor)) + " | threads " +
         std::to_string(options.threads);
}

// grid = timed_grid or threads = timed_threads: every candidate grid (or the options' one)
// with every candidate thread count (or the options' one), timed by timed_plan().
std::unique_ptr<FftCore> timed_pencil_core(MPI_Comm comm, const char* who,
                                           const std::array<std::size_t, 3>& shape,
                                           const std::string& shape_text,
                                           const Fft3dOptions& options, bool two_d,
                                           const TimedParts& parts) {
  const auto plan = [&](const PlanChoice& choice) {
    Fft3dOptions fixed = options;
    fixed.grid = choice.grid;
    fixed.threads = choice.threads;
    return make_pencil_core(comm, who, shape, shape_text, fixed, two_d);
  };
  const auto candidates = [&](const FftCore& rule) {
    const std::vector<std::array<int, 2>> grids =
        parts.grid ? grid_candidates(rule.topology->size(), shape)
                   : std::vector<std::array<int, 2>>{rule.grid};
    const std::vector<int> counts = parts.threads
                                        ? thread_candidates(cores_per_rank(rule.topology->comm()))
                                        : std::vector<int>{rule.threads};
    std::vector<PlanChoice> all;
    for (const std::array<int, 2>& grid : grids) {
      for (const int threads : counts)
        all.push_back({grid, threads});
    }
    return all;
  };
  // The rule: the near-square grid where grids are timed, one thread where counts are.
  const PlanChoice rule{parts.grid ? std::array<int, 2>{0, 0} : options.grid,
                        parts.threads ? 1 : options.threads};
  return timed_plan(comm, rule, parts, plan, candidates,
                    timed_pencil_arguments(shape_text, options, two_d));
}

// The engine's padded shape: the 3D shape, or 1 x n0 x n1 for a 2D plan, whose axes the
// transform's factors name.
fft::Shape3 padded_engine_shape(const Transform& transform, const std::array<std::size_t, 3>& shape,
                                bool two_d) {
  const std::vector<std::size_t> padded =
      two_d ? padded_shape(transform, {shape[1], shape[2]})
            : padded_shape(transform, {shape[0], shape[1], shape[2]});
  return two_d ? fft::Shape3{1, padded[0], padded[1]}
               : fft::Shape3{padded[0], padded[1], padded[2]};
}

// What a padded plan does not do (yet): every rank has the same options, so every rank throws.
void refuse_with_padding(const Fft3dOptions& options, const char* who) {
  const std::string padding = "padding " + padding_to_string(options.padding);
  if (options.output == Fft3dOutput::natural) {
    throw UsageError(std::string(who) + ": " + padding +
                     " needs the transposed output; a padded plan's output stays where its last "
                     "stage leaves it (set output transposed, or padding to 1)");
  }
  if (options.input_box || options.output_box) {
    throw UsageError(std::string(who) + ": " + padding +
                     " takes the plan's own boxes; input_box and output_box cannot be set with it");
  }
}

// The pencil engine of one precision behind the public front end.
template <typename Real>
class PencilEngine final : public detail::FftEngine {
 public:
  using Complex = std::complex<Real>;
  PencilEngine(std::unique_ptr<fft::BasicPencil3d<Real>> engine, bool two_d)
      : engine_(std::move(engine)), two_d_(two_d) {}
  void forward(const void* in, void* out) override { engine_->forward(in, out); }
  void backward(const void* in, void* out) override { engine_->backward(in, out); }
  Box3 input_box() const override { return detail::public_box(engine_->input_box(), false); }
  Box3 output_box() const override {
    return detail::public_box(engine_->output_box(), engine_->output_is_y_major());
  }
  std::size_t input_scalars() const override { return engine_->input_scalars(); }
  std::size_t output_scalars() const override { return engine_->output_scalars(); }
  std::size_t in_place_elements() const override { return engine_->in_place_elements(); }
  std::size_t workspace_bytes() const override { return engine_->workspace_bytes(); }
  TransformTraffic traffic(bool backward) const override { return engine_->traffic(backward); }
  // A 2D plan (a 1 x P grid) has one transpose, the row's: its exchange alone.
  std::string describe() const override {
    return two_d_ ? engine_->describe_exchange(fft::PencilTranspose::row) : engine_->describe();
  }

 private:
  std::unique_ptr<fft::BasicPencil3d<Real>> engine_;
  bool two_d_;
};

}  // namespace

std::unique_ptr<FftCore> make_pencil_core(MPI_Comm comm, const char* who,
                                          const std::array<std::size_t, 3>& shape,
                                          const std::string& shape_text,
                                          const Fft3dOptions& options, bool two_d) {
  const TimedParts timed{!two_d && options.grid == timed_grid, options.threads == timed_threads};
  if (timed.grid || timed.threads) {
    return timed_pencil_core(comm, who, shape, shape_text, options, two_d, timed);
  }
  std::unique_ptr<FftCore> core =
      begin_plan(comm, who, options,
                 {{"shape", shape_text},
                  {"grid", std::to_string(options.grid[0]) + "x" + std::to_string(options.grid[1])},
                  {"row_exchange", options.row_exchange},
                  {"column_exchange", options.column_exchange},
                  {"output", std::to_string(static_cast<int>(options.output))}},
                 two_d ? std::vector<std::size_t>{shape[1], shape[2]}
                       : std::vector<std::size_t>{shape[0], shape[1], shape[2]});
  for (const std::size_t n : shape) {
    if (n == 0) {
      throw UsageError(std::string(who) + ": shape " + shape_text +
                       " is not valid; every size must be at least 1");
    }
  }
  library::check_enum(static_cast<int>(options.output), 2, "output",
                      "transposed (0) or natural (1)", who);
  const int ranks = core->topology->size();
  const fft::ProcGrid grid = two_d ? fft::ProcGrid{1, ranks} : grid_of(options.grid, ranks, who);
  core->grid = {grid.rows, grid.columns};
  fft::Pencil3dOptions engine_options;
  // Names and keys are checked even for a transpose inside one rank, which runs no exchange;
  // values are checked against the layout where an exchange runs.
  const auto spec_of = [&](const std::string& own_spec) {
    const Spec spec = parse_spec(own_spec.empty() ? options.exchange : own_spec);
    check_spec(spec);
    return spec;
  };
  engine_options.row_exchange = spec_of(options.row_exchange);
  engine_options.column_exchange = spec_of(options.column_exchange);
  engine_options.rigor = options.rigor;
  engine_options.natural_output = options.output == Fft3dOutput::natural;
  engine_options.scaling = options.scaling;
  // A 2D plan's array is 1 x n0 x n1: its first axis is not transformed.
  const std::vector<AxisKind>& axes = core->transform.axes;
  engine_options.axes = two_d ? std::array<AxisKind, 3>{AxisKind::none, axes[0], axes[1]}
                              : std::array<AxisKind, 3>{axes[0], axes[1], axes[2]};
  engine_options.real_input = core->transform.kind == Kind::r2c;
  engine_options.batch = options.batch;
  engine_options.threads = options.threads;
  if (core->transform.padded()) {
    engine_options.padded = padded_engine_shape(core->transform, shape, two_d);
    refuse_with_padding(options, who);
  }
  const Transform& transform = core->transform;
  const SideBytes bytes{transform.batch * transform.input_scalar_bytes(),
                        transform.batch * transform.output_scalar_bytes(), transform.batch,
                        transform.output_scalar_bytes()};
  const fft::Shape3 spectrum{shape[0], shape[1],
                             transform.kind == Kind::r2c ? shape[2] / 2 + 1 : shape[2]};
  plan_engine(*core, options, [&](auto real, PhaseTimer* timer) {
    using Real = decltype(real);
    auto engine =
        std::make_unique<fft::BasicPencil3d<Real>>(*core->topology, shape, grid, engine_options);
    engine->attach_timer(timer);
    return with_reshapes(std::make_unique<PencilEngine<Real>>(std::move(engine), two_d),
                         *core->topology, shape, spectrum, options.input_box, options.output_box,
                         bytes, parse_spec(options.reshape_exchange), timer);
  });
  return core;
}

}  // namespace detail

Fft3d::Fft3d(MPI_Comm comm, const std::array<std::size_t, 3>& shape, const Fft3dOptions& options)
    : DistributedFft(detail::make_pencil_core(comm, kWho, shape,
                                              detail::fft::shape_to_string(shape), options, false)),
      shape_(shape) {}

Fft3d::~Fft3d() = default;
Fft3d::Fft3d(Fft3d&&) noexcept = default;
Fft3d& Fft3d::operator=(Fft3d&&) noexcept = default;
std::vector<std::array<int, 2>> Fft3d::grid_candidates(int ranks,
                                                       const std::array<std::size_t, 3>& shape) {
  return detail::grid_candidates(ranks, shape);
}

std::array<int, 2> Fft3d::default_grid(int ranks) {
  const detail::fft::ProcGrid grid = detail::fft::near_square_grid(ranks);
  return {grid.rows, grid.columns};
}

std::array<std::size_t, 2> Fft3d::exchange_block_bytes(const std::array<std::size_t, 3>& shape,
                                                       const std::array<int, 2>& grid,
                                                       Fft3dOutput output) {
  // Every rank's blocks are padded to the same size, so rank 0's geometry tells.
  const detail::fft::PencilGeometry geometry(shape, {grid[0], grid[1]}, 0,
                                             output == Fft3dOutput::natural
                                                 ? detail::fft::PencilOutput::natural
                                                 : detail::fft::PencilOutput::transposed);
  return {geometry.row_block_bytes(), geometry.column_block_bytes()};
}

std::array<std::size_t, 2> Fft3d::exchange_block_bytes(const std::array<std::size_t, 3>& shape,
                                                       const std::array<int, 2>& grid,
                                                       Fft3dOutput output, Kind kind,
                                                       Precision precision, std::size_t batch) {
  const std::array<std::size_t, 3> moved{shape[0], shape[1],
                                         kind == Kind::r2c ? shape[2] / 2 + 1 : shape[2]};
  const detail::fft::PencilGeometry geometry(moved, {grid[0], grid[1]}, 0,
                                             output == Fft3dOutput::natural
                                                 ? detail::fft::PencilOutput::natural
                                                 : detail::fft::PencilOutput::transposed);
  // r2r moves reals, the others complex numbers.
  const std::size_t element_bytes =
      batch * (precision == Precision::single_precision ? sizeof(ComplexFloat) : sizeof(Complex)) /
      (kind == Kind::r2r ? 2 : 1);
  return {geometry.row_block_bytes(element_bytes), geometry.column_block_bytes(element_bytes)};
}

std::array<std::size_t, 3> Fft3d::shape() const {
  return shape_;
}

std::array<std::size_t, 3> Fft3d::padded_shape() const {
  const std::vector<std::size_t> padded =
      a2afft::padded_shape(core().transform, {shape_[0], shape_[1], shape_[2]});
  return {padded[0], padded[1], padded[2]};
}

std::array<int, 2> Fft3d::grid() const {
  return core().grid;
}

Box3 Fft3d::input_box() const {
  return core().engine->input_box();
}

Box3 Fft3d::output_box() const {
  return core().engine->output_box();
}

}  // namespace a2afft
