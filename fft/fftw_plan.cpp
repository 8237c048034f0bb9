#include "fftw_plan.hpp"

#include <utility>

#include "error.hpp"

namespace a2afft::fft {

Rigor parse_rigor(std::string_view text) {
  if (text == "estimate") return Rigor::estimate;
  if (text == "measure") return Rigor::measure;
  if (text == "patient") return Rigor::patient;
  throw UsageError("--rigor=" + std::string(text) +
                   " is not valid; expected estimate, measure or patient");
}

std::string_view to_string(Rigor rigor) {
  switch (rigor) {
    case Rigor::estimate:
      return "estimate";
    case Rigor::measure:
      return "measure";
    case Rigor::patient:
      return "patient";
  }
  return "estimate";
}

unsigned fftw_flags(Rigor rigor) {
  switch (rigor) {
    case Rigor::estimate:
      return FFTW_ESTIMATE;
    case Rigor::measure:
      return FFTW_MEASURE;
    case Rigor::patient:
      return FFTW_PATIENT;
  }
  return FFTW_ESTIMATE;
}

FftwPlan::FftwPlan(const std::vector<Stride>& transform, const std::vector<Stride>& batches,
                   Complex* in, Complex* out, Direction direction, Rigor rigor) {
  std::vector<fftw_iodim64> dims;
  for (const Stride& d : transform)
    dims.push_back({d.n, d.stride, d.stride});
  std::vector<fftw_iodim64> loops;
  for (const Stride& batch : batches)
    loops.push_back({batch.n, batch.stride, batch.stride});
  plan_ = fftw_plan_guru64_dft(
      static_cast<int>(dims.size()), dims.data(), static_cast<int>(loops.size()), loops.data(),
      reinterpret_cast<fftw_complex*>(in), reinterpret_cast<fftw_complex*>(out),
      static_cast<int>(direction), fftw_flags(rigor));
  if (plan_ == nullptr) {
    throw std::runtime_error("FFTW could not plan a transform of " +
                             std::to_string(transform.front().n) + " points");
  }
}

FftwPlan::FftwPlan(FftwPlan&& other) noexcept : plan_(std::exchange(other.plan_, nullptr)) {}

FftwPlan& FftwPlan::operator=(FftwPlan&& other) noexcept {
  if (this != &other) {
    if (plan_ != nullptr) fftw_destroy_plan(plan_);
    plan_ = std::exchange(other.plan_, nullptr);
  }
  return *this;
}

FftwPlan::~FftwPlan() {
  if (plan_ != nullptr) fftw_destroy_plan(plan_);
}

}  // namespace a2afft::fft
