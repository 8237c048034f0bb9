// The public FFTs (Fft3d, Fft1d) as an application uses them: only <a2afft/a2afft.hpp> and the
// shared liba2afft, every result checked against serial FFTW of the whole array (which every
// rank computes for itself: the arrays are small). Every check is reduced over the ranks first,
// so all ranks assert the same and none leaves a test while others wait in a collective.

#include <fftw3.h>
#include <mpi.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <a2afft/a2afft.hpp>
#include "collective.hpp"
#include "global_array.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {

using namespace a2afft::api_test;

using a2afft::Complex;

// A reproducible input value for global (row-major) index g.
Complex signal(std::size_t g) {
  return {std::sin(0.7 * double(g) + 0.3), std::cos(1.3 * double(g % 97) - 0.2 * double(g))};
}

// The whole forward transform of signal() over `n` (a 3D shape, or {1, 1, N}), by serial FFTW.
std::vector<Complex> serial_forward(const Index& n) {
  const std::size_t points = n[0] * n[1] * n[2];
  std::vector<Complex> data(points);
  for (std::size_t g = 0; g < points; ++g)
    data[g] = signal(g);
  auto* cells = reinterpret_cast<fftw_complex*>(data.data());
  fftw_plan plan =
      fftw_plan_dft_3d(int(n[0]), int(n[1]), int(n[2]), cells, cells, FFTW_FORWARD, FFTW_ESTIMATE);
  fftw_execute(plan);
  fftw_destroy_plan(plan);
  return data;
}

// The factors forward and backward multiply by under `scaling`, for `points` points.
std::pair<double, double> factors(a2afft::Scaling scaling, double points) {
  switch (scaling) {
    case a2afft::Scaling::full:
      return {1.0, 1.0 / points};
    case a2afft::Scaling::symmetric:
      return {1.0 / std::sqrt(points), 1.0 / std::sqrt(points)};
    default:
      return {1.0, 1.0};
  }
}

// Worst relative errors of the forward output (against serial FFTW) and of the round trip.
struct Errors {
  double forward = 0;
  double round_trip = 0;
};

// Forward and backward through `fft` on arrays of the caller, in place or out of place.
Errors check_fft3d(a2afft::Fft3d& fft, const Index& n, a2afft::Scaling scaling, bool in_place,
                   const std::vector<Complex>& reference) {
  const a2afft::Box3 in = fft.input_box(), out = fft.output_box();
  const double points = double(n[0] * n[1] * n[2]);
  // Not a structured binding: clang 14 (the sanitized build) cannot capture one in a lambda.
  const std::pair<double, double> factor = factors(scaling, points);
  const double forward_factor = factor.first, backward_factor = factor.second;
  std::vector<Complex> x(fft.input_elements()), a(fft.in_place_elements()), b(a.size());
  for_each_point(in, [&](const Index& at) { x[in.local_index(at)] = signal(row_major(at, n)); });
  std::copy(x.begin(), x.end(), a.begin());
  Complex* spectrum = in_place ? a.data() : b.data();
  fft.forward(a.data(), spectrum);
  Errors errors;
  for_each_point(out, [&](const Index& at) {
    const Complex expected = reference[row_major(at, n)] * forward_factor;
    errors.forward = std::max(errors.forward, std::abs(spectrum[out.local_index(at)] - expected));
  });
  Complex* back = in_place ? a.data() : a.data();  // out of place: spectrum in b, back into a
  fft.backward(spectrum, back);
  const double round_trip_factor = forward_factor * backward_factor * points;
  for (std::size_t e = 0; e < x.size(); ++e) {
    errors.round_trip = std::max(errors.round_trip, std::abs(back[e] - x[e] * round_trip_factor));
  }
  errors.forward = max_over(errors.forward) / std::sqrt(points);
  errors.round_trip = max_over(errors.round_trip) / round_trip_factor;
  return errors;
}

struct Fft3dCase {
  Index shape;
  a2afft::Fft3dOptions options;
  const char* name;
};

a2afft::Fft3dOptions options_with(std::array<int, 2> grid, const char* row, const char* column,
                                  a2afft::Rigor rigor, a2afft::Fft3dOutput output,
                                  a2afft::Scaling scaling) {
  a2afft::Fft3dOptions options;
  options.grid = grid;
  options.row_exchange = row;
  options.column_exchange = column;
  options.rigor = rigor;
  options.output = output;
  options.scaling = scaling;
  return options;
}

