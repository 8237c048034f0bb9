#pragma once

// The plans an FFT benchmark times, behind one small interface, and how they are made: each
// from a maker that may refuse (a backend `all` named that cannot run here) or may turn out to
// build the same plan as an earlier one (then it is not run twice).

#include <mpi.h>

#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <a2afft/buffer.hpp>
#include <a2afft/fft1d.hpp>
#include <a2afft/fft2d.hpp>
#include <a2afft/fft3d.hpp>

namespace a2afft::commands {

/// What every candidate of one benchmark run transforms (the public descriptor), with what the
/// benchmark derives from it.
struct BenchmarkTransform : a2afft::Transform {
  /// The output's shape for a logical (input) `shape`: n2/2+1 points along dimension 2 for r2c.
  std::array<std::size_t, 3> output_shape(const std::array<std::size_t, 3>& shape) const;
  /// The conventional flop count of one transform of `shape` (a 2D plan's as 1 x n0 x n1):
  /// fft_flops(), 5 N log2 N for c2c, half of that for real data, times the fields (as heFFTe,
  /// FFTW and HPCC count; benchFFT's convention for r2r).
  double flops(const std::array<std::size_t, 3>& shape) const;
  /// What backward(forward(x)) multiplies x by: the product of the axes' logical sizes (of the
  /// padded grid, when padded).
  double round_trip_factor(const std::array<std::size_t, 3>& shape) const;
  /// The physical grid forward() takes for a logical `shape` (a 2D plan's as 1 x n0 x n1):
  /// padded by the factors, or `shape` itself.
  std::array<std::size_t, 3> padded_shape(const std::array<std::size_t, 3>& shape) const;
  /// Bytes of one point of every field as the transposes move it (complex; real for r2r).
  double point_bytes() const { return static_cast<double>(batch * output_scalar_bytes()); }
  /// The input side is real (r2c, r2r), and the output side (r2r).
  bool real_input() const { return kind != Kind::c2c; }
  bool real_output() const { return kind == Kind::r2r; }
};

/// Where a candidate's array comes from (--arrays): a2afft::allocate() (huge pages), or the
/// plain heap, as std::vector, malloc and fftw_malloc give (4 KiB pages under Debian's "madvise"
/// transparent huge page setting).
enum class Arrays { huge_pages, plain };
/// --arrays: huge-pages or plain; UsageError names the option.
Arrays parse_arrays(const std::string& text);
/// `bytes` (at least 64) of memory of that kind, zeroed now so that no timed call first-touches
/// it, 64-byte aligned.
Buffer candidate_array(std::size_t bytes, Arrays arrays);

/// max |x'/N - x| and max |x| over this rank's values after a round trip, before the reduction
/// over ranks.
struct RoundTrip {
  double worst = 0;
  double scale = 0;
};

/// What the benchmark needs of a plan (a2afft's Fft3d and Fft1d, FFTW-MPI's), so every engine is
/// timed in one loop. Each transforms an array of its own in place. The benchmark's input is one
/// field of complex doubles; a candidate stores field f as (f + 1) times it, in its own kind
/// (the real part for r2c) and precision.
class FftCandidate {
 public:
  FftCandidate(std::string engine, BenchmarkTransform transform)
      : engine_(std::move(engine)), transform_(transform) {}
  virtual ~FftCandidate() = default;
  const std::string& engine() const { return engine_; }
  const BenchmarkTransform& transform() const { return transform_; }
  virtual std::string describe() const = 0;
  /// Threads of each rank the plan runs on (a2afft's timed choice under --threads auto).
  virtual int threads() const { return 1; }
  /// This rank's part of the input, row-major.
  virtual Box3 input_box() const = 0;
  /// Stores `input` (input_box()'s points, row-major) in the plan's array, untimed.
  virtual void load(const std::vector<Complex>& input) = 0;
  virtual void forward() = 0;
  virtual void backward() = 0;
  /// Field 0 of the forward output of the array, in double and natural order, whole on rank 0
  /// (empty elsewhere); collective, untimed.
  virtual std::vector<Complex> gather_output() const = 0;
  /// After load(input), forward() and backward(): how far the array is from `points` times the
  /// loaded fields, on this rank.
  virtual RoundTrip round_trip(const std::vector<Complex>& input, double points) const = 0;
  /// The split of the last forward() or backward() on this rank.
  virtual FftTimes last_times() const = 0;
  /// What a forward transform moves and computes on this rank, where the plan can count it
  /// (a2afft's; FFTW-MPI's cannot).
  virtual std::optional<TransformTraffic> traffic() const { return std::nullopt; }
  /// Bytes this rank's exchanges send to others in forward() and backward() together, where the
  /// plan counts them (a2afft's).
  virtual std::optional<std::size_t> exchanged_bytes() const { return std::nullopt; }

