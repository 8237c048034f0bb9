// What every public FFT offers (include/a2afft/fft.hpp's DistributedFft), written once for
// Fft3d, Fft2d and Fft1d: the typed forward() and backward() overloads and execute() dispatch
// on the plan's transform descriptor, check the arrays on every rank (one MPI_Allreduce) and
// run the engine; the rest reads the engine. Also the descriptor's own helpers and the steps
// every constructor takes (fft_core.hpp).

#include <a2afft/fft.hpp>

#include <stdexcept>
#include <type_traits>
#include <utility>

#include "axes.hpp"
#include "collective_checks.hpp"
#include "error.hpp"
#include "fft_core.hpp"
#include "plan_search.hpp"

namespace a2afft {

std::size_t Transform::complex_bytes() const {
  return detail::library::complex_bytes(precision);
}

std::size_t Transform::input_scalar_bytes() const {
  return detail::library::input_scalar_bytes(kind, precision);
}

std::size_t Transform::output_scalar_bytes() const {
  return detail::library::output_scalar_bytes(kind, precision);
}

std::string Transform::to_string() const {
  // The kind names the axes when they are its defaults: all dft, the last r2c for r2c.
  bool default_axes = kind != Kind::r2r;
  for (std::size_t axis = 0; axis < axes.size(); ++axis) {
    const bool last_r2c = kind == Kind::r2c && axis + 1 == axes.size();
    default_axes = default_axes && axes[axis] == (last_r2c ? AxisKind::r2c : AxisKind::dft);
  }
  const std::string what =
      default_axes ? (kind == Kind::r2c ? "r2c" : "c2c") : a2afft::to_string(axes);
  std::string text = what + (precision == Precision::single_precision ? " float" : " double");
  if (batch > 1) text += ", batch " + std::to_string(batch);
  if (padded()) text += ", padded " + detail::padding_to_string(padding);
  return text;
}

namespace detail {

std::unique_ptr<FftCore> begin_plan(MPI_Comm comm, const char* who, const PlanOptions& options,
                                    std::vector<detail::library::NamedArgument> own,
                                    const std::vector<std::size_t>& shape) {
  detail::library::check_communicator(comm, who);
  std::vector<detail::library::NamedArgument> arguments = std::move(own);
  arguments.insert(arguments.end(),
                   {{"exchange", options.exchange},
                    {"rigor", std::to_string(static_cast<int>(options.rigor))},
                    {"wisdom_file", options.wisdom_file},
                    {"scaling", std::to_string(static_cast<int>(options.scaling))},
                    detail::library::layout_argument(options.layout),
                    {"kind", std::to_string(static_cast<int>(options.kind))},
                    {"precision", std::to_string(static_cast<int>(options.precision))},
                    {"batch", std::to_string(options.batch)},
                    {"axes", to_string(options.axes)},
                    {"padding", padding_to_string(options.padding)},
                    {"threads", std::to_string(options.threads)}});
  detail::library::check_same_on_every_rank(arguments, who, comm);
  // Every rank now holds the same arguments, so every check below ends alike on every rank.
  detail::library::check_rigor_and_scaling(options.rigor, options.scaling, who);
  detail::library::check_kind_precision_batch(options.kind, options.precision, options.batch, who);
  detail::library::check_threads(options.threads, comm, who);
  auto core = std::make_unique<FftCore>();
  core->who = who;
  core->threads = options.threads;
  core->transform =
      shape.size() >= 2 ? resolved_transform(options.transform(), shape, who) : options.transform();
  check_padding(core->transform, shape, who);
  core->flops = fft_flops(core->transform, shape);
  core->topology = std::make_unique<Topology>(
      comm, LayoutRequest::from_environment().overridden_by(options.layout));
  return core;
}

}  // namespace detail

std::vector<int> timed_thread_counts(MPI_Comm comm) {
  detail::library::check_communicator(comm, "timed_thread_counts");
  return detail::thread_candidates(detail::cores_per_rank(comm));
}

DistributedFft::DistributedFft(std::unique_ptr<detail::FftCore> core) : core_(std::move(core)) {}
DistributedFft::~DistributedFft() = default;
DistributedFft::DistributedFft(DistributedFft&&) noexcept = default;
DistributedFft& DistributedFft::operator=(DistributedFft&&) noexcept = default;

Transform DistributedFft::transform() const {
  return core_->transform;
}
Kind DistributedFft::kind() const {
  return core_->transform.kind;
}
Precision DistributedFft::precision() const {
  return core_->transform.precision;
}
std::size_t DistributedFft::batch() const {
  return core_->transform.batch;
}
int DistributedFft::threads() const {
  return core_->threads;
}

std::size_t DistributedFft::input_elements() const {
  return core_->engine->input_scalars();
}
std::size_t DistributedFft::output_elements() const {
  return core_->engine->output_scalars();
}
std::size_t DistributedFft::in_place_elements() const {
  return core_->engine->in_place_elements();
}
std::size_t DistributedFft::input_bytes() const {
  return input_elements() * core_->transform.input_scalar_bytes();
}
std::size_t DistributedFft::output_bytes() const {
  return output_elements() * core_->transform.output_scalar_bytes();
}
std::size_t DistributedFft::in_place_bytes() const {
  return in_place_elements() * core_->transform.output_scalar_bytes();
}

// Every public forward() and backward(): the overload must fit the plan's transform, then the
// arrays are checked on every rank and the engine runs. execute() and the nullptr overloads
// instantiate every overload through detail::library::dispatch; the check refuses those that do not
// fit.
template <typename In, typename Out>
void DistributedFft::run(bool forward, const In* in, Out* out, std::string size_failure) {
  detail::FftCore& core = *core_;
  const std::string call = detail::library::checked_call<In, Out>(
      core.transform.precision, core.transform.kind, forward, core.who);
  const std::size_t in_count = forward ? input_elements() : output_elements();
  const std::size_t out_count = forward ? output_elements() : input_elements();
  detail::library::check_arrays(in, in_count, out, out_count, call, core.topology->comm(),
                                std::move(size_failure));
  core.timer.clear();
  if (forward) {
    core.engine->forward(in, out);
  } else {
    core.engine->backward(in, out);
  }
}

void DistributedFft::forward(const Complex* in, Complex* out) {
  run(true, in, out);
}
void DistributedFft::backward(const Complex* in, Complex* out) {
  run(false, in, out);
}
void DistributedFft::forward(const ComplexFloat* in, ComplexFloat* out) {
  run(true, in, out);
}
void DistributedFft::backward(const ComplexFloat* in, ComplexFloat* out) {
  run(false, in, out);
}
void DistributedFft::forward(const double* in, Complex* out) {
  run(true, in, out);
}
void DistributedFft::backward(const Complex* in, double* out) {
  run(false, in, out);
}
void DistributedFft::forward(const float* in, ComplexFloat* out) {
  run(true, in, out);
}
void DistributedFft::backward(const ComplexFloat* in, float* out) {
  run(false, in, out);
}

void DistributedFft::forward(const double* in, double* out) {
  run(true, in, out);
}
void DistributedFft::backward(const double* in, double* out) {
  run(false, in, out);
}
void DistributedFft::forward(const float* in, float* out) {
  run(true, in, out);
}
void DistributedFft::backward(const float* in, float* out) {
  run(false, in, out);
}

void DistributedFft::forward(std::nullptr_t, std::nullptr_t) {
  detail::library::dispatch(kind(), precision(), true, nullptr, nullptr,
                            [&](const auto* in, auto* out) { run(true, in, out); });
}
void DistributedFft::backward(std::nullptr_t, std::nullptr_t) {
  detail::library::dispatch(kind(), precision(), false, nullptr, nullptr,
                            [&](const auto* in, auto* out) { run(false, in, out); });
}

void DistributedFft::execute(Direction direction, const void* in, std::size_t in_bytes, void* out,
                             std::size_t out_bytes) {
  const bool forward = direction == Direction::forward;
  std::string failure = detail::library::size_failure(
      in, in_bytes, forward ? input_bytes() : output_bytes(), out, out_bytes,
      forward ? output_bytes() : input_bytes(), in_place_bytes());
  detail::library::dispatch(kind(), precision(), forward, in, out,
                            [&](const auto* typed_in, auto* typed_out) {
                              run(forward, typed_in, typed_out, std::move(failure));
                            });
}

std::size_t DistributedFft::workspace_bytes() const {
  return core_->engine->workspace_bytes();
}

TransformTraffic DistributedFft::traffic(Direction direction) const {
  TransformTraffic traffic = core_->engine->traffic(direction == Direction::backward);
  traffic.flops = core_->flops / core_->topology->size();
  return traffic;
}

std::string DistributedFft::describe() const {
  const std::string engine = core_->engine->describe();
  // The thread count where more than one runs, unless the timed plan's note names it.
  const std::string threads =
      core_->threads > 1 && core_->plan_note.find("threads") == std::string::npos
          ? " | " + std::to_string(core_->threads) + " threads"
          : "";
  return engine + threads + (core_->plan_note.empty() ? "" : " | " + core_->plan_note);
}

FftTimes DistributedFft::last_times() const {
  return detail::library::times_of(core_->timer);
}

}  // namespace a2afft