void expect_matches_serial_fftw(const Fft3dCase& test) {
  a2afft::Fft3d fft(MPI_COMM_WORLD, test.shape, test.options);
  EXPECT_EQ(fft.shape(), test.shape) << test.name;
  EXPECT_EQ(fft.grid()[0] * fft.grid()[1], size_of()) << test.name;
  // Each row and column of the grid runs (and with auto, chooses) its own exchange.
  EXPECT_FALSE(fft.describe().empty()) << test.name;
  const std::vector<Complex> reference = serial_forward(test.shape);
  for (const bool in_place : {false, true}) {
    const Errors errors = check_fft3d(fft, test.shape, test.options.scaling, in_place, reference);
    EXPECT_LT(errors.forward, 1e-13) << test.name << (in_place ? ", in place" : ", out of place");
    EXPECT_LT(errors.round_trip, 1e-13)
        << test.name << (in_place ? ", in place" : ", out of place");
  }
}

using a2afft::Fft3dOutput;
using a2afft::Rigor;
using a2afft::Scaling;

TEST(Fft3d, every_option_matches_serial_fftw_in_place_and_out_of_place) {
  const int p = size_of();
  const Fft3dCase cases[] = {
      {{12, 10, 9}, {}, "defaults (auto, measure, transposed, no scaling)"},
      {{12, 10, 9},
       options_with({1, p}, "pairwise", "mpi", Rigor::estimate, Fft3dOutput::natural,
                    Scaling::full),
       "grid 1xP, pairwise, natural, full"},
      {{8, 6, 10},
       options_with({p, 1}, "tra:radix=2", "node-aware", Rigor::estimate, Fft3dOutput::transposed,
                    Scaling::symmetric),
       "grid Px1, tra, node-aware, symmetric"},
      {{6, 5, 4},
       options_with({0, 0}, "onmpml", "nonblocking", Rigor::patient, Fft3dOutput::natural,
                    Scaling::none),
       "patient, onmpml, nonblocking, natural"},
  };
  for (const Fft3dCase& test : cases)
    expect_matches_serial_fftw(test);
}

TEST(Fft3d, a_virtual_layout_in_the_options_reaches_the_exchanges) {
  a2afft::Fft3dOptions options = options_with({size_of(), 1}, "mpi", "node-aware", Rigor::estimate,
                                              Fft3dOutput::transposed, Scaling::none);
  options.layout.ranks_per_node = a2afft::LayoutSetting{"ranks_per_node", "1"};
  expect_matches_serial_fftw({{8, 4, 4}, options, "1 rank per virtual node"});
  options.layout.ranks_per_node = a2afft::LayoutSetting{"ranks_per_node", "0"};
  try {
    a2afft::Fft3d bad(MPI_COMM_WORLD, {8, 4, 4}, options);
    ADD_FAILURE() << "ranks_per_node=0 was accepted";
  } catch (const a2afft::UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("ranks_per_node=0"), std::string::npos)
        << error.what();
  }
}

TEST(Fft3d, ranks_with_empty_boxes_take_part) {
  // 3x2x5 on 8 ranks and 1x1x1 on 2 are the cases; on P ranks these grids leave
  // ranks empty whenever P exceeds the split sizes.
  const int p = size_of();
  for (const Index shape : {Index{3, 2, 5}, Index{1, 1, 1}, Index{2, 1, 3}}) {
    for (const std::array<int, 2> grid :
         {std::array<int, 2>{p, 1}, std::array<int, 2>{1, p}, std::array<int, 2>{0, 0}}) {
      const std::string name = std::to_string(shape[0]) + "x" + std::to_string(shape[1]) + "x" +
                               std::to_string(shape[2]) + " on grid " + std::to_string(grid[0]) +
                               "x" + std::to_string(grid[1]);
      expect_matches_serial_fftw({shape,
                                  options_with(grid, "pairwise", "pairwise", Rigor::estimate,
                                               Fft3dOutput::transposed, Scaling::full),
                                  name.c_str()});
    }
  }
  // Where a rank holds nothing it may pass no arrays at all.
  a2afft::Fft3d fft(
      MPI_COMM_WORLD, {1, 1, 1},
      options_with({p, 1}, "mpi", "mpi", Rigor::estimate, Fft3dOutput::natural, Scaling::none));
  std::vector<Complex> one(fft.in_place_elements(), Complex{2, 0});
  Complex* data = one.empty() ? nullptr : one.data();
  fft.forward(data, data);
  fft.backward(data, data);
  EXPECT_EQ(sum_over(one.empty() ? 0 : 1), 1);
  if (!one.empty()) {
    EXPECT_EQ(one[0], Complex(2, 0));
  }
}

