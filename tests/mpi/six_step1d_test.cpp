// SixStep1d against serial FFTW of the whole vector: powers of two and composite lengths (odd
// and prime factors in N1 and N2), every registered backend, natural and scrambled output;
// forward, backward, round trip and repeatability; caller arrays in and out of place against
// data(); scaling; timings. Run for P = 1..8.

#include "six_step1d.hpp"

#include <mpi.h>

#include <gtest/gtest.h>

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
using testing_support::TestSixStep1d;

const Topology& topology() {
  static const Topology instance(MPI_COMM_WORLD, LayoutRequest::from_environment());
  return instance;
}

std::vector<Complex> serial_fft(std::size_t n, Direction direction, std::uint64_t salt) {
  std::vector<Complex> data(n);
  for (std::size_t i = 0; i < n; ++i)
    data[i] = test_signal(i, salt);
  fftw_plan plan = fftw_plan_dft_1d(
      static_cast<int>(n), reinterpret_cast<fftw_complex*>(data.data()),
      reinterpret_cast<fftw_complex*>(data.data()), static_cast<int>(direction), FFTW_ESTIMATE);
  fftw_execute(plan);
  fftw_destroy_plan(plan);
  return data;
}

double relative_error(const std::vector<Complex>& got, const std::vector<Complex>& expected) {
  return relative_difference(got, topology().rank() == 0 ? expected : std::vector<Complex>{},
                             MPI_COMM_WORLD);
}

// Lengths for P ranks, each a multiple of P^2: a power of two where P allows, and composites
// whose N1 and N2 carry factors 3, 5, 7 and 11.
std::vector<std::size_t> lengths_for(int ranks) {
  const auto square = static_cast<std::size_t>(ranks * ranks);
  std::vector<std::size_t> lengths;
  for (const std::size_t n : {std::size_t{4096}, std::size_t{720}}) {  // 2^12, 2^4 * 3^2 * 5
    if (n % square == 0) lengths.push_back(n);
  }
  lengths.push_back(square * 30);  // 2 * 3 * 5 per P^2
  lengths.push_back(square * 77);  // 7 * 11: N1, N2 odd
  // 88 x 88 on one rank: the column FFTs' chunks of 16 columns leave a last one of 8.
  if (ranks == 1) lengths.push_back(7744);
  return lengths;
}

constexpr double kTolerance = 1e-12;

// The plan, or nullptr when the layout refuses `spec`; only a layout refusal is acceptable, and
// only where the registry says so.
std::unique_ptr<TestSixStep1d> plan_unless_refused(const std::string& spec, std::size_t n,
                                                   bool scrambled, const std::string& what) {
  try {
    return std::make_unique<TestSixStep1d>(
        topology(), n, SixStep1dOptions{parse_spec(spec), 0, Rigor::estimate, scrambled});
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("cannot run the six-step"), std::string::npos)
        << what << ": " << error.what();
    return nullptr;
  }
}

class SixStep1dBackend : public ::testing::TestWithParam<std::string> {};

TEST_P(SixStep1dBackend, matches_serial_fftw) {
  const std::string& spec = GetParam();
  int cases = 0;
  for (const std::size_t n : lengths_for(topology().size())) {
    const std::vector<Complex> forward_reference = serial_fft(n, Direction::forward, 1);
    const std::vector<Complex> backward_reference = serial_fft(n, Direction::backward, 2);
    for (const bool scrambled : {false, true}) {
      const std::string what =
          spec + " N=" + std::to_string(n) + (scrambled ? " scrambled" : " natural");
      const std::unique_ptr<TestSixStep1d> plan = plan_unless_refused(spec, n, scrambled, what);
      if (!plan) continue;
      ++cases;
      // One rank runs its own schedule with no exchange, and says so as Fft3d does.
      const bool names_exchange = plan->describe().find("): -") == std::string::npos;
      EXPECT_EQ(names_exchange, topology().size() > 1) << plan->describe();
      const BoxRange box = plan->input_box();
      fill_test_signal(plan->data(), box, {1, 1, n}, 1);
      plan->forward();
      EXPECT_LT(relative_error(testing_support::gather_output(*plan, plan->data(), MPI_COMM_WORLD),
                               forward_reference),
                kTolerance)
          << what << " forward, " << plan->describe();

      // Round trip: backward(forward(x)) = N x, in the input's own order.
      plan->backward();
      std::vector<Complex> original(box.elements());
      fill_test_signal(original.data(), box, {1, 1, n}, 1);
      double worst = 0;
      for (std::size_t i = 0; i < original.size(); ++i) {
        worst = std::max(worst, std::abs(plan->data()[i] / static_cast<double>(n) - original[i]));
      }
      MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      EXPECT_LT(worst, kTolerance) << what << " round trip";

      // Backward on its own, from a spectrum laid out as the forward output (scrambled too).
      for (std::size_t i = 0; i < box.elements(); ++i)
        plan->data()[i] = test_signal(plan->output_index(i), 2);
      plan->backward();
      EXPECT_LT(relative_error(gather_global(plan->data(), box, {1, 1, n}, MPI_COMM_WORLD),
                               backward_reference),
                kTolerance)
          << what << " backward";

      testing_support::expect_repeatable_forward(
          *plan, box.elements(),
          [&] {
            fill_test_signal(plan->data(), box, {1, 1, n}, 1);
          },
          what);
    }
  }
  if (topology().rank() == 0)
    std::printf("[  cases   ] %s: %d plans checked\n", spec.c_str(), cases);
}

