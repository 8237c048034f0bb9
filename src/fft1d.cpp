// The public 1D FFT (include/a2afft/fft1d.hpp): the caller's arguments checked collectively,
// then a Topology and a fft::BasicSixStep1d of the plan's precision built on them. Everything is
// planned here; forward() and backward() check the arrays (one MPI_Allreduce) and run the engine.

#include <a2afft/fft1d.hpp>

#include <stdexcept>
#include <type_traits>
#include <utility>
#include <variant>

#include "collective_checks.hpp"
#include "error.hpp"
#include "fftw_plan.hpp"
#include "registry.hpp"
#include "six_step1d.hpp"
#include "six_step_geometry.hpp"
#include "spec.hpp"
#include "topology/topology.hpp"

namespace a2afft {

// The engines (transpose/, fft/) live in a2afft::detail.
using namespace detail;

namespace {

constexpr const char* kWho = "Fft1d";

}  // namespace

struct Fft1d::Plan {
  std::unique_ptr<Topology> topology;  // declared first: outlives the engine built on it
  // The engine of the plan's precision.
  std::variant<std::unique_ptr<fft::BasicSixStep1d<double>>,
               std::unique_ptr<fft::BasicSixStep1d<float>>>
      engine;
  PhaseTimer timer;  // the engine's; cleared before each call
  Fft1dOptions options;

