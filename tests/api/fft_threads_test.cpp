// PlanOptions::threads (issue 45): a plan on 2 threads gives the same bytes as the same plan on
// one, for every kind (c2c, r2c, r2r and mixed axes), precision, batch, padding, grid (slabs with
// the local transpose of p0 = 1, pencils of P x 1) and box layout (natural output, the
// application's own boxes) the FFT tests cover, forward and backward, out of place and in
// place; the 1D six-step likewise. The check is memcmp, not a tolerance: each thread runs whole
// planes with the same FFTW plans, so no bit may change.
//
// This program initializes MPI itself: with MPI_THREAD_FUNNELED by default (the level a
// threaded plan needs), or with MPI_THREAD_SINGLE under --mpi-thread-single, where a plan
// asking for 2 threads must be one clear error on every rank naming both levels.

#include <mpi.h>
#include <omp.h>

#include <gtest/gtest.h>

#include <a2afft/a2afft.hpp>
#include "collective.hpp"
#include "global_array.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace {

using namespace a2afft::api_test;

using a2afft::AxisKind;
using a2afft::Kind;
using a2afft::Precision;

// Set by main: MPI initialized with MPI_THREAD_SINGLE.
bool g_thread_single = false;

// A reproducible input of `bytes` bytes: the signal's values in the plan's real type (complex
// inputs are pairs of them), never NaN, so that equal bytes mean equal results.
std::vector<unsigned char> input_bytes(std::size_t bytes, Precision precision) {
  std::vector<unsigned char> data(bytes);
  const int rank = rank_in();
  if (precision == Precision::single_precision) {
    for (std::size_t i = 0; i < bytes / sizeof(float); ++i) {
      const auto value = static_cast<float>(signal(i + 1000 * std::size_t(rank), 0).real());
      std::memcpy(data.data() + i * sizeof(float), &value, sizeof(float));
    }
  } else {
    for (std::size_t i = 0; i < bytes / sizeof(double); ++i) {
      const double value = signal(i + 1000 * std::size_t(rank), 0).imag();
      std::memcpy(data.data() + i * sizeof(double), &value, sizeof(double));
    }
  }
  return data;
}

// Forward of the input, then backward of that output, out of place and in place: the four
// results' bytes, one after the other.
std::vector<unsigned char> results(a2afft::DistributedFft& fft) {
  using a2afft::Direction;
  const std::size_t in_bytes = fft.input_bytes();
  const std::size_t out_bytes = fft.output_bytes();
  const std::size_t in_place = fft.in_place_bytes();
  const std::vector<unsigned char> in = input_bytes(in_bytes, fft.precision());
  // 16-byte aligned, as new gives.
  std::vector<double> spectrum((out_bytes + 7) / 8 + 1), back((in_bytes + 7) / 8 + 1);
  fft.execute(Direction::forward, in.data(), in_bytes, spectrum.data(), out_bytes);
  fft.execute(Direction::backward, spectrum.data(), out_bytes, back.data(), in_bytes);
  std::vector<double> work((in_place + 7) / 8 + 1);
  std::memcpy(work.data(), in.data(), in_bytes);
  fft.execute(Direction::forward, work.data(), in_place, work.data(), in_place);
  std::vector<unsigned char> all;
  const auto append = [&](const std::vector<double>& array, std::size_t bytes) {
    const auto* first = reinterpret_cast<const unsigned char*>(array.data());
    all.insert(all.end(), first, first + bytes);
  };
  append(spectrum, out_bytes);
  append(back, in_bytes);
  append(work, out_bytes);
  fft.execute(Direction::backward, work.data(), in_place, work.data(), in_place);
  append(work, in_bytes);
  return all;
}

// Ranks whose bytes of the plan made by `make(threads)` differ between 1 and 2 threads (0: the
// same everywhere). Collective.
long ranks_that_differ(const std::function<std::unique_ptr<a2afft::DistributedFft>(int)>& make) {
  const std::unique_ptr<a2afft::DistributedFft> one = make(1);
  const std::unique_ptr<a2afft::DistributedFft> two = make(2);
  const std::vector<unsigned char> expected = results(*one);
  const std::vector<unsigned char> got = results(*two);
  const bool same = expected.size() == got.size() &&
                    std::memcmp(expected.data(), got.data(), expected.size()) == 0;
  return sum_over(same ? 0 : 1);
}

