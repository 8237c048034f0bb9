#include "fftw_plan.hpp"

#include <unistd.h>

#if A2AFFT_HAVE_FFTW_MPI
#include <fftw3-mpi.h>
#endif

#include <climits>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "error.hpp"
#include "mpi/comm.hpp"

namespace a2afft::detail::fft {

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

void check_fftw_alignment(const void* array, const char* what) {
  if (reinterpret_cast<std::uintptr_t>(array) % 16 == 0) return;
  std::ostringstream address;
  address << array;
  throw UsageError(std::string(what) + " at " + address.str() +
                   " is not 16-byte aligned; expected memory aligned as new, malloc, std::vector "
                   "or fftw_malloc give it");
}

template <typename Real>
void prepare_fftw() {
  static const bool prepared = [] {
    using Api = FftwApi<Real>;
    if (Api::init_threads() == 0) throw Error("FFTW could not initialize its threads");
    Api::make_planner_thread_safe();
#if A2AFFT_HAVE_FFTW_MPI
    if constexpr (std::is_same_v<Real, float>) {
      fftwf_mpi_init();
    } else {
      fftw_mpi_init();
    }
#endif
    return true;
  }();
  (void)prepared;
}

template void prepare_fftw<double>();
template void prepare_fftw<float>();

std::string_view solver_set_suffix() {
  return A2AFFT_HAVE_FFTW_MPI ? "-mpi" : "";
}

namespace {

std::vector<fftw_iodim64> iodims(const std::vector<Stride>& strides) {
  std::vector<fftw_iodim64> dims;
  for (const Stride& d : strides)
    dims.push_back({d.n, d.stride, d.out()});
  return dims;
}

// The thread count of the plan made while it lives (1 unless the engine asks for more: the
// plane FFTs run on one thread each, and only the whole-array copies of the six-step's local
// transposes run on FFTW's threads), whatever a program asked of FFTW for its own plans
// (fftw_plan_with_nthreads is process-wide); the program's count comes back after. The lock
// keeps a2afft's own planning threads from setting the count under each other's plans; FFTW's
// planner lock (make_planner_thread_safe) does not cover the count's set and use together.
std::mutex& planning_mutex() {
  static std::mutex mutex;
  return mutex;
}

template <typename Real>
class PlanningThreads {
 public:
  explicit PlanningThreads(int threads)
      : lock_(planning_mutex()),
        threads_(threads),
        program_threads_(FftwApi<Real>::planner_nthreads()) {
    if (program_threads_ != threads_) FftwApi<Real>::plan_with_nthreads(threads_);
  }
  ~PlanningThreads() {
    if (program_threads_ != threads_) FftwApi<Real>::plan_with_nthreads(program_threads_);
  }
  PlanningThreads(const PlanningThreads&) = delete;
  PlanningThreads& operator=(const PlanningThreads&) = delete;

