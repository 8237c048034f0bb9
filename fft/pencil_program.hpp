#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "fftw_plan.hpp"
#include "pencil_geometry.hpp"
#include "pencil_plans.hpp"
#include "plane_program.hpp"

// A pencil plan's directions as plane programs (docs/design.md §4): the sweeps pencil_schedule()
// lays out, each turned into the plane operations it runs, with the exchanges between them.
namespace a2afft::detail::fft {

/// What a pencil plan compiles its programs from, besides its geometry and FFT plans: the sizes
/// of its values, the transposes and exchanges between its stages (indexed kRowThere ..
/// kRowBack, with our rank in each exchange), each stage's resize (padded plans), and scaling.
struct PencilProgramSetup {
  const PencilGeometry* geometry = nullptr;
  std::size_t batch = 1;
  std::size_t scalar_bytes = 0;  // one value of the moved array: Complex, or Real for real data
  bool real_input = false;       // r2c forward, c2r backward: through the real plane
  std::size_t real_plane_bytes = 0;
  std::array<const TransposeStep*, 4> transposes{};
  std::array<ExchangePlan*, 4> exchanges{};
  std::array<int, 4> ranks_in_exchange{};
  const std::array<PlaneResize, 3>* resizes = nullptr;
  Scaling scaling = Scaling::none;
  std::size_t logical_points = 1;  // what scaling divides by
};

/// How a padded stage's planes go from its padded side to its modes, in its stored order: the
/// axes it transforms padded as the plan says (`shape` the modes, `physical` the padded grid,
/// both of the logical array), the others (and the plane axis) untouched.
PlaneResize pencil_plane_resize(const PencilGeometry& geometry, const Shape3& shape,
                                const Shape3& physical, const std::array<AxisKind, 3>& axes,
                                std::size_t batch, std::size_t stage);

/// The program of one direction of a pencil plan running `schedule`: the planes it transforms
/// get their plans from `ffts`, made there on first use (so in the order the sweeps run).
template <typename Real>
PlaneProgram<Real> compile_pencil_program(const PencilProgramSetup& setup,
                                          const std::vector<PencilSweepPlan>& schedule,
                                          Direction direction, PencilPlaneFfts<Real>& ffts);

}  // namespace a2afft::detail::fft
