#pragma once

// The plans an FFT benchmark times, behind one small interface, and how they are made: each
// from a maker that may refuse (a backend `all` named that cannot run here) or may turn out to
// build the same plan as an earlier one (then it is not run twice).

#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "fftw_plan.hpp"
#include "geometry.hpp"
#include "timing/phase_timer.hpp"

namespace a2afft::commands {

/// What the benchmark needs of a plan (Pencil3d, SixStep1d, FftwMpi3d, FftwMpi1d), so every
/// engine is timed in one loop.
class FftCandidate {
 public:
  explicit FftCandidate(std::string engine) : engine_(std::move(engine)) {}
  virtual ~FftCandidate() = default;
  const std::string& engine() const { return engine_; }
  virtual std::string describe() const = 0;
  virtual fft::Box3 input_box() const = 0;
  virtual fft::Complex* data() = 0;
  virtual void forward() = 0;
  virtual void backward() = 0;
  virtual std::vector<fft::Complex> gather_output() const = 0;
  virtual void attach_timer(PhaseTimer* timer) = 0;

 private:
  std::string engine_;
};

template <typename Plan>
class PlanCandidate final : public FftCandidate {
 public:
  PlanCandidate(std::string engine, std::unique_ptr<Plan> plan)
      : FftCandidate(std::move(engine)), plan_(std::move(plan)) {}
  std::string describe() const override { return plan_->describe(); }
  fft::Box3 input_box() const override { return plan_->input_box(); }
  fft::Complex* data() override { return plan_->data(); }
  void forward() override { plan_->forward(); }
  void backward() override { plan_->backward(); }
  std::vector<fft::Complex> gather_output() const override { return plan_->gather_output(); }
  void attach_timer(PhaseTimer* timer) override { plan_->attach_timer(timer); }

 private:
  std::unique_ptr<Plan> plan_;
};

template <typename Plan>
std::unique_ptr<FftCandidate> make_candidate(std::string engine, std::unique_ptr<Plan> plan) {
  return std::make_unique<PlanCandidate<Plan>>(std::move(engine), std::move(plan));
}

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