 private:
  std::string engine_;
  BenchmarkTransform transform_;
};

/// How a candidate's array holds the input side: `row` points per row of the input box,
/// `padded_row` slots per stored row (FFTW-MPI pads r2c rows to 2(n2/2+1) reals).
struct InputRows {
  std::size_t row;
  std::size_t padded_row;
};
/// Stores `input` into `array` as `transform` does (see FftCandidate).
void store_fields(const BenchmarkTransform& transform, const std::vector<Complex>& input,
                  const InputRows& rows, void* array);
/// The round trip of `array` against what store_fields stored.
RoundTrip compare_fields(const BenchmarkTransform& transform, const std::vector<Complex>& input,
                         const InputRows& rows, const void* array, double points);
/// Field 0 of `points` complex outputs of `array`, as complex doubles.
std::vector<Complex> field_zero(const BenchmarkTransform& transform, const void* array,
                                std::size_t points);

/// The bytes a plan's exchanges send to other ranks in forward and backward together.
inline std::size_t both_ways(const DistributedFft& fft) {
  return fft.traffic(Direction::forward).exchanged_bytes +
         fft.traffic(Direction::backward).exchanged_bytes;
}

/// a2afft's 3D FFT on an array of its own, transformed in place (through Fft3d::execute, so
/// any kind, precision and batch).
class Fft3dCandidate final : public FftCandidate {
 public:
  Fft3dCandidate(MPI_Comm comm, const std::array<std::size_t, 3>& shape,
                 const Fft3dOptions& options, Arrays arrays);
  std::string describe() const override { return fft_.describe(); }
  int threads() const override { return fft_.threads(); }
  Box3 input_box() const override { return fft_.input_box(); }
  void load(const std::vector<Complex>& input) override;
  void forward() override;
  void backward() override;
  std::vector<Complex> gather_output() const override;
  RoundTrip round_trip(const std::vector<Complex>& input, double points) const override;
  FftTimes last_times() const override { return fft_.last_times(); }
  std::optional<TransformTraffic> traffic() const override { return fft_.traffic(); }
  std::optional<std::size_t> exchanged_bytes() const override { return both_ways(fft_); }

 private:
  MPI_Comm comm_;
  Fft3d fft_;
  Buffer array_;  // in_place_bytes() of the plan's types
};

/// a2afft's 2D FFT, seen as the 3D transform of a 1 x n0 x n1 array (its boxes with a leading
/// dimension of one point), on an array of its own, in place.
class Fft2dCandidate final : public FftCandidate {
 public:
  Fft2dCandidate(MPI_Comm comm, const std::array<std::size_t, 2>& shape,
                 const Fft2dOptions& options, Arrays arrays);
  std::string describe() const override { return fft_.describe(); }
  int threads() const override { return fft_.threads(); }
  Box3 input_box() const override;
  void load(const std::vector<Complex>& input) override;
  void forward() override;
  void backward() override;
  std::vector<Complex> gather_output() const override;
  RoundTrip round_trip(const std::vector<Complex>& input, double points) const override;
  FftTimes last_times() const override { return fft_.last_times(); }
  std::optional<TransformTraffic> traffic() const override { return fft_.traffic(); }
  std::optional<std::size_t> exchanged_bytes() const override { return both_ways(fft_); }

 private:
  MPI_Comm comm_;
  Fft2d fft_;
  Buffer array_;
};

/// a2afft's six-step 1D FFT (c2c, either precision, any batch) on an array of its own,
/// transformed in place through Fft1d::execute.
class Fft1dCandidate final : public FftCandidate {
 public:
  Fft1dCandidate(MPI_Comm comm, std::size_t n, const Fft1dOptions& options, Arrays arrays);
  std::string describe() const override { return fft_.describe(); }
  int threads() const override { return fft_.threads(); }
  Box3 input_box() const override;
  void load(const std::vector<Complex>& input) override;
  void forward() override;
  void backward() override;
  std::vector<Complex> gather_output() const override;
  RoundTrip round_trip(const std::vector<Complex>& input, double points) const override;
  FftTimes last_times() const override { return fft_.last_times(); }
  std::optional<TransformTraffic> traffic() const override { return fft_.traffic(); }

 private:
  MPI_Comm comm_;
  Fft1d fft_;
  Buffer array_;  // local_bytes() of the plan's type
};

using MakeCandidate = std::function<std::unique_ptr<FftCandidate>()>;

/// Makes one candidate (nullptr for one that was reported as not run); `spec` names it in notes.
struct CandidateMaker {
  std::string spec;
  MakeCandidate make;
};

/// A refusal (UsageError) from `make` is printed as `# not run: <why><consequence>` and skipped
/// when `skip` (a backend that came in through `all`, a reference engine beside a2afft's rows);
/// otherwise it is the run's one error (exit 2). Other errors stop the run.
CandidateMaker skipping_refusal_if(bool skip, std::string spec, MakeCandidate make,
                                   std::string consequence = {});

/// Makes candidates and drops each whose engine and describe() equal an earlier one's: timing
/// the same plan twice tells nothing (on one rank every exchange is `-`). Remembers only names,
/// so it also works when each plan is freed before the next is made.
class DistinctCandidates {
 public:
  /// nullptr when the maker refused or the plan repeats an earlier one. Collective.
  std::unique_ptr<FftCandidate> make(const CandidateMaker& maker);
  /// `# not run: pairwise, tra: same plan as mpi (row=-,column=-)`, one line per plan that
  /// others repeated.
  void print_notes(std::ostream& out) const;

 private:
  struct Made {
    std::string engine, describe, spec;
    std::vector<std::string> repeats;  // the specs that built the same plan
  };
  std::vector<Made> made_;
};

}  // namespace a2afft::commands
