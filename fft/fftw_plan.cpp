#include "fftw_plan.hpp"

#include <fftw3-mpi.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <sstream>
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

double scale_factor(Scaling scaling, Direction direction, std::size_t points) {
  const auto n = static_cast<double>(points);
  switch (scaling) {
    case Scaling::none:
      return 1.0;
    case Scaling::full:
      return direction == Direction::backward ? 1.0 / n : 1.0;
    case Scaling::symmetric:
      return 1.0 / std::sqrt(n);
  }
  return 1.0;
}

void check_fftw_alignment(const Complex* array, const char* what) {
  if (reinterpret_cast<std::uintptr_t>(array) % 16 == 0) return;
  std::ostringstream address;
  address << static_cast<const void*>(array);
  throw UsageError(std::string(what) + " at " + address.str() +
                   " is not 16-byte aligned; expected memory aligned as new, malloc, std::vector "
                   "or fftw_malloc give it");
}

FftwPlan::FftwPlan(const std::vector<Stride>& transform, const std::vector<Stride>& batches,
                   Complex* in, Complex* out, Direction direction, Rigor rigor) {
  std::vector<fftw_iodim64> dims;
  for (const Stride& d : transform)
    dims.push_back({d.n, d.stride, d.out()});
  std::vector<fftw_iodim64> loops;
  for (const Stride& batch : batches)
    loops.push_back({batch.n, batch.stride, batch.out()});
  plan_ = fftw_plan_guru64_dft(
      static_cast<int>(dims.size()), dims.data(), static_cast<int>(loops.size()), loops.data(),
      reinterpret_cast<fftw_complex*>(in), reinterpret_cast<fftw_complex*>(out),
      static_cast<int>(direction), fftw_flags(rigor));
  if (plan_ == nullptr) {
    throw Error("FFTW could not plan a transform of " +
                (transform.empty() ? std::string("0 dimensions")
                                   : std::to_string(transform.front().n) + " points"));
  }
}

namespace {

int rank_of(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

}  // namespace

void ensure_fftw_mpi_initialized() {
  static const bool initialized = [] {
    fftw_mpi_init();
    return true;
  }();
  (void)initialized;
}

void import_wisdom(const std::string& path, MPI_Comm comm, std::string_view name) {
  ensure_fftw_mpi_initialized();
  int status = 0;  // 0: nothing to read, 1: read, 2: not wisdom
  if (rank_of(comm) == 0 && std::filesystem::exists(path)) {
    status = fftw_import_wisdom_from_filename(path.c_str()) != 0 ? 1 : 2;
  }
  MPI_Bcast(&status, 1, MPI_INT, 0, comm);
  if (status == 2) {
    throw UsageError(std::string(name) + "=" + path +
                     " is not an FFTW wisdom file; remove it or name another");
  }
  if (status == 1) fftw_mpi_broadcast_wisdom(comm);
}

void export_wisdom(const std::string& path, MPI_Comm comm, std::string_view name) {
  ensure_fftw_mpi_initialized();
  fftw_mpi_gather_wisdom(comm);
  int written = 1;
  if (rank_of(comm) == 0) written = fftw_export_wisdom_to_filename(path.c_str());
  MPI_Bcast(&written, 1, MPI_INT, 0, comm);
  if (written == 0) throw UsageError(std::string(name) + "=" + path + " could not be written");
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
