// Pencil3d against serial FFTW on the gathered array: shapes with odd and prime sizes, every
// process grid of P (ranks that hold nothing included), every registered backend (refused ones
// must refuse), both output layouts; forward, backward, round trip, and repeatability of one
// plan; caller arrays in and out of place against data(); scaling; timings. Run for P = 1..8.

#include "pencil3d.hpp"

#include <mpi.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "agreed.hpp"
#include "engine_arrays.hpp"
#include "error.hpp"
#include "plan_checks.hpp"
#include "registry.hpp"
#include "registry_params.hpp"

namespace a2afft::detail::fft {
namespace {

using testing_support::fill_test_signal;
using testing_support::gather_global;
using testing_support::natural_output;
using testing_support::set_natural_output;
using testing_support::TestPencil3d;

const Topology& topology() {
  static const Topology instance(MPI_COMM_WORLD, LayoutRequest::from_environment());
  return instance;
}

std::vector<Complex> serial_fft(const Shape3& shape, Direction direction, std::uint64_t salt) {
  std::vector<Complex> data(shape[0] * shape[1] * shape[2]);
  for (std::size_t i = 0; i < data.size(); ++i)
    data[i] = test_signal(i, salt);
  fftw_plan plan = fftw_plan_dft_3d(
      static_cast<int>(shape[0]), static_cast<int>(shape[1]), static_cast<int>(shape[2]),
      reinterpret_cast<fftw_complex*>(data.data()), reinterpret_cast<fftw_complex*>(data.data()),
      static_cast<int>(direction), FFTW_ESTIMATE);
  fftw_execute(plan);
  fftw_destroy_plan(plan);
  return data;
}

double relative_error(const Complex* local, const BoxRange& box, const Shape3& shape,
                      const std::vector<Complex>& expected) {
  const std::vector<Complex> got = gather_global(local, box, shape, MPI_COMM_WORLD);
  return relative_difference(got, topology().rank() == 0 ? expected : std::vector<Complex>{},
                             MPI_COMM_WORLD);
}

// Every p0 x p1 grid of `ranks`, slabs included; grids wider than a shape leave ranks empty.
std::vector<ProcGrid> every_grid(int ranks) {
  std::vector<ProcGrid> grids;
  for (int rows = 1; rows <= ranks; ++rows) {
    if (ranks % rows == 0) grids.push_back({rows, ranks / rows});
  }
  return grids;
}

std::size_t points(const Shape3& shape) {
  return shape[0] * shape[1] * shape[2];
}

// Max over ranks of |got[i] * factor - expected[i]|.
double worst_difference(const Complex* got, double factor, const std::vector<Complex>& expected) {
  double worst = 0;
  for (std::size_t i = 0; i < expected.size(); ++i)
    worst = std::max(worst, std::abs(got[i] * factor - expected[i]));
  MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return worst;
}

constexpr double kTolerance = 1e-12;
const Shape3 kShapes[] = {{8, 8, 8}, {12, 10, 9}, {17, 5, 3}, {1, 1, 7}};

class Pencil3dBackend : public ::testing::TestWithParam<std::string> {};

TEST_P(Pencil3dBackend, matches_serial_fftw_on_every_grid) {
  const std::string& spec = GetParam();
  int cases = 0;
  for (const Shape3& shape : kShapes) {
    const std::vector<Complex> forward_reference = serial_fft(shape, Direction::forward, 1);
    const std::vector<Complex> backward_reference = serial_fft(shape, Direction::backward, 2);
    const auto count = static_cast<double>(points(shape));
    for (const ProcGrid& grid : every_grid(topology().size())) {
      for (const bool natural : {false, true}) {
        const Pencil3dOptions options{parse_spec(spec), parse_spec(spec), Rigor::estimate, natural};
        const std::string what = spec + " " + shape_to_string(shape) + " on " + grid.to_string() +
                                 (natural ? " natural" : " transposed");
        std::unique_ptr<TestPencil3d> plan;
        try {
          plan = std::make_unique<TestPencil3d>(topology(), shape, grid, options);
        } catch (const UsageError& error) {
          // Only a layout refusal is acceptable, and only where the registry says so.
          const std::string text = error.what();
          EXPECT_NE(text.find("cannot run on"), std::string::npos) << what << ": " << text;
          continue;
        }
        ++cases;
        fill_test_signal(plan->data(), plan->input_box(), shape, 1);
        plan->forward();
        EXPECT_LT(relative_error(natural_output(*plan, plan->data()).data(), plan->output_box(),
                                 shape, forward_reference),
                  kTolerance)
            << what << " forward, " << plan->describe();

        // Round trip: backward(forward(x)) = N x.
        plan->backward();
        double worst = 0;
        std::vector<Complex> original(plan->input_box().elements());
        fill_test_signal(original.data(), plan->input_box(), shape, 1);
        for (std::size_t i = 0; i < original.size(); ++i) {
          worst = std::max(worst, std::abs(plan->data()[i] / count - original[i]));
        }
        MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        EXPECT_LT(worst, kTolerance) << what << " round trip";

        // Backward on its own, from data laid out as the forward output.
        std::vector<Complex> spectrum(plan->output_box().elements());
        fill_test_signal(spectrum.data(), plan->output_box(), shape, 2);
        set_natural_output(*plan, spectrum.data(), plan->data());
        plan->backward();
        EXPECT_LT(relative_error(plan->data(), plan->input_box(), shape, backward_reference),
                  kTolerance)
            << what << " backward";

        testing_support::expect_repeatable_forward(
            *plan, plan->output_box().elements(),
            [&] { fill_test_signal(plan->data(), plan->input_box(), shape, 1); }, what);
      }
    }
  }
  if (topology().rank() == 0)
    std::printf("[  cases   ] %s: %d plans checked\n", spec.c_str(), cases);
}

INSTANTIATE_TEST_SUITE_P(Registry, Pencil3dBackend,
                         ::testing::ValuesIn(testing_support::backend_specs_to_check()),
                         testing_support::SpecParamName());

TEST_P(Pencil3dBackend, gives_the_same_bits_as_every_other_backend) {
  const std::string& spec = GetParam();
  for (const Shape3& shape : {Shape3{12, 10, 9}, Shape3{8, 8, 8}}) {
    for (const ProcGrid& grid : every_grid(topology().size())) {
      const std::string what = spec + " " + shape_to_string(shape) + " on " + grid.to_string();
      const Pencil3dOptions options{parse_spec(spec), parse_spec(spec), Rigor::estimate, true};
      std::unique_ptr<TestPencil3d> plan;
      try {
        plan = std::make_unique<TestPencil3d>(topology(), shape, grid, options);
      } catch (const UsageError& error) {
        EXPECT_NE(std::string(error.what()).find("cannot run on"), std::string::npos) << what;
        continue;
      }
      TestPencil3d reference(topology(), shape, grid,
                             {{"mpi", {}}, {"mpi", {}}, Rigor::estimate, true});
      const std::string local = testing_support::bit_difference(
          *plan, reference, plan->output_box().elements(), plan->input_box().elements(),
          [&](Complex* data) { fill_test_signal(data, plan->input_box(), shape, 3); });
      EXPECT_EQ(testing_support::agreed_failure(local), "")
          << what << ": " << plan->describe() << " against " << reference.describe();
    }
  }
}

TEST(Pencil3d, row_and_column_exchanges_may_differ) {
  const Shape3 shape{12, 10, 9};
  const auto grids = every_grid(topology().size());
  const ProcGrid grid = grids[grids.size() / 2];
  const Pencil3d plan(topology(), shape, grid,
                      {parse_spec("pairwise"), parse_spec("nonblocking"), Rigor::estimate, false});
  const std::string text = plan.describe();
  EXPECT_EQ(text.find("row=") == 0, true) << text;
  if (grid.columns > 1) {
    EXPECT_NE(text.find("row=pairwise"), std::string::npos) << text;
  }
  if (grid.rows > 1) {
    EXPECT_NE(text.find("column=nonblocking"), std::string::npos) << text;
  }
}

// Under ESTIMATE a line strided across a plane runs as chunks of columns gathered into a
// scratch (GatheredColumns): 520-point lines of complex doubles take chunks of 16 columns, so
// 20 columns are a chunk and a tail of 4, along y (slab planes, stage 1) and along x (stage 2).
TEST(Pencil3d, estimate_runs_long_strided_lines_in_chunks_and_a_tail) {
  for (const Shape3& shape : {Shape3{4, 520, 20}, Shape3{520, 4, 20}}) {
    const std::vector<Complex> forward_reference = serial_fft(shape, Direction::forward, 1);
    const std::vector<Complex> backward_reference = serial_fft(shape, Direction::backward, 2);
    for (const ProcGrid& grid : every_grid(topology().size())) {
      for (const bool natural : {false, true}) {
        const std::string what = shape_to_string(shape) + " on " + grid.to_string() +
                                 (natural ? " natural" : " transposed");
        TestPencil3d plan(
            topology(), shape, grid,
            {parse_spec("pairwise"), parse_spec("pairwise"), Rigor::estimate, natural});
        fill_test_signal(plan.data(), plan.input_box(), shape, 1);
        plan.forward();
        EXPECT_LT(relative_error(natural_output(plan, plan.data()).data(), plan.output_box(), shape,
                                 forward_reference),
                  kTolerance)
            << what << " forward";
        std::vector<Complex> spectrum(plan.output_box().elements());
        fill_test_signal(spectrum.data(), plan.output_box(), shape, 2);
        set_natural_output(plan, spectrum.data(), plan.data());
        plan.backward();
        EXPECT_LT(relative_error(plan.data(), plan.input_box(), shape, backward_reference),
                  kTolerance)
            << what << " backward";
      }
    }
  }
}

// More parts than points: 3x2x5 on 8 ranks (4x2: the fourth row holds nothing), 1x1x1 on 2,
// 2x1x1 on 3, a line split over every rank; every grid, both layouts, on caller arrays.
TEST(Pencil3d, ranks_that_hold_nothing_take_part_and_the_result_matches_serial_fftw) {
  const Shape3 shapes[] = {{3, 2, 5}, {1, 1, 1}, {2, 1, 1}, {1, 1, 7}, {2, 3, 1}};
  int empty_parts = 0;
  for (const Shape3& shape : shapes) {
    const std::vector<Complex> forward_reference = serial_fft(shape, Direction::forward, 1);
    const std::vector<Complex> backward_reference = serial_fft(shape, Direction::backward, 2);
    for (const ProcGrid& grid : every_grid(topology().size())) {
      for (const char* spec : {"mpi", "pairwise", "tra"}) {
        for (const bool natural : {false, true}) {
          const std::string what = std::string(spec) + " " + shape_to_string(shape) + " on " +
                                   grid.to_string() + (natural ? " natural" : " transposed");
          TestPencil3d plan(topology(), shape, grid,
                            {parse_spec(spec), parse_spec(spec), Rigor::estimate, natural});
          empty_parts += plan.input_box().elements() == 0 ? 1 : 0;
          std::vector<Complex> in(plan.input_box().elements());
          std::vector<Complex> out(plan.output_box().elements());
          fill_test_signal(in.data(), plan.input_box(), shape, 1);
          plan.forward(in.data(), out.data());
          EXPECT_LT(relative_error(natural_output(plan, out.data()).data(), plan.output_box(),
                                   shape, forward_reference),
                    kTolerance)
              << what << " forward";
          plan.backward(out.data(), in.data());
          std::vector<Complex> original(plan.input_box().elements());
          fill_test_signal(original.data(), plan.input_box(), shape, 1);
          EXPECT_LT(worst_difference(in.data(), 1.0 / static_cast<double>(points(shape)), original),
                    kTolerance)
              << what << " round trip";
          std::vector<Complex> spectrum(plan.output_box().elements());
          fill_test_signal(spectrum.data(), plan.output_box(), shape, 2);
          set_natural_output(plan, spectrum.data(), plan.data());
          plan.backward();
          EXPECT_LT(relative_error(plan.data(), plan.input_box(), shape, backward_reference),
                    kTolerance)
              << what << " backward";
        }
      }
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, &empty_parts, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (topology().size() > 1) {
    EXPECT_GT(empty_parts, 0) << "no rank held nothing";
  }
}

TEST(Pencil3d, blocks_stay_at_least_one_element_where_a_row_holds_nothing) {
  if (topology().size() != 8) GTEST_SKIP() << "the 4x2 grid needs 8 ranks";
  const Pencil3d plan(topology(), {3, 2, 5}, {4, 2}, {});
  const bool last_row = plan.geometry().row() == 3;
  EXPECT_EQ(plan.input_box().elements() == 0, last_row);
  EXPECT_EQ(plan.geometry().row_block_bytes(), last_row ? sizeof(Complex) : 3 * sizeof(Complex));
  EXPECT_GE(plan.geometry().column_block_bytes(), sizeof(Complex));
}

// forward(in, out), backward(in, out) out of place and in place give the bits of data(), leave
// their inputs alone, and so do the scaled transforms.
TEST(Pencil3d, caller_arrays_in_and_out_of_place_give_the_bits_of_data) {
  for (const Shape3& shape : {Shape3{12, 10, 9}, Shape3{3, 2, 5}, Shape3{1, 1, 7}}) {
    for (const ProcGrid& grid : every_grid(topology().size())) {
      for (const bool natural : {false, true}) {
        for (const Scaling scaling : {Scaling::none, Scaling::symmetric}) {
          TestPencil3d plan(topology(), shape, grid,
                            {{"mpi", {}}, {"mpi", {}}, Rigor::estimate, natural, scaling});
          const std::string local = testing_support::user_array_difference(
              plan, plan.input_box().elements(), plan.output_box().elements(),
              plan.in_place_elements(),
              [&](Complex* data) { fill_test_signal(data, plan.input_box(), shape, 4); });
          EXPECT_EQ(testing_support::agreed_failure(local), "")
              << shape_to_string(shape) << " on " << grid.to_string()
              << (natural ? " natural" : " transposed")
              << (scaling == Scaling::none ? "" : " symmetric");
          EXPECT_EQ(plan.in_place_elements(),
                    std::max(plan.input_box().elements(), plan.output_box().elements()));
          // The work array, the two exchange buffers, and (p0 = 1, transposed) one y plane.
          const PencilGeometry& geometry = plan.geometry();
          const std::size_t scratch =
              geometry.transposes_locally() ? geometry.stage(2).plane_stride : 0;
          EXPECT_EQ(plan.workspace_bytes(),
                    (geometry.data_elements() + 2 * geometry.buffer_elements() + scratch) *
                        sizeof(Complex));
        }
      }
    }
  }
}

TEST(Pencil3d, misaligned_caller_arrays_are_refused) {
  const Shape3 shape{4, 4, 4};
  Pencil3d plan(topology(), shape, near_square_grid(topology().size()), {});
  std::vector<std::byte> bytes((plan.in_place_elements() + 1) * sizeof(Complex));
  auto* misaligned = reinterpret_cast<Complex*>(bytes.data() + 8);
  try {
    plan.forward(misaligned, misaligned);
    FAIL() << "a misaligned array was accepted";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("is not 16-byte aligned"), std::string::npos)
        << error.what();
  }
}

// none: FFTW's unnormalized transforms; full: backward(forward(x)) = x; symmetric: both
// directions keep the energy (Parseval) and the round trip is x.
TEST(Pencil3d, scaling_none_full_and_symmetric) {
  for (const Shape3& shape : {Shape3{12, 10, 9}, Shape3{3, 2, 5}}) {
    for (const ProcGrid& grid : every_grid(topology().size())) {
      for (const bool natural : {false, true}) {
        const PencilGeometry geometry(shape, grid, topology().rank(),
                                      natural ? PencilOutput::natural : PencilOutput::transposed);
        std::vector<Complex> x(geometry.input_box().elements());
        fill_test_signal(x.data(), geometry.input_box(), shape, 5);
        const auto make_plan = [&](Scaling scaling) {
          return std::make_unique<Pencil3d>(
              topology(), shape, grid,
              Pencil3dOptions{{"mpi", {}}, {"mpi", {}}, Rigor::estimate, natural, scaling});
        };
        const std::string local = testing_support::scaling_failure(
            make_plan, x, geometry.output_box().elements(), points(shape));
        EXPECT_EQ(testing_support::agreed_failure(local), "")
            << shape_to_string(shape) << " on " << grid.to_string()
            << (natural ? " natural" : " transposed");
      }
    }
  }
}

// A timer attached once and cleared before each call holds that call's split: both entries
// exist on every rank (an empty one included), zero after clear(), and compute grows on a rank
// that transforms something.
TEST(Pencil3d, a_timer_cleared_before_each_call_holds_the_last_calls_split) {
  const Shape3 shape{3, 2, 5};
  Pencil3d plan(topology(), shape, near_square_grid(topology().size()), {});
  PhaseTimer timer;
  plan.attach_timer(&timer);
  ASSERT_EQ(timer.seconds().count("compute"), 1u);
  ASSERT_EQ(timer.seconds().count("transpose"), 1u);
  std::vector<Complex> in(plan.input_box().elements(), Complex{1, 0});
  std::vector<Complex> out(plan.output_box().elements());
  plan.forward(in.data(), out.data());
  timer.clear();
  EXPECT_EQ(timer.seconds().at("compute"), 0.0);
  plan.forward(in.data(), out.data());
  if (!in.empty()) {
    EXPECT_GT(timer.seconds().at("compute"), 0.0);
  }
  EXPECT_GE(timer.seconds().at("transpose"), 0.0);
  EXPECT_EQ(timer.seconds().size(), 2u);
  plan.attach_timer(nullptr);
}

}  // namespace
}  // namespace a2afft::detail::fft
