#pragma once

#include <array>
#include <complex>
#include <cstddef>
#include <map>
#include <utility>
#include <vector>

#include "axis_kinds.hpp"
#include "fftw_plan.hpp"
#include "pencil_geometry.hpp"
#include "plane_fft.hpp"

// The FFTW plans a pencil plan runs on each plane of a stage (docs/design.md §4, kinds per axis
// and plan shapes by rigor): made once at construction, run by the plane program's FFT
// operations.
namespace a2afft::detail::fft {

/// What a pencil plan's planes are planned from: the geometry (of the complex array), what each
/// axis does, the fields, the rigor, and the arrays FFTW plans on (the work array, and for r2c
/// the real plane the r2c reads and the c2r writes).
template <typename Real>
struct PencilPlanSetup {
  const PencilGeometry* geometry = nullptr;
  std::array<AxisKind, 3> axes{};
  Shape3 physical{};  // the padded grid of the logical (real, for r2c) array
  std::size_t batch = 1;
  Rigor rigor = Rigor::estimate;
  bool real_data = false;  // no dft or r2c axis: reals throughout
  std::complex<Real>* work = nullptr;
  Real* real_plane = nullptr;
  int threads = 1;  // the threads that run the planes at once (GatheredColumns' scratches)
};

/// The plans of one plane of each stage and direction, in the order they run. The dft family
/// (dft and the r2c, as FFTW's multi-dimensional r2c does) is one plan and the r2r axes another
/// (a kind per axis); each takes the other's axes and the none axes as loops. Forward runs the
/// dft family first, so that the r2c makes the complex data the r2r axes transform; backward the
/// reverse, so the c2r comes last. Under ESTIMATE a strided line across the plane runs apart, in
/// GatheredColumns (plane_fft.hpp).
template <typename Real>
class PencilPlaneFfts {
 public:
  explicit PencilPlaneFfts(const PencilPlanSetup<Real>& setup) : setup_(setup) {}

  /// Whether `stage` transforms any of its axes (none axes only reorder).
  bool transforms(std::size_t stage) const;
  /// The plans of `stage` in `direction`, made on the first call (FFTW cannot plan 0 points: the
  /// stage holds some here). `aligned`: every plane starts at FFTW's SIMD alignment.
  const std::vector<PlaneFft<Real>>& plans(std::size_t stage, Direction direction, bool aligned);

 private:
  std::vector<PlaneFft<Real>> plan_stage(std::size_t stage, Direction direction, bool aligned);
  void plan_dft_family(std::vector<PlaneFft<Real>>& plans, std::vector<Loop> axes,
                       std::vector<Loop> loops, bool r2c, Direction direction, bool aligned);
  void plan_dft_along(std::vector<PlaneFft<Real>>& plans, const std::vector<Loop>& axes,
                      const std::vector<Loop>& loops, bool r2c, Direction direction, bool aligned);
  void plan_r2r(std::vector<PlaneFft<Real>>& plans, const std::vector<Loop>& axes,
                const std::vector<Loop>& loops, const std::vector<fftw_r2r_kind>& kinds,
                Direction direction, bool aligned);

  PencilPlanSetup<Real> setup_;
  std::map<std::pair<Direction, std::size_t>, std::vector<PlaneFft<Real>>> plans_;
};

}  // namespace a2afft::detail::fft
