// The public 1D FFT (include/a2afft/fft1d.hpp): the caller's arguments checked collectively,
// then a Topology and a fft::BasicSixStep1d of the plan's precision built on them
// (detail::begin_plan, plan_engine). Everything is planned here; forward() and backward() are
// DistributedFft's.

#include <a2afft/fft1d.hpp>

#include <utility>

#include "collective_checks.hpp"
#include "error.hpp"
#include "fft_core.hpp"
#include "fftw_plan.hpp"
#include "make_exchange.hpp"
#include "plan_search.hpp"
#include "six_step1d.hpp"
#include "six_step_geometry.hpp"
#include "spec.hpp"
#include "topology/topology.hpp"

namespace a2afft {

namespace detail {
namespace {

constexpr const char* kWho = "Fft1d";

// The six-step engine of one precision behind the public front end.
template <typename Real>
class SixStepEngine final : public detail::FftEngine {
 public:
  using Complex = std::complex<Real>;
  explicit SixStepEngine(std::unique_ptr<fft::BasicSixStep1d<Real>> engine)
      : engine_(std::move(engine)) {}
  void forward(const void* in, void* out) override {
    engine_->forward(static_cast<const Complex*>(in), static_cast<Complex*>(out));
  }
  void backward(const void* in, void* out) override {
    engine_->backward(static_cast<const Complex*>(in), static_cast<Complex*>(out));
  }
  // One row of N points: this rank's N/P, in natural order on the input side (the output's
  // order is Fft1d::output_index()'s).
  Box3 input_box() const override { return detail::public_box(engine_->input_box(), false); }
  Box3 output_box() const override { return input_box(); }
  std::size_t input_scalars() const override { return engine_->local_scalars(); }
  std::size_t output_scalars() const override { return engine_->local_scalars(); }
  std::size_t in_place_elements() const override { return engine_->local_scalars(); }
  std::size_t workspace_bytes() const override { return engine_->workspace_bytes(); }
  TransformTraffic traffic(bool backward) const override { return engine_->traffic(backward); }
  std::string describe() const override { return engine_->describe(); }

