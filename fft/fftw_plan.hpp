#pragma once

#include <fftw3.h>
#include <mpi.h>

#include <climits>

#include <complex>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <a2afft/tools/fftw_api.hpp>
#include <a2afft/transform.hpp>

namespace a2afft::detail::fft {

// Public (a2afft/transform.hpp); named here too so that fft::Complex etc. keep working.
using a2afft::Complex;
// FFTW's calls of one precision: the one table, shared with programs that call FFTW themselves.
using a2afft::fftw_planner_flags;
using a2afft::FftwApi;
using a2afft::Rigor;
using a2afft::Scaling;

/// Readies FFTW's process-wide state of precision `Real` (planner, wisdom, twiddles: one per
/// library, shared with every other FFTW user in the process) before a2afft plans with it, so
/// that other users cannot invalidate a2afft's plans (docs/fftw-global-state.md):
/// - fftw(f)_init_threads. FFTW 3.3.9 and later, asked for fftw_plan_with_nthreads() before
///   fftw_init_threads() (mpi4py-fft asks before every plan it makes), first calls
///   fftw_cleanup(). That frees the planner's solvers, which existing plans still point to:
///   destroying an a2afft plan made before then read freed memory (issue 30, a crash under
///   Python beside mpi4py-fft).
/// - fftw(f)_make_planner_thread_safe: planning in other threads waits for a2afft's, and ours
///   for theirs (FFTW's planner is not reentrant).
/// - a2afft's plans are made with the thread count the engine asks for (1 but for the six-step's
///   whole-array local transposes of a plan with PlanOptions::threads > 1): each is made with
///   fftw_plan_with_nthreads(that count) under a2afft's planning lock, and a program's own
///   setting is restored after.
/// - fftw(f)_mpi_init where the build has FFTW-MPI: wisdom written by FFTW-MPI's plans names
///   its solvers, which only an initialized FFTW-MPI reads back.
/// Once per precision and process; thread-safe. Every FftwPlan calls it, and so does every
/// other place that plans with FFTW.
template <typename Real>
void prepare_fftw();

/// Runs `plan` (which makes FFTW plans of precision `Real`, FFTW-MPI's included) with FFTW's
/// planner set to `threads` threads, under the same lock and restoring the program's count as
/// a2afft's own plans do; prepare_fftw first. For the command's FFTW reference rows.
template <typename Real>
void with_planning_threads(int threads, const std::function<void()>& plan);

/// "-mpi" when prepare_fftw registers FFTW-MPI's solvers in this build, else "". FFTW refuses
/// wisdom made by a planner with another set of solvers (its header hashes them), so a build
/// with FFTW-MPI and one without (this machine's MPICH build) cannot share a wisdom file: the
/// command's wisdom cache names the set.
std::string_view solver_set_suffix();

std::string_view to_string(Rigor rigor);

/// FFTW wisdom shared by all ranks of `comm`, like FFTW plans it: rank 0 reads `path` (when it
/// exists) and broadcasts it before planning (import_wisdom returns whether it read a file);
/// after planning every rank's wisdom is gathered and rank 0 writes `path` (through a file of
/// its own renamed over it, so concurrent jobs sharing one file never read half of it). Collective.
/// Throws UsageError if the file exists but is not wisdom, or cannot be written; the message calls
/// the path `name`, as the caller's option is. `Real` chooses FFTW's wisdom of that precision (FFTW
/// keeps one per library): a float plan's wisdom lives in its own file, wisdom_path<float>(path) =
/// `path.fftwf`.
template <typename Real = double>
bool import_wisdom(const std::string& path, MPI_Comm comm, std::string_view name = "wisdom file");
template <typename Real = double>
void export_wisdom(const std::string& path, MPI_Comm comm, std::string_view name = "wisdom file");
/// The file holding `Real`'s wisdom when the caller names `path`: `path` for double,
/// `path.fftwf` for float.
template <typename Real>
std::string wisdom_path(const std::string& path);

enum class Direction { forward = FFTW_FORWARD, backward = FFTW_BACKWARD };

/// The factor a transform of `points` points in `direction` multiplies its result by under
/// `scaling`: 1 for none (and for forward under full).
double scale_factor(Scaling scaling, Direction direction, std::size_t points);

/// Throws UsageError naming `what` unless `array` has the alignment FFTW's plans here assume
/// (16 bytes, as new, malloc, std::vector and fftw_malloc give): a plan made on one array runs
/// on another only if both are aligned alike.
void check_fftw_alignment(const void* array, const char* what);

/// One dimension of a guru plan: `n` points `stride` elements apart in the input and
/// `output_stride` apart in the output (the same unless given: a transposing copy, or the real
/// and the complex side of an r2c transform, differ).
struct Stride {
  static constexpr std::ptrdiff_t kSameAsInput = PTRDIFF_MIN;
  std::ptrdiff_t n;
  std::ptrdiff_t stride;
  std::ptrdiff_t output_stride = kSameAsInput;
  std::ptrdiff_t out() const { return output_stride == kSameAsInput ? stride : output_stride; }
};

/// Which transform a plan computes: complex to complex, real to complex (the last transform
/// dimension's n/2+1 non-negative frequencies, FFTW's convention) or its inverse, or real to
/// real (FFTW's cosine and sine transforms, a kind per dimension).
enum class TransformKind { c2c, r2c, c2r, r2r };

/// RAII over one FFTW plan of precision `Real` made with the guru64 interface: a transform over
/// the `transform` dimensions (one for lines, two for planes, none for a strided copy such as a
/// local transpose), repeated over the `batches` loops. In place when `in == out`. For r2c and
/// c2r, `n` of each transform dimension is the logical (real) length, strides count elements of
/// each side's own type, and the last transform dimension has n/2+1 complex points. Planning
/// with MEASURE or PATIENT overwrites the arrays, so plans are made before data is filled.
/// `aligned`: every array the plan will run on starts at FFTW's SIMD alignment (16 bytes) as the
/// planning array does; when not (float rows at odd offsets), the plan is made for any alignment.
template <typename Real>
class FftwPlan {
 public:
  using Complex = std::complex<Real>;
  using Api = FftwApi<Real>;