 private:
  std::lock_guard<std::mutex> lock_;
  int threads_;
  int program_threads_;
};

}  // namespace

template <typename Real>
void with_planning_threads(int threads, const std::function<void()>& plan) {
  prepare_fftw<Real>();
  const PlanningThreads<Real> planning(threads);
  plan();
}

template void with_planning_threads<double>(int, const std::function<void()>&);
template void with_planning_threads<float>(int, const std::function<void()>&);

namespace {

unsigned plan_flags(Rigor rigor, bool aligned) {
  return fftw_planner_flags(rigor) | (aligned ? 0U : static_cast<unsigned>(FFTW_UNALIGNED));
}

}  // namespace

// fftw_iodim64 and fftwf_iodim64 are the same struct (FFTW declares both from one macro).
template <typename Real>
FftwPlan<Real>::FftwPlan(const std::vector<Stride>& transform, const std::vector<Stride>& batches,
                         Complex* in, Complex* out, Direction direction, Rigor rigor, bool aligned,
                         int threads) {
  prepare_fftw<Real>();
  const PlanningThreads<Real> planning(threads);
  const auto dims = iodims(transform);
  const auto loops = iodims(batches);
  plan_ = Api::plan_dft(static_cast<int>(dims.size()), dims.data(), static_cast<int>(loops.size()),
                        loops.data(), fftw_cast(in), fftw_cast(out), static_cast<int>(direction),
                        plan_flags(rigor, aligned));
  check_made(transform);
}

template <typename Real>
FftwPlan<Real>::FftwPlan(const std::vector<Stride>& transform, const std::vector<Stride>& batches,
                         Real* in, Complex* out, Rigor rigor, bool aligned)
    : kind_(TransformKind::r2c) {
  prepare_fftw<Real>();
  const PlanningThreads<Real> planning(1);
  const auto dims = iodims(transform);
  const auto loops = iodims(batches);
  plan_ = Api::plan_r2c(static_cast<int>(dims.size()), dims.data(), static_cast<int>(loops.size()),
                        loops.data(), in, fftw_cast(out), plan_flags(rigor, aligned));
  check_made(transform);
}

template <typename Real>
FftwPlan<Real>::FftwPlan(const std::vector<Stride>& transform, const std::vector<Stride>& batches,
                         Complex* in, Real* out, Rigor rigor, bool aligned)
    : kind_(TransformKind::c2r) {
  prepare_fftw<Real>();
  const PlanningThreads<Real> planning(1);
  const auto dims = iodims(transform);
  const auto loops = iodims(batches);
  plan_ = Api::plan_c2r(static_cast<int>(dims.size()), dims.data(), static_cast<int>(loops.size()),
                        loops.data(), fftw_cast(in), out, plan_flags(rigor, aligned));
  check_made(transform);
}

template <typename Real>
FftwPlan<Real>::FftwPlan(const std::vector<Stride>& transform,
                         const std::vector<fftw_r2r_kind>& kinds,
                         const std::vector<Stride>& batches, Real* in, Real* out, Rigor rigor,
                         bool aligned)
    : kind_(TransformKind::r2r) {
  if (kinds.size() != transform.size()) throw std::logic_error("an r2r plan without its kinds");
  prepare_fftw<Real>();
  const PlanningThreads<Real> planning(1);
  const auto dims = iodims(transform);
  const auto loops = iodims(batches);
  plan_ = Api::plan_r2r(static_cast<int>(dims.size()), dims.data(), static_cast<int>(loops.size()),
                        loops.data(), in, out, kinds.data(), plan_flags(rigor, aligned));
  check_made(transform);
}

template <typename Real>
void FftwPlan<Real>::check_made(const std::vector<Stride>& transform) const {
  if (plan_ != nullptr) return;
  throw Error("FFTW could not plan a transform of " +
              (transform.empty() ? std::string("0 dimensions")
                                 : std::to_string(transform.front().n) + " points"));
}

template <typename Real>
FftwPlan<Real>::FftwPlan(FftwPlan&& other) noexcept
    : plan_(std::exchange(other.plan_, nullptr)), kind_(other.kind_) {}

template <typename Real>
FftwPlan<Real>& FftwPlan<Real>::operator=(FftwPlan&& other) noexcept {
  if (this != &other) {
    if (plan_ != nullptr) Api::destroy(plan_);
    plan_ = std::exchange(other.plan_, nullptr);
    kind_ = other.kind_;
  }
  return *this;
}

template <typename Real>
FftwPlan<Real>::~FftwPlan() {
  if (plan_ != nullptr) Api::destroy(plan_);
}

template class FftwPlan<double>;
template class FftwPlan<float>;

namespace {

int rank_of(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

// Wisdom is shared in plain MPI, as fftw(f)_mpi_broadcast_wisdom and fftw(f)_mpi_gather_wisdom
// share it, so that the library works with any MPI, also one FFTW-MPI was not built for.

int count_of(std::size_t bytes) {
  if (bytes > static_cast<std::size_t>(INT_MAX)) throw Error("FFTW wisdom beyond 2 GiB");
  return static_cast<int>(bytes);
}

template <typename Real>
std::string wisdom_text() {
  char* text = FftwApi<Real>::export_wisdom();
  if (text == nullptr) throw Error("FFTW could not export its wisdom");
  std::string result(text);
  FftwApi<Real>::free(text);
  return result;
}

// Throws on every rank of `comm` unless every rank has `ok`.
void check_everywhere(bool ok, MPI_Comm comm, const char* what) {
  int all_ok = ok ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &all_ok, 1, MPI_INT, MPI_MIN, comm);
  if (all_ok == 0) throw Error(what);
}

// Rank 0's wisdom added to every rank's (fftw_mpi_broadcast_wisdom).
template <typename Real>
void broadcast_wisdom(MPI_Comm comm) {
  const bool root = rank_of(comm) == 0;
  const std::string text = mpi::broadcast(root ? wisdom_text<Real>() : std::string(), 0, comm);
  const bool ok = root || FftwApi<Real>::import_wisdom(text.c_str()) != 0;
  check_everywhere(ok, comm, "FFTW could not import the wisdom broadcast by rank 0");
}

// Every rank's wisdom added to rank 0's (fftw_mpi_gather_wisdom).
template <typename Real>
void gather_wisdom(MPI_Comm comm) {
  const bool root = rank_of(comm) == 0;
  int ranks = 0;
  MPI_Comm_size(comm, &ranks);
  const std::string text = root ? std::string() : wisdom_text<Real>();
  const int length = count_of(text.size() + 1);  // with its '\0'
  std::vector<int> lengths(root ? static_cast<std::size_t>(ranks) : 0);
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, comm);
  std::vector<int> offsets(lengths.size());
  std::size_t total = 0;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    offsets[i] = count_of(total);
    total += static_cast<std::size_t>(lengths[i]);
  }
  std::vector<char> all(total);
  MPI_Gatherv(text.c_str(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR,
              0, comm);
  bool ok = true;
  for (std::size_t i = 1; i < lengths.size(); ++i) {
    ok = ok && FftwApi<Real>::import_wisdom(all.data() + offsets[i]) != 0;
  }
  check_everywhere(ok, comm, "FFTW could not import the wisdom gathered on rank 0");
}

}  // namespace

