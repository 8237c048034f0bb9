#pragma once

#include <fftw3.h>
#include <mpi.h>

#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <a2afft/fft.hpp>

namespace a2afft::fft {

// Public (a2afft/fft.hpp); named here too so that fft::Complex etc. keep working.
using a2afft::Complex;
using a2afft::Rigor;
using a2afft::Scaling;

Rigor parse_rigor(std::string_view text);  // throws UsageError listing the valid words
std::string_view to_string(Rigor rigor);
unsigned fftw_flags(Rigor rigor);

/// FFTW wisdom shared by all ranks of `comm`, like FFTW plans it: rank 0 reads `path` (when it
/// exists) and broadcasts it before planning; after planning every rank's wisdom is gathered
/// and rank 0 writes `path`. Collective. Throws UsageError if the file exists but is not
/// wisdom, or cannot be written; the message calls the path `name`, as the caller's option is.
void import_wisdom(const std::string& path, MPI_Comm comm, std::string_view name = "--wisdom");
/// fftw_mpi_init, once per process (FFTW-MPI's plans and wisdom calls need it).
void ensure_fftw_mpi_initialized();
void export_wisdom(const std::string& path, MPI_Comm comm, std::string_view name = "--wisdom");

enum class Direction { forward = FFTW_FORWARD, backward = FFTW_BACKWARD };

/// The factor a transform of `points` points in `direction` multiplies its result by under
/// `scaling`: 1 for none (and for forward under full).
double scale_factor(Scaling scaling, Direction direction, std::size_t points);

/// Throws UsageError naming `what` unless `array` has the alignment FFTW's plans here assume
/// (16 bytes, as new, malloc, std::vector and fftw_malloc give): a plan made on one array runs
/// on another only if both are aligned alike.
void check_fftw_alignment(const Complex* array, const char* what);

/// One dimension of a guru plan: `n` points `stride` elements apart in the input and
/// `output_stride` apart in the output (the same unless given: a transposing copy differs).
struct Stride {
  static constexpr std::ptrdiff_t kSameAsInput = PTRDIFF_MIN;
  std::ptrdiff_t n;
  std::ptrdiff_t stride;
  std::ptrdiff_t output_stride = kSameAsInput;
  std::ptrdiff_t out() const { return output_stride == kSameAsInput ? stride : output_stride; }
};

/// RAII over one fftw_plan made with the guru64 interface: a transform over the `transform`
/// dimensions (one for lines, two for planes, none for a strided copy such as a local
/// transpose), repeated over the `batches` loops. In place when `in
/// == out`. Planning with MEASURE or PATIENT overwrites the arrays, so plans are made before data
/// is filled.
class FftwPlan {
 public:
  FftwPlan() = default;
  FftwPlan(const std::vector<Stride>& transform, const std::vector<Stride>& batches, Complex* in,
           Complex* out, Direction direction, Rigor rigor);
  FftwPlan(FftwPlan&& other) noexcept;
  FftwPlan& operator=(FftwPlan&& other) noexcept;
  FftwPlan(const FftwPlan&) = delete;
  FftwPlan& operator=(const FftwPlan&) = delete;
  ~FftwPlan();

  /// Runs on the arrays the plan was made for.
  void execute() const { fftw_execute(plan_); }
  /// Runs on other arrays with the same strides, in-placeness and alignment (FFTW's new-array
  /// execute; complex doubles are always aligned alike here, FFTW's SIMD alignment being 16).
  /// Out of place, `in` is only read: FFTW preserves the input of c2c transforms and copies.
  void execute(const Complex* in, Complex* out) const {
    fftw_execute_dft(plan_, reinterpret_cast<fftw_complex*>(const_cast<Complex*>(in)),
                     reinterpret_cast<fftw_complex*>(out));
  }
  explicit operator bool() const { return plan_ != nullptr; }

 private:
  fftw_plan plan_ = nullptr;
};

}  // namespace a2afft::fft