 private:
  std::unique_ptr<fft::BasicSixStep1d<Real>> engine_;
};

std::unique_ptr<detail::FftCore> make_six_step_core(MPI_Comm comm, std::size_t n,
                                                    const Fft1dOptions& options);

// threads = timed_threads: each candidate count timed by timed_plan() on the one 1 x P layout.
std::unique_ptr<detail::FftCore> timed_six_step_core(MPI_Comm comm, std::size_t n,
                                                     const Fft1dOptions& options) {
  const auto plan = [&](const PlanChoice& choice) {
    Fft1dOptions fixed = options;
    fixed.threads = choice.threads;
    return make_six_step_core(comm, n, fixed);
  };
  const auto candidates = [&](const FftCore& rule) {
    std::vector<PlanChoice> all;
    for (const int threads : thread_candidates(cores_per_rank(rule.topology->comm()))) {
      all.push_back({rule.grid, threads});
    }
    return all;
  };
  const std::string arguments =
      "1d " + std::to_string(n) + " | n1 " + std::to_string(options.n1) + " | " +
      options.transform().to_string() + " | exchange " + options.exchange + " | output " +
      std::to_string(static_cast<int>(options.output)) + " | rigor " +
      std::to_string(static_cast<int>(options.rigor)) + " | threads timed";
  return timed_plan(comm, {{0, 0}, 1}, {false, true}, plan, candidates, arguments);
}

std::unique_ptr<detail::FftCore> make_six_step_core(MPI_Comm comm, std::size_t n,
                                                    const Fft1dOptions& options) {
  if (options.threads == timed_threads) return timed_six_step_core(comm, n, options);
  std::unique_ptr<detail::FftCore> core =
      detail::begin_plan(comm, kWho, options,
                         {{"n", std::to_string(n)},
                          {"n1", std::to_string(options.n1)},
                          {"output", std::to_string(static_cast<int>(options.output))}},
                         {n});
  library::check_enum(static_cast<int>(options.output), 2, "output", "natural (0) or scrambled (1)",
                      kWho);
  if (options.kind != Kind::c2c) {
    throw UsageError(std::string(kWho) + ": kind=" + (options.kind == Kind::r2c ? "r2c" : "r2r") +
                     " is not valid; a 1D plan is c2c (pass a real vector as complex)");
  }
  if (!options.axes.empty()) {
    throw UsageError(std::string(kWho) + ": axes " + to_string(options.axes) +
                     " are not valid; a 1D plan is one c2c DFT and takes no axes");
  }
  core->grid = {1, core->topology->size()};
  fft::SixStep1dOptions engine_options;
  engine_options.exchange = parse_spec(options.exchange);
  check_spec(engine_options.exchange);  // names and keys, even on one rank
  engine_options.n1 = options.n1;
  engine_options.rigor = options.rigor;
  engine_options.scrambled_output = options.output == Fft1dOutput::scrambled;
  engine_options.scaling = options.scaling;
  engine_options.batch = options.batch;
  engine_options.threads = options.threads;
  detail::plan_engine(*core, options, [&](auto real, PhaseTimer* timer) {
    using Real = decltype(real);
    auto engine = std::make_unique<fft::BasicSixStep1d<Real>>(*core->topology, n, engine_options);
    engine->attach_timer(timer);
    return std::make_unique<SixStepEngine<Real>>(std::move(engine));
  });
  return core;
}

}  // namespace
}  // namespace detail

// Where the points are: pure six-step geometry, kept beside the engine for the 1D accessors.
struct Fft1d::Layout {
  detail::fft::SixStepGeometry geometry;
  int rank = 0;
};

Fft1d::Fft1d(MPI_Comm comm, std::size_t n, const Fft1dOptions& options)
    : DistributedFft(detail::make_six_step_core(comm, n, options)),
      layout_(std::make_unique<Layout>(
          Layout{detail::fft::SixStepGeometry(n, core().topology->size(), options.n1,
                                              options.output == Fft1dOutput::scrambled),
                 core().topology->rank()})) {}

Fft1d::~Fft1d() = default;
Fft1d::Fft1d(Fft1d&&) noexcept = default;
Fft1d& Fft1d::operator=(Fft1d&&) noexcept = default;

std::array<std::size_t, 2> Fft1d::split(std::size_t n, int ranks, std::size_t n1) {
  const detail::fft::SixStepSplit split = detail::fft::choose_six_step_split(n, ranks, n1);
  return {split.n1, split.n2};
}

std::size_t Fft1d::exchange_block_bytes(std::size_t n, int ranks) {
  return detail::fft::SixStepGeometry(n, ranks).block_bytes();
}

std::size_t Fft1d::exchange_block_bytes(std::size_t n, int ranks, Precision precision,
                                        std::size_t batch) {
  return detail::fft::SixStepGeometry(n, ranks).block_bytes(
      batch * detail::library::complex_bytes(precision));
}

std::size_t Fft1d::length() const {
  return layout_->geometry.length();
}

std::size_t Fft1d::n1() const {
  return layout_->geometry.split().n1;
}

std::size_t Fft1d::n2() const {
  return layout_->geometry.split().n2;
}

std::size_t Fft1d::local_points() const {
  return layout_->geometry.local_length();
}

std::size_t Fft1d::local_elements() const {
  return input_elements();
}

std::size_t Fft1d::input_offset() const {
  return layout_->geometry.input_box(layout_->rank).offset[2];
}

std::size_t Fft1d::output_index(std::size_t i) const {
  return layout_->geometry.output_index(layout_->rank, i);
}

std::size_t Fft1d::local_bytes() const {
  return input_bytes();
}

}  // namespace a2afft
