// traffic() of the engines against the bytes their executor reports moving (issue 44): every
// forward and backward of a pencil plan (3D and 2D) and a six-step plan runs with a
// TrafficCounter attached, and what it counted must equal traffic()'s fold over the same program,
// and the hand count of tests/support/traffic_oracle.hpp. Kinds c2c, r2c, r2r and mixed axes,
// none axes, padding, batches, both precisions, natural and transposed output, every grid of P
// (ranks holding nothing included), an exchange that leaves our own block to the pack and one
// that does not. Run for P = 1..4, 6 and 8.

#include <mpi.h>

#include <gtest/gtest.h>

#include <complex>
#include <string>
#include <vector>

#include "make_exchange.hpp"
#include "pencil3d.hpp"
#include "six_step1d.hpp"
#include "traffic_oracle.hpp"

namespace a2afft::detail::fft {
namespace {

const Topology& topology() {
  static const Topology instance(MPI_COMM_WORLD, LayoutRequest::from_environment());
  return instance;
}

std::vector<ProcGrid> every_grid(int ranks) {
  std::vector<ProcGrid> grids;
  for (int rows = 1; rows <= ranks; ++rows) {
    if (ranks % rows == 0) grids.push_back({rows, ranks / rows});
  }
  return grids;
}

using Axes = std::array<AxisKind, 3>;
constexpr AxisKind kDft = AxisKind::dft;
constexpr AxisKind kR2c = AxisKind::r2c;

struct PencilCase {
  std::string name;
  Shape3 shape;
  Axes axes;
  Shape3 padded;  // {}: none
  std::size_t batch;
  bool natural;
};

// The kinds, paddings, batches and shapes the engines' and the API's tests transform.
const PencilCase kPencilCases[] = {
    {"c2c", {8, 6, 5}, {kDft, kDft, kDft}, {}, 1, false},
    {"c2c natural", {8, 6, 5}, {kDft, kDft, kDft}, {}, 1, true},
    {"c2c empty parts", {3, 2, 5}, {kDft, kDft, kDft}, {}, 1, false},
    {"2d c2c", {1, 12, 9}, {kDft, kDft, kDft}, {}, 1, false},
    {"r2c", {8, 6, 6}, {kDft, kDft, kR2c}, {}, 1, false},
    {"r2c natural batch", {5, 7, 8}, {kDft, kDft, kR2c}, {}, 2, true},
    {"r2r", {6, 5, 7}, {AxisKind::dct2, AxisKind::dst3, AxisKind::dct1}, {}, 1, false},
    {"mixed", {6, 5, 8}, {AxisKind::dct2, kDft, kR2c}, {}, 1, false},
    {"none axis", {6, 5, 4}, {AxisKind::none, kDft, kDft}, {}, 1, false},
    {"none axis natural", {6, 5, 4}, {AxisKind::none, kDft, kDft}, {}, 1, true},
    {"c2c batch", {8, 6, 5}, {kDft, kDft, kDft}, {}, 3, false},
    {"padded c2c", {8, 6, 5}, {kDft, kDft, kDft}, {12, 9, 7}, 1, false},
    {"padded r2c batch", {8, 6, 6}, {kDft, kDft, kR2c}, {12, 9, 9}, 2, false},
};

// The hand count has a sweep that moves nothing (a stage of none axes only, no exchange in or
// out) read and write its stage; the program has no operation there, and counts nothing.
bool oracle_applies(const PencilCase& c) {
  return c.axes[0] != AxisKind::none;
}

// Runs `plan` once in one direction with a counter attached, checks that the executor moved
// exactly what traffic() folds from the program, and returns traffic().
template <class Plan, typename Real>
TransformTraffic counted_run(Plan& plan, std::vector<std::complex<Real>>& in,
                             std::vector<std::complex<Real>>& out, bool backward,
                             const std::string& direction) {
  TrafficCounter counter;
  plan.count_traffic(&counter);
  if (backward) {
    plan.backward(out.data(), in.data());
  } else {
    plan.forward(in.data(), out.data());
  }
  const TransformTraffic traffic = plan.traffic(backward);
  EXPECT_EQ(counter.bytes_moved(), traffic.bytes_moved) << direction;
  EXPECT_EQ(counter.bytes_exchanged(), traffic.exchanged_bytes) << direction;
  return traffic;
}

template <typename Real>
void check_pencil(const PencilCase& c, const ProcGrid& grid, const std::string& spec) {
  Pencil3dOptions options{parse_spec(spec), parse_spec(spec), Rigor::estimate, c.natural};
  options.axes = c.axes;
  options.padded = c.padded;
  options.batch = c.batch;
  BasicPencil3d<Real> plan(topology(), c.shape, grid, options);
  const std::string what = c.name + " " + spec + " on " + grid.to_string() + " " +
                           (sizeof(Real) == 4 ? "float" : "double");
  std::vector<std::complex<Real>> in(plan.in_place_elements() + 1);
  std::vector<std::complex<Real>> out(plan.in_place_elements() + 1);
  const std::size_t scalar_bytes = plan.real_data() ? sizeof(Real) : sizeof(std::complex<Real>);
  const std::size_t input_side =
      plan.input_scalars() * (plan.real_input() ? sizeof(Real) : scalar_bytes);
  const std::size_t output_side = plan.output_scalars() * scalar_bytes;
  for (const bool backward : {false, true}) {
    const std::string direction = what + (backward ? " backward" : " forward");
    const TransformTraffic traffic = counted_run(plan, in, out, backward, direction);
    if (!oracle_applies(c)) continue;
    const PencilGeometry& geometry = plan.geometry();
    const auto schedule = pencil_schedule(geometry, backward, plan.leaves_own_block());
    EXPECT_EQ(traffic.bytes_moved,
              pencil_bytes_moved(geometry, schedule, c.batch * scalar_bytes,
                                 backward ? output_side : input_side,
                                 backward ? input_side : output_side, backward))
        << direction;
    EXPECT_EQ(traffic.exchanged_bytes,
              pencil_bytes_exchanged(geometry, schedule, c.batch * scalar_bytes))
        << direction;
  }
}

TEST(PencilTraffic, the_fold_is_what_the_executor_moves_and_the_hand_count) {
  for (const PencilCase& c : kPencilCases) {
    for (const ProcGrid& grid : every_grid(topology().size())) {
      for (const std::string spec : {"mpi", "pairwise"}) {
        check_pencil<double>(c, grid, spec);
        check_pencil<float>(c, grid, spec);
      }
    }
  }
}

template <typename Real>
void check_six_step(std::size_t n, bool scrambled, std::size_t batch, const std::string& spec) {
  SixStep1dOptions options;
  options.exchange = parse_spec(spec);
  options.scrambled_output = scrambled;
  options.batch = batch;
  BasicSixStep1d<Real> plan(topology(), n, options);
  const std::string what = std::to_string(n) + (scrambled ? " scrambled " : " natural ") +
                           "batch " + std::to_string(batch) + " " + spec + " " +
                           (sizeof(Real) == 4 ? "float" : "double");
  std::vector<std::complex<Real>> in(plan.local_scalars());
  std::vector<std::complex<Real>> out(plan.local_scalars());
  for (const bool backward : {false, true}) {
    const std::string direction = what + (backward ? " backward" : " forward");
    const TransformTraffic traffic = counted_run(plan, in, out, backward, direction);
    const SixStepGeometry& geometry = plan.geometry();
    const auto steps = six_step_schedule(geometry, backward, plan.leaves_own_block());
    EXPECT_EQ(traffic.bytes_moved,
              six_step_bytes_moved(geometry, steps, batch * sizeof(std::complex<Real>)))
        << direction;
  }
}

TEST(SixStepTraffic, the_fold_is_what_the_executor_moves_and_the_hand_count) {
  // N1 = N2 = 4P, and a length of 2^12 rows long enough for several chunks of rows.
  const auto p = static_cast<std::size_t>(topology().size());
  for (const std::size_t n : {16 * p * p, std::size_t{1} << 16}) {
    if (n % (p * p) != 0) continue;  // 2^16 on 3 and 6 ranks: no six-step split
    for (const bool scrambled : {false, true}) {
      for (const std::size_t batch : {std::size_t{1}, std::size_t{3}}) {
        for (const std::string spec : {"mpi", "pairwise"}) {
          check_six_step<double>(n, scrambled, batch, spec);
          check_six_step<float>(n, scrambled, batch, spec);
        }
      }
    }
  }
}

}  // namespace
}  // namespace a2afft::detail::fft
