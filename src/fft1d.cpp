// The public 1D FFT (include/a2afft/fft1d.hpp): the caller's arguments checked collectively,
// then a Topology and a fft::SixStep1d built on them. Everything is planned here; forward() and
// backward() check the arrays (one MPI_Allreduce) and run the engine.

#include <a2afft/fft1d.hpp>

#include <utility>

#include "collective_checks.hpp"
#include "error.hpp"
#include "fftw_plan.hpp"
#include "registry.hpp"
#include "six_step1d.hpp"
#include "six_step_geometry.hpp"
#include "spec.hpp"
#include "topology/topology.hpp"

namespace a2afft {

namespace {

constexpr const char* kWho = "Fft1d";

}  // namespace

struct Fft1d::Plan {
  std::unique_ptr<Topology> topology;  // declared first: outlives the engine built on it
  std::unique_ptr<fft::SixStep1d> engine;
  PhaseTimer timer;  // the engine's; cleared before each call
};

Fft1d::Fft1d(MPI_Comm comm, std::size_t n, const Fft1dOptions& options)
    : plan_(std::make_unique<Plan>()) {
  library::check_communicator(comm, kWho);
  library::check_same_on_every_rank({{"n", std::to_string(n)},
                                     {"exchange", options.exchange},
                                     {"n1", std::to_string(options.n1)},
                                     {"rigor", std::to_string(static_cast<int>(options.rigor))},
                                     {"output", std::to_string(static_cast<int>(options.output))},
                                     {"wisdom_file", options.wisdom_file},
                                     {"scaling", std::to_string(static_cast<int>(options.scaling))},
                                     library::layout_argument(options.layout)},
                                    kWho, comm);
  // Every rank now holds the same arguments, so every check below ends alike on every rank.
  library::check_rigor_and_scaling(options.rigor, options.scaling, kWho);
  library::check_enum(static_cast<int>(options.output), 2, "output", "natural (0) or scrambled (1)",
                      kWho);
  Plan& plan = *plan_;
  plan.topology = std::make_unique<Topology>(
      comm, LayoutRequest::from_environment().overridden_by(options.layout));
  fft::SixStep1dOptions engine_options;
  engine_options.exchange = parse_spec(options.exchange);
  check_spec(engine_options.exchange);  // names and keys, even on one rank
  engine_options.n1 = options.n1;
  engine_options.rigor = options.rigor;
  engine_options.scrambled_output = options.output == Fft1dOutput::scrambled;
  engine_options.scaling = options.scaling;
  plan.engine = library::planned_with_wisdom(options.wisdom_file, plan.topology->comm(), [&] {
    return std::make_unique<fft::SixStep1d>(*plan.topology, n, engine_options);
  });
  plan.engine->attach_timer(&plan.timer);
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

std::size_t Fft1d::length() const {
  return plan_->engine->length();
}

std::size_t Fft1d::n1() const {
  return plan_->engine->split().n1;
}

std::size_t Fft1d::n2() const {
  return plan_->engine->split().n2;
}

std::size_t Fft1d::local_elements() const {
  return plan_->engine->local_length();
}

std::size_t Fft1d::input_offset() const {
  return plan_->engine->input_box().offset[2];
}

std::size_t Fft1d::output_index(std::size_t i) const {
  return plan_->engine->output_index(i);
}

void Fft1d::forward(const Complex* in, Complex* out) {
  library::check_arrays(in, local_elements(), out, local_elements(), "Fft1d::forward",
                        plan_->topology->comm());
  plan_->timer.clear();
  plan_->engine->forward(in, out);
}

void Fft1d::backward(const Complex* in, Complex* out) {
  library::check_arrays(in, local_elements(), out, local_elements(), "Fft1d::backward",
                        plan_->topology->comm());
  plan_->timer.clear();
  plan_->engine->backward(in, out);
}

std::size_t Fft1d::workspace_bytes() const {
  return plan_->engine->workspace_bytes();
}

std::string Fft1d::describe() const {
  return plan_->engine->describe();
}

FftTimes Fft1d::last_times() const {
  return library::times_of(plan_->timer);
}

}  // namespace a2afft