// What constructing or calling threw on this rank ("" when nothing), and whether every rank threw.
struct Thrown {
  std::string message;
  bool on_every_rank = false;
};

template <typename Action>
Thrown thrown_by(Action action) {
  Thrown thrown;
  long threw = 0;
  try {
    action();
  } catch (const a2afft::UsageError& error) {
    thrown.message = error.what();
    threw = 1;
  }
  thrown.on_every_rank = sum_over(threw) == size_of();
  return thrown;
}

TEST(Fft3d, bad_arguments_are_one_error_naming_them_on_every_rank) {
  const int p = size_of();
  const bool last = rank_in() == p - 1;
  a2afft::Fft3dOptions bad_grid;
  bad_grid.grid = {p + 1, 1};
  a2afft::Fft3dOptions bad_spec;  // a value is checked where an exchange runs: on 2+ ranks
  bad_spec.row_exchange = bad_spec.column_exchange = p > 1 ? "tra:radix=banana" : "tra:frobs=2";
  a2afft::Fft3dOptions bad_name;
  bad_name.column_exchange = "bogus";
  a2afft::Fft3dOptions bad_rigor;
  bad_rigor.rigor = static_cast<a2afft::Rigor>(7);
  a2afft::Fft3dOptions odd_scaling;
  if (last) odd_scaling.scaling = Scaling::full;
  const std::pair<std::function<void()>, std::string> cases[] = {
      {[] {
         a2afft::Fft3d(MPI_COMM_WORLD, {4, 0, 4});
       },
       "shape 4x0x4 is not valid"},
      {[&] {
         a2afft::Fft3d(MPI_COMM_WORLD, {4, 4, 4}, bad_grid);
       },
       "grid=" + std::to_string(p + 1) + "x1 is not valid on " + std::to_string(p) + " ranks"},
      {[&] {
         a2afft::Fft3d(MPI_COMM_WORLD, {4, 4, 4}, bad_spec);
       },
       p > 1 ? "radix=banana is not valid" : "frobs"},
      {[&] {
         a2afft::Fft3d(MPI_COMM_WORLD, {4, 4, 4}, bad_name);
       },
       "unknown exchange 'bogus'"},
      {[&] {
         a2afft::Fft3d(MPI_COMM_WORLD, {4, 4, 4}, bad_rigor);
       },
       "rigor=7 is not valid"},
      {[&] {
         a2afft::Fft3d(MPI_COMM_WORLD, {4, 4, std::size_t(last ? 5 : 4)});
       },
       p > 1 ? "shape '4x4x5' on rank" : "no error"},
      {[&] {
         a2afft::Fft3d(MPI_COMM_WORLD, {4, 4, 4}, odd_scaling);
       },
       p > 1 ? "scaling '1' on rank" : "no error"},
      {[] {
         a2afft::Fft3d(MPI_COMM_NULL, {4, 4, 4});
       },
       "comm is MPI_COMM_NULL"},
  };
  for (const auto& [action, named] : cases) {
    if (named == "no error") continue;  // a difference between ranks needs two ranks
    const Thrown thrown = thrown_by(action);
    EXPECT_TRUE(thrown.on_every_rank) << named;
    EXPECT_TRUE(same_on_every_rank(thrown.message)) << named;
    EXPECT_NE(thrown.message.find(named), std::string::npos) << named << ": " << thrown.message;
  }
}

TEST(Fft3d, a_bad_array_on_one_rank_is_an_error_on_every_rank_and_the_plan_still_works) {
  const Index shape{8, 6, 4};
  a2afft::Fft3d fft(MPI_COMM_WORLD, shape,
                    options_with({0, 0}, "pairwise", "pairwise", Rigor::estimate,
                                 Fft3dOutput::transposed, Scaling::full));
  std::vector<Complex> data(fft.in_place_elements() + 1);
  const bool last = rank_in() == size_of() - 1;
  // Misaligned by 8 bytes on the last rank only.
  auto* odd = reinterpret_cast<Complex*>(reinterpret_cast<char*>(data.data()) + (last ? 8 : 0));
  const Thrown misaligned = thrown_by([&] { fft.forward(odd, odd); });
  EXPECT_TRUE(misaligned.on_every_rank);
  EXPECT_TRUE(same_on_every_rank(misaligned.message));
  EXPECT_NE(misaligned.message.find("Fft3d::forward: in is not 16-byte aligned"), std::string::npos)
      << misaligned.message;
  const Thrown null = thrown_by([&] { fft.backward(nullptr, nullptr); });
  if (sum_over(fft.output_elements() > 0 ? 1 : 0) > 0) {
    EXPECT_TRUE(null.on_every_rank);
    EXPECT_NE(null.message.find("Fft3d::backward: in is null"), std::string::npos) << null.message;
  }
  const Errors errors = check_fft3d(fft, shape, Scaling::full, true, serial_forward(shape));
  EXPECT_LT(errors.forward, 1e-13);
  EXPECT_LT(errors.round_trip, 1e-13);
}

