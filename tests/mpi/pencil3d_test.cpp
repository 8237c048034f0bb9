// Pencil3d against serial FFTW on the gathered array: shapes with odd and prime sizes, every
// process grid that fits P, every registered backend (refused ones must refuse), both output
// layouts; forward, backward, round trip, and repeatability of one plan. Run for P = 1..8.

#include "pencil3d.hpp"

#include <mpi.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "agreed.hpp"
#include "error.hpp"
#include "gather.hpp"
#include "plan_checks.hpp"
#include "registry.hpp"
#include "registry_params.hpp"
#include "test_signal.hpp"

namespace a2afft::fft {
namespace {

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

double relative_error(const Complex* local, const Box3& box, const Shape3& shape,
                      const std::vector<Complex>& expected) {
  const std::vector<Complex> got = gather_global(local, box, shape, MPI_COMM_WORLD);
  return relative_difference(got, topology().rank() == 0 ? expected : std::vector<Complex>{},
                             MPI_COMM_WORLD);
}

std::vector<ProcGrid> grids_that_fit(const Shape3& shape, int ranks) {
  std::vector<ProcGrid> grids;
  for (int rows = 1; rows <= ranks; ++rows) {
    if (ranks % rows != 0) continue;
    const ProcGrid grid{rows, ranks / rows};
    try {
      check_grid_fits(shape, grid);
      grids.push_back(grid);
    } catch (const UsageError&) {
    }
  }
  return grids;
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
    const double points = static_cast<double>(shape[0] * shape[1] * shape[2]);
    for (const ProcGrid& grid : grids_that_fit(shape, topology().size())) {
      for (const bool natural : {false, true}) {
        const Pencil3dOptions options{parse_spec(spec), parse_spec(spec), Rigor::estimate, natural};
        const std::string what = spec + " " + shape_to_string(shape) + " on " + grid.to_string() +
                                 (natural ? " natural" : " transposed");
        std::unique_ptr<Pencil3d> plan;
        try {
          plan = std::make_unique<Pencil3d>(topology(), shape, grid, options);
        } catch (const UsageError& error) {
          // Only a layout refusal is acceptable, and only where the registry says so.
          const std::string text = error.what();
          EXPECT_NE(text.find("cannot run on"), std::string::npos) << what << ": " << text;
          continue;
        }
        ++cases;
        fill_test_signal(plan->data(), plan->input_box(), shape, 1);
        plan->forward();
        EXPECT_LT(relative_error(plan->output_in_natural_order().data(), plan->output_box(), shape,
                                 forward_reference),
                  kTolerance)
            << what << " forward, " << plan->describe();

        // Round trip: backward(forward(x)) = N x.
        plan->backward();
        double worst = 0;
        std::vector<Complex> original(plan->input_box().elements());
        fill_test_signal(original.data(), plan->input_box(), shape, 1);
        for (std::size_t i = 0; i < original.size(); ++i) {
          worst = std::max(worst, std::abs(plan->data()[i] / points - original[i]));
        }
        MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        EXPECT_LT(worst, kTolerance) << what << " round trip";

        // Backward on its own, from data laid out as the forward output.
        std::vector<Complex> spectrum(plan->output_box().elements());
        fill_test_signal(spectrum.data(), plan->output_box(), shape, 2);
        plan->set_output_from_natural_order(spectrum.data());
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
    for (const ProcGrid& grid : grids_that_fit(shape, topology().size())) {
      const std::string what = spec + " " + shape_to_string(shape) + " on " + grid.to_string();
      const Pencil3dOptions options{parse_spec(spec), parse_spec(spec), Rigor::estimate, true};
      std::unique_ptr<Pencil3d> plan;
      try {
        plan = std::make_unique<Pencil3d>(topology(), shape, grid, options);
      } catch (const UsageError& error) {
        EXPECT_NE(std::string(error.what()).find("cannot run on"), std::string::npos) << what;
        continue;
      }
      Pencil3d reference(topology(), shape, grid,
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
  const auto grids = grids_that_fit(shape, topology().size());
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

TEST(Pencil3d, grids_that_do_not_fit_are_errors) {
  const int ranks = topology().size();
  if (ranks < 2) return;  // every grid fits a single rank
  try {
    Pencil3d(topology(), {1, 1, 7}, {1, ranks}, {});
    FAIL() << "a grid wider than the data was accepted";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("into more parts than it has points"),
              std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace a2afft::fft
