#pragma once

// The one front end behind the public FFTs (include/a2afft/fft.hpp's DistributedFft, which
// Fft3d, Fft2d and Fft1d derive from): what a planned engine offers whatever its dimension and
// precision (FftEngine), what every plan holds (FftCore), and the steps every constructor takes
// (begin_plan, plan_engine). The dimension-specific parts (the grid, the six-step split, the
// boxes' meaning) stay in fft3d.cpp, fft2d.cpp and fft1d.cpp.

#include <mpi.h>

#include <array>
#include <memory>
#include <string>
#include <vector>

#include <a2afft/fft.hpp>
#include <a2afft/fft3d.hpp>

#include "collective_checks.hpp"
#include "timing/phase_timer.hpp"
#include "topology/topology.hpp"

namespace a2afft::detail {

/// A planned engine of either precision: the 3D pencil plan (fft::BasicPencil3d, also behind
/// Fft2d) or the 1D six-step plan (fft::BasicSixStep1d). forward() and backward() take the
/// arrays as DistributedFft typed and checked them for the plan's transform.
class FftEngine {
 public:
  virtual ~FftEngine() = default;
  virtual void forward(const void* in, void* out) = 0;
  virtual void backward(const void* in, void* out) = 0;
  /// This rank's boxes in public form (the 1D plan's: one row of N points).
  virtual Box3 input_box() const = 0;
  virtual Box3 output_box() const = 0;
  /// Scalars of the input side (real for r2c) and of the output side, all fields; complex
  /// numbers of an in-place array.
  virtual std::size_t input_scalars() const = 0;
  virtual std::size_t output_scalars() const = 0;
  virtual std::size_t in_place_elements() const = 0;
  virtual std::size_t workspace_bytes() const = 0;
  /// Counted as the engine's schedule runs; DistributedFft adds the flops.
  virtual TransformTraffic traffic(bool backward) const = 0;
  virtual std::string describe() const = 0;
};

/// What every public plan holds.
struct FftCore {
  /// How errors name the plan: "Fft3d", "Fft2d", "Fft1d".
  std::string who;
  Transform transform;
  /// fft_flops() of the whole transform, every rank's share together.
  double flops = 0;
  /// The process grid {p0, p1} of a pencil plan ({1, P} for the others).
  std::array<int, 2> grid{1, 1};
  /// The threads of each rank the plan runs on (PlanOptions::threads, or the timed choice).
  int threads = 1;
  /// How a timed plan was chosen (plan_search.hpp), which describe() adds; empty otherwise.
  std::string plan_note;
  std::unique_ptr<Topology> topology;  // declared before the engine: outlives it
  PhaseTimer timer;                    // the engine's; cleared before each call
  std::unique_ptr<FftEngine> engine;
};

/// A plan's first steps, collective over `comm`: the communicator; that every rank passed the
/// same shared options and the same `own` arguments (the shape, the grid, ...); the shared
/// options' values and, for an array of two or more axes (`shape`), the kind of each axis
/// (resolved_transform()); then the Topology the options' layout asks for. Throws UsageError
/// naming `who`, the same on every rank.
std::unique_ptr<FftCore> begin_plan(MPI_Comm comm, const char* who, const PlanOptions& options,
                                    std::vector<library::NamedArgument> own,
                                    const std::vector<std::size_t>& shape);

/// The plan's engine of the options' precision: make(Real{}) returns a std::unique_ptr to an
/// FftEngine, planned between reading and writing the options' wisdom file; its timer is the
/// core's.
template <typename MakeEngine>
void plan_engine(FftCore& core, const PlanOptions& options, MakeEngine make) {
  const auto plan = [&](auto real) {
    using Real = decltype(real);
    core.engine = library::planned_with_wisdom<Real>(options.wisdom_file, core.topology->comm(),
                                                     [&] { return make(real, &core.timer); });
  };
  if (options.precision == Precision::single_precision) {
    plan(float{});
  } else {
    plan(double{});
  }
}

/// The core of a pencil plan of `shape` (Fft3d's, and Fft2d's on a 1 x n0 x n1 array), with
/// `shape_text` as the caller wrote the shape (for messages); a `two_d` plan's describe() names
/// its one exchange. Collective; throws UsageError naming `who`.
std::unique_ptr<FftCore> make_pencil_core(MPI_Comm comm, const char* who,
                                          const std::array<std::size_t, 3>& shape,
                                          const std::string& shape_text,
                                          const Fft3dOptions& options, bool two_d);

/// The public box of an engine's box: the same corner and size, dimensions 0 and 1 swapped in
/// storage when `leading_swapped`.
template <typename EngineBox>
Box3 public_box(const EngineBox& box, bool leading_swapped) {
  Box3 out;
  out.lower = box.offset;
  out.size = box.extent;
  if (leading_swapped) out.order = {1, 0, 2};
  return out;
}

}  // namespace a2afft::detail