TEST(Fft3d, says_its_workspace_and_the_last_transforms_times) {
  a2afft::Fft3d fft(MPI_COMM_WORLD, {16, 12, 8},
                    options_with({0, 0}, "pairwise", "pairwise", Rigor::estimate,
                                 Fft3dOutput::transposed, Scaling::none));
  EXPECT_GE(fft.workspace_bytes(), fft.in_place_elements() * sizeof(Complex));
  std::vector<Complex> data(fft.in_place_elements(), Complex{1, 0});
  fft.forward(data.data(), data.data());
  const a2afft::FftTimes times = fft.last_times();
  EXPECT_GT(max_over(times.compute_seconds), 0.0);
  if (size_of() > 1) {
    EXPECT_GT(max_over(times.transpose_seconds), 0.0);
  }
  EXPECT_LT(max_over(times.compute_seconds + times.transpose_seconds), 10.0);
}

TEST(Fft3d, wisdom_is_written_after_planning_and_read_back) {
  char path[] = "/tmp/a2afft-wisdom-XXXXXX";
  if (rank_in() == 0) close(mkstemp(path));
  MPI_Bcast(path, sizeof path, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (rank_in() == 0) std::remove(path);
  a2afft::Fft3dOptions options =
      options_with({0, 0}, "mpi", "mpi", Rigor::measure, Fft3dOutput::transposed, Scaling::full);
  options.wisdom_file = path;
  { a2afft::Fft3d first(MPI_COMM_WORLD, {8, 8, 8}, options); }
  long written = 0;
  if (rank_in() == 0) {
    std::FILE* file = std::fopen(path, "r");
    char head[32] = {};
    if (file != nullptr) {
      written = std::fread(head, 1, sizeof head - 1, file) > 0 &&
                std::string(head).find("fftw") != std::string::npos;
      std::fclose(file);
    }
  }
  EXPECT_EQ(sum_over(written), 1) << "no wisdom in " << path;
  expect_matches_serial_fftw({{8, 8, 8}, options, "with the wisdom read back"});
  // A file that is not wisdom is an error naming it, on every rank.
  if (rank_in() == 0) {
    std::FILE* file = std::fopen(path, "w");
    std::fputs("not wisdom\n", file);
    std::fclose(file);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const Thrown thrown = thrown_by([&] { a2afft::Fft3d(MPI_COMM_WORLD, {8, 8, 8}, options); });
  EXPECT_TRUE(thrown.on_every_rank);
  EXPECT_NE(thrown.message.find(std::string("wisdom_file=") + path + " is not an FFTW wisdom"),
            std::string::npos)
      << thrown.message;
  if (rank_in() == 0) std::remove(path);
}

TEST(Fft3d, plans_on_two_communicators_run_interleaved_and_can_be_moved) {
  const int rank = rank_in();
  MPI_Comm half = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  const Index shape{6, 4, 5};
  const auto options = options_with({0, 0}, "pairwise", "pairwise", Rigor::estimate,
                                    Fft3dOutput::natural, Scaling::full);
  std::vector<a2afft::Fft3d> plans;
  plans.emplace_back(half, shape, options);
  plans.emplace_back(MPI_COMM_WORLD, shape, options);
  MPI_Comm_free(&half);  // each plan keeps its own duplicate
  const std::vector<Complex> reference = serial_forward(shape);
  for (int round = 0; round < 2; ++round) {
    EXPECT_LT(check_fft3d(plans[1], shape, Scaling::full, round == 0, reference).forward, 1e-13);
    // The half's errors are reduced over the world by check_fft3d's max_over: every rank of the
    // world runs its own half's plan at the same time.
    EXPECT_LT(check_fft3d(plans[0], shape, Scaling::full, round == 1, reference).round_trip, 1e-13);
  }
}

// ---- Fft1d ----

// A 2D plan's describe() is its one exchange's (the row transpose's), or `-` on one rank, where
// the transpose stays inside it; a 3D plan names both.
TEST(Fft2d, describe_names_its_one_exchange) {
  a2afft::Fft2dOptions options;
  options.exchange = "pairwise";
  options.rigor = Rigor::estimate;
  const a2afft::Fft2d fft(MPI_COMM_WORLD, {8, 6}, options);
  const std::string text = fft.describe();
  if (size_of() == 1) {
    EXPECT_EQ(text, "-");
  } else {
    EXPECT_EQ(text.rfind("pairwise", 0), 0u) << text;
    EXPECT_EQ(text.find("row="), std::string::npos) << text;
    EXPECT_EQ(text.find("column="), std::string::npos) << text;
  }
}

TEST(Fft1d, natural_and_scrambled_match_serial_fftw_in_place_and_out_of_place) {
  const std::size_t p = static_cast<std::size_t>(size_of());
  const std::size_t n = 48 * p * p;
  const Index as_3d{1, 1, n};
  const std::vector<Complex> reference = serial_forward(as_3d);
  for (const auto output : {a2afft::Fft1dOutput::natural, a2afft::Fft1dOutput::scrambled}) {
    for (const auto scaling : {Scaling::none, Scaling::symmetric}) {
      a2afft::Fft1dOptions options;
      options.exchange = output == a2afft::Fft1dOutput::natural ? "pairwise" : "auto";
      options.rigor = Rigor::estimate;
      options.output = output;
      options.scaling = scaling;
      a2afft::Fft1d fft(MPI_COMM_WORLD, n, options);
      EXPECT_EQ(fft.length(), n);
      EXPECT_EQ(fft.n1() * fft.n2(), n);
      EXPECT_EQ(fft.local_elements(), n / p);
      EXPECT_EQ(fft.input_offset(), std::size_t(rank_in()) * (n / p));
      if (options.exchange != "auto") {
        EXPECT_TRUE(same_on_every_rank(fft.describe()));
      }
      const std::pair<double, double> factor = factors(scaling, double(n));
      const double forward_factor = factor.first, backward_factor = factor.second;
      for (const bool in_place : {false, true}) {
        std::vector<Complex> x(fft.local_elements()), a(x.size()), b(x.size());
        for (std::size_t i = 0; i < x.size(); ++i)
          x[i] = signal(fft.input_offset() + i);
        a = x;
        Complex* spectrum = in_place ? a.data() : b.data();
        fft.forward(a.data(), spectrum);
        double forward_error = 0, round_trip_error = 0;
        for (std::size_t i = 0; i < x.size(); ++i) {
          forward_error =
              std::max(forward_error,
                       std::abs(spectrum[i] - reference[fft.output_index(i)] * forward_factor));
        }
        fft.backward(spectrum, a.data());
        const double round_trip_factor = forward_factor * backward_factor * double(n);
        for (std::size_t i = 0; i < x.size(); ++i)
          round_trip_error = std::max(round_trip_error, std::abs(a[i] - x[i] * round_trip_factor));
        const std::string name =
            std::string(output == a2afft::Fft1dOutput::natural ? "natural" : "scrambled") +
            (in_place ? ", in place" : ", out of place");
        EXPECT_LT(max_over(forward_error) / std::sqrt(double(n)), 1e-13) << name;
        EXPECT_LT(max_over(round_trip_error) / round_trip_factor, 1e-13) << name;
      }
    }
  }
}

TEST(Fft1d, a_length_the_ranks_cannot_split_is_one_error_on_every_rank) {
  const std::size_t p = static_cast<std::size_t>(size_of());
  const Thrown zero = thrown_by([] { a2afft::Fft1d(MPI_COMM_WORLD, 0); });
  EXPECT_TRUE(zero.on_every_rank) << zero.message;
  if (p > 1) {
    const Thrown odd = thrown_by([&] { a2afft::Fft1d(MPI_COMM_WORLD, p * p + 1); });
    EXPECT_TRUE(odd.on_every_rank);
    EXPECT_TRUE(same_on_every_rank(odd.message));
    EXPECT_NE(odd.message.find(std::to_string(p * p + 1)), std::string::npos) << odd.message;
  }
  a2afft::Fft1dOptions bad_n1;
  bad_n1.n1 = 7;
  const Thrown n1 = thrown_by([&] { a2afft::Fft1d(MPI_COMM_WORLD, 64 * p * p, bad_n1); });
  EXPECT_TRUE(n1.on_every_rank);
  EXPECT_NE(n1.message.find("7"), std::string::npos) << n1.message;
}

}  // namespace