struct Case3d {
  std::string name;
  std::array<std::size_t, 3> shape;
  Kind kind = Kind::c2c;
  Precision precision = Precision::double_precision;
  std::size_t batch = 1;
  std::vector<AxisKind> axes = {};
  std::vector<double> padding = {};
  std::array<int, 2> grid{0, 0};
  a2afft::Fft3dOutput output = a2afft::Fft3dOutput::transposed;
  a2afft::Rigor rigor = a2afft::Rigor::estimate;
  bool own_boxes = false;  // the input split along z, the output along x (a reshape each way)
};

// Part `part` of `n` points split in `parts`.
std::array<std::size_t, 2> split(std::size_t n, int parts, int part) {
  const auto p = static_cast<std::size_t>(parts);
  const auto r = static_cast<std::size_t>(part);
  return {n * r / p, n * (r + 1) / p - n * r / p};
}

std::unique_ptr<a2afft::DistributedFft> make_3d(const Case3d& c, int threads) {
  a2afft::Fft3dOptions options;
  options.exchange = "pairwise";
  options.reshape_exchange = "mpi";
  options.kind = c.kind;
  options.precision = c.precision;
  options.batch = c.batch;
  options.axes = c.axes;
  options.padding = c.padding;
  options.grid = c.grid;
  options.output = c.output;
  options.rigor = c.rigor;
  options.threads = threads;
  if (c.own_boxes) {
    const std::array<std::size_t, 3> spectrum{
        c.shape[0], c.shape[1], c.kind == Kind::r2c ? c.shape[2] / 2 + 1 : c.shape[2]};
    const auto z = split(c.shape[2], size_of(), rank_in());
    const auto x = split(spectrum[0], size_of(), rank_in());
    options.input_box = a2afft::Box3{{0, 0, z[0]}, {c.shape[0], c.shape[1], z[1]}, {2, 0, 1}};
    options.output_box = a2afft::Box3{{x[0], 0, 0}, {x[1], spectrum[1], spectrum[2]}, {0, 1, 2}};
  }
  return std::make_unique<a2afft::Fft3d>(MPI_COMM_WORLD, c.shape, options);
}

std::vector<Case3d> cases_3d() {
  const int ranks = size_of();
  using a2afft::Fft3dOutput;
  const Precision single = Precision::single_precision;
  std::vector<Case3d> cases = {
      {"c2c double", {12, 10, 9}},
      {"c2c float batch 3", {12, 10, 9}, Kind::c2c, single, 3},
      {"r2c double", {10, 12, 9}, Kind::r2c},
      {"r2c float batch 3", {10, 12, 8}, Kind::r2c, single, 3},
      {"r2r dct2 dst2 dct1",
       {10, 9, 8},
       Kind::r2r,
       Precision::double_precision,
       1,
       {AxisKind::dct2, AxisKind::dst2, AxisKind::dct1}},
      {"mixed dct2 dft r2c float",
       {10, 9, 8},
       Kind::r2c,
       single,
       2,
       {AxisKind::dct2, AxisKind::dft, AxisKind::r2c}},
      {"c2c padded 3/2",
       {8, 10, 6},
       Kind::c2c,
       Precision::double_precision,
       1,
       {},
       {1.5, 1.5, 1.5}},
      {"r2c float padded 3/2 batch 2", {8, 6, 10}, Kind::r2c, single, 2, {}, {1.5, 1.5, 1.5}},
      {"c2c slabs 1 x P",
       {12, 10, 9},
       Kind::c2c,
       Precision::double_precision,
       1,
       {},
       {},
       {1, ranks}},
      {"r2c pencils P x 1",
       {12, 10, 9},
       Kind::r2c,
       Precision::double_precision,
       1,
       {},
       {},
       {ranks, 1}},
      {"c2c natural output",
       {12, 10, 9},
       Kind::c2c,
       Precision::double_precision,
       1,
       {},
       {},
       {0, 0},
       Fft3dOutput::natural},
      {"r2c measure",
       {16, 12, 10},
       Kind::r2c,
       Precision::double_precision,
       1,
       {},
       {},
       {0, 0},
       Fft3dOutput::transposed,
       a2afft::Rigor::measure},
  };
  Case3d boxes{"c2c own boxes", {12, 10, 9}};
  boxes.own_boxes = true;
  cases.push_back(boxes);
  Case3d real_boxes{"r2c float own boxes", {12, 10, 8}, Kind::r2c, single, 2};
  real_boxes.own_boxes = true;
  cases.push_back(real_boxes);
  return cases;
}