TEST_P(SixStep1dBackend, gives_the_same_bits_as_every_other_backend) {
  const std::string& spec = GetParam();
  for (const std::size_t n : lengths_for(topology().size())) {
    for (const bool scrambled : {false, true}) {
      const std::string what =
          spec + " N=" + std::to_string(n) + (scrambled ? " scrambled" : " natural");
      const std::unique_ptr<TestSixStep1d> plan = plan_unless_refused(spec, n, scrambled, what);
      if (!plan) continue;
      TestSixStep1d reference(topology(), n, {{"mpi", {}}, 0, Rigor::estimate, scrambled});
      const BoxRange box = plan->input_box();
      const std::string local = testing_support::bit_difference(
          *plan, reference, box.elements(), box.elements(), [&](Complex* data) {
            fill_test_signal(data, box, {1, 1, n}, 3);
          });
      EXPECT_EQ(testing_support::agreed_failure(local), "")
          << what << ": " << plan->describe() << " against " << reference.describe();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, SixStep1dBackend,
                         ::testing::ValuesIn(testing_support::backend_specs_to_check()),
                         testing_support::SpecParamName());

TEST(SixStep1d, a_given_n1_is_used_and_checked) {
  const int ranks = topology().size();
  const auto p = static_cast<std::size_t>(ranks);
  const std::size_t n = p * p * 30;
  const SixStep1d plan(topology(), n, {{"mpi", {}}, p * 2, Rigor::estimate, false});
  EXPECT_EQ(plan.split().n1, p * 2);
  EXPECT_EQ(plan.split().n2, p * 15);
  if (ranks < 2) return;
  try {
    SixStep1d(topology(), n, {{"mpi", {}}, p * 2 + 1, Rigor::estimate, false});
    FAIL() << "an N1 that P does not divide was accepted";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("valid N1:"), std::string::npos) << error.what();
  }
}

TEST(SixStep1d, a_length_without_a_split_is_an_error_that_suggests_valid_ones) {
  const int ranks = topology().size();
  if (ranks < 2) return;  // every N splits over one rank
  const auto square = static_cast<std::size_t>(ranks * ranks);
  try {
    SixStep1d(topology(), square * 8 + 1, {});
    FAIL() << "a length that is not a multiple of P^2 was accepted";
  } catch (const UsageError& error) {
    const std::string text = error.what();
    EXPECT_NE(text.find("multiple of P^2 = " + std::to_string(square)), std::string::npos) << text;
    EXPECT_NE(text.find(std::to_string(square * 8) + " or " + std::to_string(square * 9)),
              std::string::npos)
        << text;
  }
}

// forward(in, out), backward(in, out) out of place and in place give the bits of data() and
// leave their inputs alone, natural and scrambled, scaled or not.
TEST(SixStep1d, caller_arrays_in_and_out_of_place_give_the_bits_of_data) {
  for (const std::size_t n : lengths_for(topology().size())) {
    for (const bool scrambled : {false, true}) {
      for (const Scaling scaling : {Scaling::none, Scaling::full}) {
        TestSixStep1d plan(topology(), n, {{"mpi", {}}, 0, Rigor::estimate, scrambled, scaling});
        const std::size_t local = plan.local_length();
        const std::string failure =
            testing_support::user_array_difference(plan, local, local, local, [&](Complex* data) {
              fill_test_signal(data, plan.input_box(), {1, 1, n}, 4);
            });
        EXPECT_EQ(testing_support::agreed_failure(failure), "")
            << "N=" << n << (scrambled ? " scrambled" : " natural")
            << (scaling == Scaling::none ? "" : " full");
        // One rank exchanges nothing: the work array only.
        const std::size_t arrays = topology().size() == 1 ? 1 : 3;
        EXPECT_EQ(plan.workspace_bytes(), arrays * local * sizeof(Complex));
      }
    }
  }
}

TEST(SixStep1d, scaling_none_full_and_symmetric) {
  for (const std::size_t n : lengths_for(topology().size())) {
    for (const bool scrambled : {false, true}) {
      const SixStepGeometry geometry(n, topology().size(), 0, scrambled);
      std::vector<Complex> x(geometry.local_length());
      fill_test_signal(x.data(), geometry.input_box(topology().rank()), {1, 1, n}, 5);
      const auto make_plan = [&](Scaling scaling) {
        return std::make_unique<SixStep1d>(
            topology(), n, SixStep1dOptions{{"mpi", {}}, 0, Rigor::estimate, scrambled, scaling});
      };
      const std::string local = testing_support::scaling_failure(make_plan, x, x.size(), n);
      EXPECT_EQ(testing_support::agreed_failure(local), "")
          << "N=" << n << (scrambled ? " scrambled" : " natural");
    }
  }
}

TEST(SixStep1d, a_timer_cleared_before_each_call_holds_the_last_calls_split) {
  const auto p = static_cast<std::size_t>(topology().size());
  SixStep1d plan(topology(), p * p * 30, {});
  PhaseTimer timer;
  plan.attach_timer(&timer);
  ASSERT_EQ(timer.seconds().size(), 2u);
  std::vector<Complex> in(plan.local_length(), Complex{1, 0});
  std::vector<Complex> out(in.size());
  plan.forward(in.data(), out.data());
  timer.clear();
  EXPECT_EQ(timer.seconds().at("compute"), 0.0);
  plan.forward(in.data(), out.data());
  EXPECT_GT(timer.seconds().at("compute"), 0.0);
  EXPECT_GT(timer.seconds().at("transpose"), 0.0);
  plan.attach_timer(nullptr);
}

}  // namespace
}  // namespace a2afft::detail::fft
