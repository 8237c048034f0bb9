// a2afft beside other FFTW users in one process (issue 30; docs/fftw-global-state.md). FFTW's
// planner, wisdom and twiddle tables are process-wide, so what another user does to them
// reaches a2afft's plans:
// - mpi4py-fft calls fftw_plan_with_nthreads() before every plan without fftw_init_threads().
//   FFTW 3.3.9 and later then call fftw_cleanup() first, which frees the planner's solvers that
//   existing plans point to: destroying an a2afft plan made before read freed memory (a crash
//   in ~FftwPlan under Python). The deterministic sign of that cleanup is that it forgets the
//   wisdom; under ASan (scripts/run-tests --sanitize runs this) the destruction itself is a
//   heap-use-after-free.
// - FFTW's planner is not reentrant: a thread planning with FFTW while a2afft plans corrupts it.
// - A program that set fftw_plan_with_nthreads(n) for its own FFTs does not make a2afft's local
//   FFTs threaded (one rank per core already uses every core).
// One rank: the checks are about one process's FFTW state.

#include <fftw3.h>
#include <mpi.h>

#include <gtest/gtest.h>

#include <a2afft/a2afft.hpp>

#include <atomic>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

template <typename Real>
struct Fftw;
template <>
struct Fftw<double> {
  static constexpr auto plan_with_nthreads = fftw_plan_with_nthreads;
  static constexpr auto planner_nthreads = fftw_planner_nthreads;
  static std::string wisdom() {
    std::unique_ptr<char, void (*)(void*)> text(fftw_export_wisdom_to_string(), fftw_free);
    return text ? text.get() : "";
  }
};
template <>
struct Fftw<float> {
  static constexpr auto plan_with_nthreads = fftwf_plan_with_nthreads;
  static constexpr auto planner_nthreads = fftwf_planner_nthreads;
  static std::string wisdom() {
    std::unique_ptr<char, void (*)(void*)> text(fftwf_export_wisdom_to_string(), fftwf_free);
    return text ? text.get() : "";
  }
};

template <typename Real>
a2afft::Fft3dOptions options_for(a2afft::Rigor rigor) {
  a2afft::Fft3dOptions options;
  options.rigor = rigor;
  options.row_exchange = options.column_exchange = "pairwise";
  options.precision = std::is_same_v<Real, float> ? a2afft::Precision::single_precision
                                                  : a2afft::Precision::double_precision;
  return options;
}

// Worst |a2afft's forward - the direct DFT| / N over a small cube, in `Real`.
template <typename Real>
double forward_error(a2afft::Fft3d& fft) {
  using C = std::complex<Real>;
  const std::array<std::size_t, 3> n = fft.shape();
  std::vector<C> in(fft.in_place_elements());
  for (std::size_t g = 0; g < n[0] * n[1] * n[2]; ++g) {
    in[g] = C(Real(std::sin(0.7 * double(g))), Real(std::cos(0.3 * double(g))));
  }
  std::vector<C> out(in.size());
  fft.forward(in.data(), out.data());
  // One output point is enough to tell a working plan: the sum of the input (k = 0).
  std::complex<double> sum = 0;
  for (std::size_t g = 0; g < n[0] * n[1] * n[2]; ++g)
    sum += std::complex<double>(in[g]);
  return std::abs(std::complex<double>(out[0]) - sum) / double(n[0] * n[1] * n[2]);
}

template <typename Real>
constexpr double tolerance() {
  return std::is_same_v<Real, float> ? 1e-5 : 1e-12;
}

template <typename Real>
class FftwNeighbours : public ::testing::Test {};
using Precisions = ::testing::Types<double, float>;
TYPED_TEST_SUITE(FftwNeighbours, Precisions);

// mpi4py-fft's sequence: a2afft plans, then another library calls fftw_plan_with_nthreads
// without fftw_init_threads, then the a2afft plan is used and destroyed.
TYPED_TEST(FftwNeighbours, plan_with_nthreads_after_an_a2afft_plan_keeps_it_valid) {
  using Real = TypeParam;
  auto fft = std::make_unique<a2afft::Fft3d>(MPI_COMM_WORLD, std::array<std::size_t, 3>{8, 6, 4},
                                             options_for<Real>(a2afft::Rigor::measure));
  const std::string wisdom_before = Fftw<Real>::wisdom();
  ASSERT_NE(wisdom_before.find("fftw"), std::string::npos) << "no wisdom after a measured plan";
  Fftw<Real>::plan_with_nthreads(1);
  EXPECT_EQ(Fftw<Real>::wisdom(), wisdom_before)
      << "fftw_plan_with_nthreads cleaned FFTW's planner up: plans made before it (a2afft's) "
         "now point to freed solvers";
  EXPECT_LT(forward_error<Real>(*fft), tolerance<Real>());
  fft.reset();  // under ASan: a heap-use-after-free when the planner was cleaned up
  a2afft::Fft3d again(MPI_COMM_WORLD, {8, 6, 4}, options_for<Real>(a2afft::Rigor::estimate));
  EXPECT_LT(forward_error<Real>(again), tolerance<Real>());
}

// The threads of this process, as Linux lists them.
std::size_t thread_count() {
  std::size_t count = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/task"))
    ++count;
  return count;
}

// A program that plans its own FFTs with threads leaves a2afft's local FFTs on one thread (FFTW
// starts its workers when a threaded plan first runs), and finds its own setting as it left it.
TYPED_TEST(FftwNeighbours, a_programs_thread_count_stays_its_own) {
  using Real = TypeParam;
  Fftw<Real>::plan_with_nthreads(3);
  const std::size_t threads_before = thread_count();
  {
    a2afft::Fft3d fft(MPI_COMM_WORLD, {32, 32, 32}, options_for<Real>(a2afft::Rigor::estimate));
    EXPECT_EQ(Fftw<Real>::planner_nthreads(), 3) << "a2afft changed the program's thread count";
    EXPECT_LT(forward_error<Real>(fft), tolerance<Real>());
  }
  EXPECT_EQ(thread_count(), threads_before) << "a2afft's local FFTs started threads";
  Fftw<Real>::plan_with_nthreads(1);
}

// Another thread plans and destroys FFTW plans of its own while a2afft plans: FFTW's planner is
// not reentrant, so without a lock around it one of the two corrupts the other's planning.
TEST(FftwNeighbours, another_thread_plans_while_a2afft_plans) {
  std::atomic<bool> stop{false};
  std::atomic<int> foreign_plans{0};
  std::thread neighbour([&] {
    std::vector<fftw_complex> data(4096);
    for (int n = 16; !stop.load(); n = n % 4000 + 37) {
      fftw_plan plan = fftw_plan_dft_1d(n, data.data(), data.data(), FFTW_FORWARD, FFTW_ESTIMATE);
      if (plan != nullptr) fftw_destroy_plan(plan);
      foreign_plans.fetch_add(1);
    }
  });
  double worst = 0;
  for (int i = 0; i < 40; ++i) {
    const std::size_t n = 4 + std::size_t(i % 7);
    a2afft::Fft3d fft(MPI_COMM_WORLD, {n, n + 1, n + 2},
                      options_for<double>(a2afft::Rigor::estimate));
    worst = std::max(worst, forward_error<double>(fft));
  }
  stop = true;
  neighbour.join();
  EXPECT_GT(foreign_plans.load(), 0) << "the other thread never planned";
  EXPECT_LT(worst, 1e-12);
}

}  // namespace