// Threaded runs need MPI_THREAD_FUNNELED: under --mpi-thread-single, ctest filters them out
// (tests/CMakeLists.txt); run there, they fail rather than pass unseen.
#define ASSERT_FUNNELED() \
  ASSERT_FALSE(g_thread_single) << "needs MPI_THREAD_FUNNELED: run without --mpi-thread-single"

TEST(Threads, the_runtime_gives_a_plan_its_threads_whatever_OMP_NUM_THREADS_says) {
  ASSERT_FUNNELED();
  int team = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    team = omp_get_num_threads();
  }
  EXPECT_EQ(sum_over(team == 2 ? 0 : 1), 0) << "OpenMP gave " << team << " threads, not 2";
}

TEST(Threads, every_3d_and_2d_case_gives_the_same_bytes_on_two_threads) {
  ASSERT_FUNNELED();
  for (const Case3d& c : cases_3d()) {
    EXPECT_EQ(ranks_that_differ([&](int threads) { return make_3d(c, threads); }), 0) << c.name;
  }
  for (const Precision precision : {Precision::double_precision, Precision::single_precision}) {
    EXPECT_EQ(ranks_that_differ([&](int threads) -> std::unique_ptr<a2afft::DistributedFft> {
                a2afft::Fft2dOptions options;
                options.exchange = "pairwise";
                options.kind = Kind::r2c;
                options.precision = precision;
                options.rigor = a2afft::Rigor::estimate;
                options.threads = threads;
                return std::make_unique<a2afft::Fft2d>(MPI_COMM_WORLD,
                                                       std::array<std::size_t, 2>{24, 18}, options);
              }),
              0)
        << "Fft2d r2c";
  }
}

TEST(Threads, the_1d_six_step_gives_the_same_bytes_on_two_threads) {
  ASSERT_FUNNELED();
  for (const Precision precision : {Precision::double_precision, Precision::single_precision}) {
    for (const std::size_t batch : {std::size_t{1}, std::size_t{3}}) {
      for (const auto output : {a2afft::Fft1dOutput::natural, a2afft::Fft1dOutput::scrambled}) {
        const long differ =
            ranks_that_differ([&](int threads) -> std::unique_ptr<a2afft::DistributedFft> {
              a2afft::Fft1dOptions options;
              options.exchange = "pairwise";
              options.precision = precision;
              options.batch = batch;
              options.output = output;
              options.rigor = a2afft::Rigor::estimate;
              options.scaling = a2afft::Scaling::full;
              options.threads = threads;
              return std::make_unique<a2afft::Fft1d>(MPI_COMM_WORLD, std::size_t{1} << 12, options);
            });
        EXPECT_EQ(differ, 0) << "batch " << batch
                             << (precision == Precision::single_precision ? " float" : " double");
      }
    }
  }
}

// The error each rank got from planning with `threads`, or "" if none.
std::string error_of(int threads) {
  try {
    a2afft::Fft3dOptions options;
    options.threads = threads;
    a2afft::Fft3d fft(MPI_COMM_WORLD, {8, 8, 8}, options);
  } catch (const a2afft::UsageError& error) {
    return error.what();
  }
  return "";
}

TEST(Threads, fewer_than_one_is_an_error_naming_the_option) {
  const std::string message = error_of(0);
  EXPECT_EQ(sum_over(message.find("PlanOptions::threads=0") != std::string::npos &&
                             message.find("at least 1") != std::string::npos
                         ? 0
                         : 1),
            0)
      << message;
}

TEST(Threads, two_under_mpi_thread_single_is_one_error_on_every_rank_naming_both_levels) {
  ASSERT_TRUE(g_thread_single) << "run with --mpi-thread-single";
  const std::string message = error_of(2);
  const bool named = message.find("MPI_THREAD_SINGLE") != std::string::npos &&
                     message.find("MPI_THREAD_FUNNELED") != std::string::npos &&
                     message.find("PlanOptions::threads=2") != std::string::npos;
  EXPECT_EQ(sum_over(named ? 0 : 1), 0) << message;
  // One plan of one thread still works there.
  EXPECT_EQ(sum_over(error_of(1).empty() ? 0 : 1), 0);
}