  // f(engine) on the engine, whichever precision it has.
  template <typename F>
  decltype(auto) visit(F&& f) const {
    return std::visit([&](const auto& held) -> decltype(auto) { return f(*held); }, engine);
  }
};

Fft1d::Fft1d(MPI_Comm comm, std::size_t n, const Fft1dOptions& options)
    : plan_(std::make_unique<Plan>()) {
  library::check_communicator(comm, kWho);
  library::check_same_on_every_rank(
      {{"n", std::to_string(n)},
       {"exchange", options.exchange},
       {"n1", std::to_string(options.n1)},
       {"rigor", std::to_string(static_cast<int>(options.rigor))},
       {"output", std::to_string(static_cast<int>(options.output))},
       {"wisdom_file", options.wisdom_file},
       {"scaling", std::to_string(static_cast<int>(options.scaling))},
       library::layout_argument(options.layout),
       {"precision", std::to_string(static_cast<int>(options.precision))},
       {"batch", std::to_string(options.batch)}},
      kWho, comm);
  // Every rank now holds the same arguments, so every check below ends alike on every rank.
  library::check_rigor_and_scaling(options.rigor, options.scaling, kWho);
  library::check_enum(static_cast<int>(options.output), 2, "output", "natural (0) or scrambled (1)",
                      kWho);
  library::check_kind_precision_batch(Kind::c2c, options.precision, options.batch, kWho);
  Plan& plan = *plan_;
  plan.options = options;
  plan.topology = std::make_unique<Topology>(
      comm, LayoutRequest::from_environment().overridden_by(options.layout));
  fft::SixStep1dOptions engine_options;
  engine_options.exchange = parse_spec(options.exchange);
  check_spec(engine_options.exchange);  // names and keys, even on one rank
  engine_options.n1 = options.n1;
  engine_options.rigor = options.rigor;
  engine_options.scrambled_output = options.output == Fft1dOutput::scrambled;
  engine_options.scaling = options.scaling;
  engine_options.batch = options.batch;
  const auto make = [&](auto real) {
    using Real = decltype(real);
    auto engine =
        library::planned_with_wisdom<Real>(options.wisdom_file, plan.topology->comm(), [&] {
          return std::make_unique<fft::BasicSixStep1d<Real>>(*plan.topology, n, engine_options);
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

Fft1d::~Fft1d() = default;
Fft1d::Fft1d(Fft1d&&) noexcept = default;
Fft1d& Fft1d::operator=(Fft1d&&) noexcept = default;

std::array<std::size_t, 2> Fft1d::split(std::size_t n, int ranks, std::size_t n1) {
  const fft::SixStepSplit split = fft::choose_six_step_split(n, ranks, n1);
  return {split.n1, split.n2};
}

std::size_t Fft1d::exchange_block_bytes(std::size_t n, int ranks) {
  return fft::SixStepGeometry(n, ranks).block_bytes();
}

std::size_t Fft1d::exchange_block_bytes(std::size_t n, int ranks, Precision precision,
                                        std::size_t batch) {
  return fft::SixStepGeometry(n, ranks).block_bytes(batch * library::complex_bytes(precision));
}

std::size_t Fft1d::length() const {
  return plan_->visit([](const auto& engine) { return engine.length(); });
}

std::size_t Fft1d::n1() const {
  return plan_->visit([](const auto& engine) { return engine.split().n1; });
}

std::size_t Fft1d::n2() const {
  return plan_->visit([](const auto& engine) { return engine.split().n2; });
}

Precision Fft1d::precision() const {
  return plan_->options.precision;
}

std::size_t Fft1d::batch() const {
  return plan_->options.batch;
}

std::size_t Fft1d::local_points() const {
  return plan_->visit([](const auto& engine) { return engine.local_length(); });
}

std::size_t Fft1d::local_elements() const {
  return plan_->visit([](const auto& engine) { return engine.local_scalars(); });
}

std::size_t Fft1d::input_offset() const {
  return plan_->visit([](const auto& engine) { return engine.input_box().offset[2]; });
}

std::size_t Fft1d::output_index(std::size_t i) const {
  return plan_->visit([i](const auto& engine) { return engine.output_index(i); });
}

// Every public forward() and backward(): the overload must fit the plan's precision, then the
// arrays are checked on every rank and the engine runs. execute() and the nullptr overloads
// instantiate the real-array overloads of library::dispatch too; a c2c plan refuses them.
template <typename In, typename Out>
void Fft1d::run(bool forward, const In* in, Out* out, std::string size_failure) {
  const std::string call =
      library::checked_call<In, Out>(plan_->options.precision, Kind::c2c, forward, kWho);
  if constexpr (library::has_real_side<In, Out>) {
    throw std::logic_error(call + ": a real array passed the overload check of a c2c plan");
  } else {
    auto& engine =
        *std::get<std::unique_ptr<fft::BasicSixStep1d<library::real_of<In, Out>>>>(plan_->engine);
    library::check_arrays(in, engine.local_scalars(), out, engine.local_scalars(), call,
                          plan_->topology->comm(), std::move(size_failure));
    plan_->timer.clear();
    if (forward) {
      engine.forward(in, out);
    } else {
      engine.backward(in, out);
    }
  }
}

void Fft1d::forward(const Complex* in, Complex* out) {
  run(true, in, out);
}

void Fft1d::backward(const Complex* in, Complex* out) {
  run(false, in, out);
}

void Fft1d::forward(const ComplexFloat* in, ComplexFloat* out) {
  run(true, in, out);
}

void Fft1d::backward(const ComplexFloat* in, ComplexFloat* out) {
  run(false, in, out);
}

void Fft1d::forward(std::nullptr_t, std::nullptr_t) {
  library::dispatch(Kind::c2c, precision(), true, nullptr, nullptr,
                    [&](const auto* in, auto* out) { run(true, in, out); });
}

void Fft1d::backward(std::nullptr_t, std::nullptr_t) {
  library::dispatch(Kind::c2c, precision(), false, nullptr, nullptr,
                    [&](const auto* in, auto* out) { run(false, in, out); });
}

std::size_t Fft1d::local_bytes() const {
  return local_elements() * library::complex_bytes(precision());
}

void Fft1d::execute(Direction direction, const void* in, std::size_t in_bytes, void* out,
                    std::size_t out_bytes) {
  const bool forward = direction == Direction::forward;
  const std::size_t bytes = local_bytes();
  std::string failure = library::size_failure(in, in_bytes, bytes, out, out_bytes, bytes, bytes);
  library::dispatch(Kind::c2c, precision(), forward, in, out,
                    [&](const auto* typed_in, auto* typed_out) {
                      run(forward, typed_in, typed_out, std::move(failure));
                    });
}

std::size_t Fft1d::workspace_bytes() const {
  return plan_->visit([](const auto& engine) { return engine.workspace_bytes(); });
}

TransformTraffic Fft1d::traffic(Direction direction) const {
  return plan_->visit([&](const auto& engine) {
    TransformTraffic traffic = engine.traffic(direction == Direction::backward);
    traffic.flops = fft_flops(Kind::c2c, static_cast<double>(engine.length()), engine.batch()) /
                    static_cast<double>(engine.geometry().ranks());
    return traffic;
  });
}

std::string Fft1d::describe() const {
  return plan_->visit([](const auto& engine) { return engine.describe(); });
}

FftTimes Fft1d::last_times() const {
  return library::times_of(plan_->timer);
}

}  // namespace a2afft
