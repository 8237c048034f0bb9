#pragma once

// The plans an FFT benchmark times, behind one small interface, and how they are made: each
// from a maker that may refuse (a backend `all` named that cannot run here) or may turn out to
// build the same plan as an earlier one (then it is not run twice).

#include <mpi.h>

#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include <a2afft/fft1d.hpp>
#include <a2afft/fft3d.hpp>

namespace a2afft::commands {

/// What the benchmark needs of a plan (a2afft's Fft3d and Fft1d, FFTW-MPI's), so every engine is
/// timed in one loop. Each transforms an array of its own in place.
class FftCandidate {
 public:
  explicit FftCandidate(std::string engine) : engine_(std::move(engine)) {}
  virtual ~FftCandidate() = default;
  const std::string& engine() const { return engine_; }
  virtual std::string describe() const = 0;
  /// This rank's part of the input, row-major: where data() starts each run.
  virtual Box3 input_box() const = 0;
  virtual Complex* data() = 0;
  virtual void forward() = 0;
  virtual void backward() = 0;
  /// The whole forward output of data() in natural order on rank 0 (empty elsewhere);
  /// collective, untimed.
  virtual std::vector<Complex> gather_output() const = 0;
  /// The split of the last forward() or backward() on this rank.
  virtual FftTimes last_times() const = 0;

 private:
  std::string engine_;
};

/// One of a2afft's plans (Fft3d, Fft1d) on an array of its own, transformed in place.
template <typename Plan>
class OwnArrayCandidate : public FftCandidate {
 public:
  std::string describe() const override { return fft_.describe(); }
  Complex* data() override { return data_.data(); }
  void forward() override { fft_.forward(data_.data(), data_.data()); }
  void backward() override { fft_.backward(data_.data(), data_.data()); }
  FftTimes last_times() const override { return fft_.last_times(); }

 protected:
  OwnArrayCandidate(MPI_Comm comm, Plan fft, std::size_t elements)
      : FftCandidate("a2afft"), comm_(comm), fft_(std::move(fft)), data_(elements) {}

  MPI_Comm comm_;
  Plan fft_;
  std::vector<Complex> data_;
};

class Fft3dCandidate final : public OwnArrayCandidate<Fft3d> {
 public:
  Fft3dCandidate(MPI_Comm comm, const std::array<std::size_t, 3>& shape,
                 const Fft3dOptions& options);
  Box3 input_box() const override { return fft_.input_box(); }
  std::vector<Complex> gather_output() const override;
};

class Fft1dCandidate final : public OwnArrayCandidate<Fft1d> {
 public:
  Fft1dCandidate(MPI_Comm comm, std::size_t n, const Fft1dOptions& options);
  Box3 input_box() const override;
  std::vector<Complex> gather_output() const override;
};

using MakeCandidate = std::function<std::unique_ptr<FftCandidate>()>;

/// Makes one candidate (nullptr for one that was reported as not run); `spec` names it in notes.
struct CandidateMaker {
  std::string spec;
  MakeCandidate make;
};

/// A refusal (UsageError) from `make` for a backend that came in through `all` is printed as
/// `# not run: ...` and skipped; other makers' errors stop the run.
CandidateMaker skipping_refusal_if(bool from_all, std::string spec, MakeCandidate make);

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