TEST(Threads, timed_under_mpi_thread_single_is_one_error_on_every_rank_naming_both_levels) {
  ASSERT_TRUE(g_thread_single) << "run with --mpi-thread-single";
  const std::string message = error_of(a2afft::timed_threads);
  const bool named = message.find("MPI_THREAD_SINGLE") != std::string::npos &&
                     message.find("MPI_THREAD_FUNNELED") != std::string::npos &&
                     message.find("PlanOptions::threads=timed_threads") != std::string::npos;
  EXPECT_EQ(sum_over(named ? 0 : 1), 0) << message;
}

TEST(Threads, two_under_mpi_thread_funneled_plans) {
  ASSERT_FUNNELED();
  const std::string message = error_of(2);
  EXPECT_EQ(sum_over(message.empty() ? 0 : 1), 0) << message;
}

// `auto` times the vendor's algorithms through MPI_T control variables; Open MPI 4.1's
// MPI_T_init_thread sets MPI's thread level to the one it is asked for, and a2afft once asked
// for SINGLE: every threaded plan after the first `auto` was refused (under mpi4py too).
TEST(Threads, an_auto_exchange_leaves_the_mpi_thread_level_as_it_was) {
  ASSERT_FUNNELED();
  int before = 0;
  MPI_Query_thread(&before);
  a2afft::Fft3dOptions options;  // exchange auto
  options.rigor = a2afft::Rigor::estimate;
  { const a2afft::Fft3d fft(MPI_COMM_WORLD, {8, 8, 8}, options); }
  const std::unique_ptr<a2afft::Exchange> exchange =
      a2afft::make_exchange(MPI_COMM_WORLD, 64, "auto");
  int after = 0;
  MPI_Query_thread(&after);
  EXPECT_EQ(sum_over(after == before ? 0 : 1), 0) << "before " << before << ", after " << after;
  EXPECT_EQ(sum_over(error_of(2).empty() ? 0 : 1), 0);
}

}  // namespace

// threads = timed_threads: the counts tried, one choice on every rank with one thread's bytes,
// the grid timed with the counts, the choice kept in A2AFFT_WISDOM, and the thread level.

std::string counts_text(const std::vector<int>& counts) {
  std::string text;
  for (const int count : counts)
    text += (text.empty() ? "" : ",") + std::to_string(count);
  return text;
}

TEST(TimedThreads, the_counts_are_one_then_doubling_up_to_the_cores_the_same_on_every_rank) {
  const std::vector<int> counts = a2afft::timed_thread_counts(MPI_COMM_WORLD);
  ASSERT_FALSE(counts.empty());
  EXPECT_EQ(counts.front(), 1);
  for (std::size_t i = 1; i + 1 < counts.size(); ++i)
    EXPECT_EQ(counts[i], 2 * counts[i - 1]);
  if (counts.size() > 1) EXPECT_GT(counts.back(), counts[counts.size() - 2]);
  EXPECT_TRUE(same_on_every_rank(counts_text(counts))) << counts_text(counts);
  // The tests run unbound (--bind-to none) on a machine of 2 cores or more: one rank has them all,
  // so at least two counts are timed (the search itself is exercised).
  if (size_of() == 1) {
    EXPECT_GE(counts.size(), 2u) << "one unbound rank should have 2+ cores to time; got "
                                 << counts_text(counts) << " (run on 2+ cores, unbound)";
  }
}

a2afft::Fft3dOptions timed_3d_options(int threads, const std::array<int, 2>& grid) {
  a2afft::Fft3dOptions options;
  options.exchange = "pairwise";
  options.rigor = a2afft::Rigor::estimate;
  options.threads = threads;
  options.grid = grid;
  return options;
}