  FftwPlan() = default;
  /// A c2c plan, run on `threads` of FFTW's threads (libfftw3_threads; the other kinds: one).
  FftwPlan(const std::vector<Stride>& transform, const std::vector<Stride>& batches, Complex* in,
           Complex* out, Direction direction, Rigor rigor, bool aligned = true, int threads = 1);
  /// An r2c plan (forward, real `in` to complex `out`).
  FftwPlan(const std::vector<Stride>& transform, const std::vector<Stride>& batches, Real* in,
           Complex* out, Rigor rigor, bool aligned = true);
  /// A c2r plan (backward, complex `in` to real `out`; it overwrites `in`).
  FftwPlan(const std::vector<Stride>& transform, const std::vector<Stride>& batches, Complex* in,
           Real* out, Rigor rigor, bool aligned = true);
  /// An r2r plan: `kinds[d]` along transform dimension d, real `in` to real `out`.
  FftwPlan(const std::vector<Stride>& transform, const std::vector<fftw_r2r_kind>& kinds,
           const std::vector<Stride>& batches, Real* in, Real* out, Rigor rigor,
           bool aligned = true);
  FftwPlan(FftwPlan&& other) noexcept;
  FftwPlan& operator=(FftwPlan&& other) noexcept;
  FftwPlan(const FftwPlan&) = delete;
  FftwPlan& operator=(const FftwPlan&) = delete;
  ~FftwPlan();

  TransformKind kind() const { return kind_; }
  /// Runs a c2c plan on other arrays with the same strides, in-placeness and alignment (FFTW's
  /// new-array execute). Out of place, `in` is only read: FFTW preserves the input of c2c
  /// transforms and copies.
  void execute(const Complex* in, Complex* out) const {
    Api::execute_dft(plan_, fftw_cast(const_cast<Complex*>(in)), fftw_cast(out));
  }
  /// Runs an r2c plan; out of place, `in` is only read (FFTW preserves r2c inputs).
  void execute(const Real* in, Complex* out) const {
    Api::execute_r2c(plan_, const_cast<Real*>(in), fftw_cast(out));
  }
  /// Runs a c2r plan; `in` is overwritten.
  void execute(Complex* in, Real* out) const { Api::execute_c2r(plan_, fftw_cast(in), out); }
  /// Runs an r2r plan; out of place, `in` is only read unless the plan is multi-dimensional
  /// (FFTW may then overwrite it): the engines run r2r plans in place.
  void execute(const Real* in, Real* out) const {
    Api::execute_r2r(plan_, const_cast<Real*>(in), out);
  }
  /// Runs a c2c or r2r plan made in place on `data`, another array laid out alike.
  void execute_in_place(void* data) const {
    if (kind_ == TransformKind::r2r) {
      execute(static_cast<Real*>(data), static_cast<Real*>(data));
    } else {
      execute(static_cast<Complex*>(data), static_cast<Complex*>(data));
    }
  }
  explicit operator bool() const { return plan_ != nullptr; }

 private:
  static typename Api::FftwComplex* fftw_cast(Complex* z) {
    return reinterpret_cast<typename Api::FftwComplex*>(z);
  }
  void check_made(const std::vector<Stride>& transform) const;

  typename Api::Plan plan_ = nullptr;
  TransformKind kind_ = TransformKind::c2c;
};

}  // namespace a2afft::detail::fft