template <typename Real>
std::string wisdom_path(const std::string& path) {
  return std::is_same_v<Real, float> ? path + ".fftwf" : path;
}

// Writes this process's wisdom to `file` through a file of its own renamed over it, so that a
// reader (another job sharing a wisdom cache) sees the old wisdom or the new, never half.
template <typename Real>
bool write_atomically(const std::string& file) {
  const std::string partial = file + ".partial-" + std::to_string(::getpid());
  if (FftwApi<Real>::export_wisdom_file(partial.c_str()) == 0) return false;
  std::error_code error;
  std::filesystem::rename(partial, file, error);
  if (error) std::filesystem::remove(partial, error);
  return !error;
}

// How errors name the file: the option's value, and for float the file it stands for.
template <typename Real>
std::string described_file(const std::string& path) {
  return std::is_same_v<Real, float> ? path + " (single precision: " + wisdom_path<Real>(path) + ")"
                                     : path;
}

template <typename Real>
bool import_wisdom(const std::string& path, MPI_Comm comm, std::string_view name) {
  prepare_fftw<Real>();
  const std::string file = wisdom_path<Real>(path);
  int status = 0;  // 0: nothing to read, 1: read, 2: not wisdom
  if (rank_of(comm) == 0 && std::filesystem::exists(file)) {
    status = FftwApi<Real>::import_wisdom_file(file.c_str()) != 0 ? 1 : 2;
  }
  MPI_Bcast(&status, 1, MPI_INT, 0, comm);
  if (status == 2) {
    throw UsageError(std::string(name) + "=" + described_file<Real>(path) +
                     " is not an FFTW wisdom file; remove it or name another");
  }
  if (status == 1) broadcast_wisdom<Real>(comm);
  return status == 1;
}

template <typename Real>
void export_wisdom(const std::string& path, MPI_Comm comm, std::string_view name) {
  prepare_fftw<Real>();
  const std::string file = wisdom_path<Real>(path);
  gather_wisdom<Real>(comm);
  int written = 1;
  if (rank_of(comm) == 0) written = write_atomically<Real>(file) ? 1 : 0;
  MPI_Bcast(&written, 1, MPI_INT, 0, comm);
  if (written == 0) {
    throw UsageError(std::string(name) + "=" + described_file<Real>(path) +
                     " could not be written");
  }
}

template std::string wisdom_path<double>(const std::string&);
template std::string wisdom_path<float>(const std::string&);
template bool import_wisdom<double>(const std::string&, MPI_Comm, std::string_view);
template bool import_wisdom<float>(const std::string&, MPI_Comm, std::string_view);
template void export_wisdom<double>(const std::string&, MPI_Comm, std::string_view);
template void export_wisdom<float>(const std::string&, MPI_Comm, std::string_view);

}  // namespace a2afft::detail::fft