TEST(TimedThreads, a_timed_plan_keeps_one_count_on_every_rank_with_one_threads_bytes) {
  ASSERT_FUNNELED();
  const std::vector<int> counts = a2afft::timed_thread_counts(MPI_COMM_WORLD);
  constexpr std::array<std::size_t, 3> kShape{12, 10, 8};
  a2afft::Fft3d timed(MPI_COMM_WORLD, kShape, timed_3d_options(a2afft::timed_threads, {0, 0}));
  const int chosen = timed.threads();
  EXPECT_NE(std::find(counts.begin(), counts.end(), chosen), counts.end()) << chosen;
  EXPECT_TRUE(same_on_every_rank(std::to_string(chosen)));
  const std::string described = timed.describe();
  EXPECT_NE(described.find("threads " + std::to_string(chosen) + " timed: "), std::string::npos)
      << described;
  for (const int count : counts) {
    EXPECT_NE(described.find("threads " + std::to_string(count) + " "), std::string::npos)
        << "count " << count << " not timed: " << described;
  }
  a2afft::Fft3d one(MPI_COMM_WORLD, kShape, timed_3d_options(1, {0, 0}));
  const std::vector<unsigned char> got = results(timed), expected = results(one);
  EXPECT_EQ(sum_over(got == expected ? 0 : 1), 0) << "timed " << chosen << " threads";
  // Fft1d times the counts too.
  a2afft::Fft1dOptions flat;
  flat.exchange = "pairwise";
  flat.rigor = a2afft::Rigor::estimate;
  flat.threads = a2afft::timed_threads;
  a2afft::Fft1d line(MPI_COMM_WORLD, std::size_t{1} << 10, flat);
  EXPECT_NE(line.describe().find(" timed: "), std::string::npos) << line.describe();
  EXPECT_TRUE(same_on_every_rank(std::to_string(line.threads())));
}

TEST(TimedThreads, with_a_timed_grid_every_grid_is_timed_with_every_count_and_kept) {
  ASSERT_FUNNELED();
  const std::string path = "a2afft_timed_threads_" + std::to_string(size_of()) + "_" +
                           std::to_string(::getppid()) + ".json";
  if (rank_in() == 0) std::remove(path.c_str());
  MPI_Barrier(MPI_COMM_WORLD);
  setenv("A2AFFT_WISDOM", path.c_str(), 1);
  const auto options = timed_3d_options(a2afft::timed_threads, a2afft::timed_grid);
  std::string first_text, second_text;
  std::array<int, 2> first_grid{}, second_grid{};
  int first_threads = 0, second_threads = 0;
  {
    a2afft::Fft3d first(MPI_COMM_WORLD, {12, 10, 8}, options);
    first_text = first.describe();
    first_grid = first.grid();
    first_threads = first.threads();
  }
  {
    a2afft::Fft3d second(MPI_COMM_WORLD, {12, 10, 8}, options);
    second_text = second.describe();
    second_grid = second.grid();
    second_threads = second.threads();
  }
  unsetenv("A2AFFT_WISDOM");
  if (rank_in() == 0) std::remove(path.c_str());
  const std::string chosen = "grid " + std::to_string(first_grid[0]) + "x" +
                             std::to_string(first_grid[1]) + ", threads " +
                             std::to_string(first_threads);
  EXPECT_NE(first_text.find(chosen + " timed: "), std::string::npos) << first_text;
  const std::size_t tried = a2afft::Fft3d::grid_candidates(size_of(), {12, 10, 8}).size() *
                            a2afft::timed_thread_counts(MPI_COMM_WORLD).size();
  EXPECT_EQ(static_cast<std::size_t>(std::count(first_text.begin(), first_text.end(), ';')) + 1,
            tried)
      << first_text;
  EXPECT_EQ(second_grid, first_grid);
  EXPECT_EQ(second_threads, first_threads);
  EXPECT_NE(second_text.find(chosen + " timed earlier (kept in A2AFFT_WISDOM)"), std::string::npos)
      << second_text;
}

// As tests/support/mpi_test_main.cpp, with the thread level chosen on the command line.
int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--mpi-thread-single") g_thread_single = true;
  }
  const int required = g_thread_single ? MPI_THREAD_SINGLE : MPI_THREAD_FUNNELED;
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(&argc, &argv, required, &provided);
  ::testing::InitGoogleTest(&argc, argv);
  const int rank = rank_in();
  if (rank != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  int failed = 0;
  if (g_thread_single && provided != MPI_THREAD_SINGLE) {
    // Open MPI 4.1 provides SINGLE when asked for it (and under MPI_Init); an MPI that gives
    // more cannot run the refusal's test.
    std::fprintf(stderr, "rank %d: asked MPI_THREAD_SINGLE, MPI provided %d\n", rank, provided);
    failed = 1;
  } else if (provided < required) {
    std::fprintf(stderr, "rank %d: MPI provides thread level %d, below FUNNELED\n", rank, provided);
    failed = 1;
  } else {
    failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
  }
  int any_failed = 0;
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any_failed;
}
