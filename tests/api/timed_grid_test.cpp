// Fft3dOptions::grid = timed_grid (issue 45): which grids are tried, that every rank keeps the
// same one, that it gives the bits of the rule's grid, and that A2AFFT_WISDOM keeps it.

#include <gtest/gtest.h>
#include <mpi.h>
#include <a2afft/fft3d.hpp>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace {

using Complex = std::complex<double>;
using Grid = std::array<int, 2>;
constexpr std::array<std::size_t, 3> kShape{12, 10, 8};

int world(int (*query)(MPI_Comm, int*)) {
  int value = 0;
  query(MPI_COMM_WORLD, &value);
  return value;
}

// This rank's slab of dimension 0: the same input and output boxes whatever the grid, so that
// plans on different grids take and give the same arrays.
a2afft::Box3 slab() {
  const int ranks = world(MPI_Comm_size), rank = world(MPI_Comm_rank);
  const std::size_t base = kShape[0] / ranks, extra = kShape[0] % ranks;
  const std::size_t first = rank * base + std::min<std::size_t>(rank, extra);
  a2afft::Box3 box;
  box.lower = {first, 0, 0};
  box.size = {base + (static_cast<std::size_t>(rank) < extra ? 1 : 0), kShape[1], kShape[2]};
  return box;
}

a2afft::Fft3dOptions options_on(const Grid& grid) {
  a2afft::Fft3dOptions options;
  options.grid = grid;
  options.exchange = "pairwise";
  options.rigor = a2afft::Rigor::estimate;
  options.input_box = slab();
  options.output_box = slab();
  return options;
}

// forward() of a signal made from the global index, on this rank's slab.
std::vector<Complex> forward_of(a2afft::Fft3d& plan) {
  const a2afft::Box3 box = slab();
  std::vector<Complex> input(plan.input_elements()), output(plan.output_elements());
  for (std::size_t i = 0; i < box.elements(); ++i) {
    const double global = static_cast<double>(box.lower[0] * kShape[1] * kShape[2] + i);
    input[i] = {std::sin(0.37 * global), std::cos(0.11 * global)};
  }
  plan.forward(input.data(), output.data());
  return output;
}

bool same_on_every_rank(const std::string& text) {
  const std::hash<std::string> hash;
  long mine = static_cast<long>(hash(text) & 0x7fffffff), low = 0, high = 0;
  MPI_Allreduce(&mine, &low, 1, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&mine, &high, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  return low == high;
}

std::string grid_text(const Grid& grid) {
  return std::to_string(grid[0]) + "x" + std::to_string(grid[1]);
}

}  // namespace

TEST(TimedGrid, candidates_follow_the_documented_rule) {
  using Grids = std::vector<Grid>;
  // Every factorisation, nearest to square first, p0 >= p1 first of a pair.
  EXPECT_EQ(a2afft::Fft3d::grid_candidates(12, {64, 64, 64}),
            (Grids{{4, 3}, {3, 4}, {6, 2}, {2, 6}, {12, 1}, {1, 12}}));
  EXPECT_EQ(a2afft::Fft3d::grid_candidates(1, {4, 4, 4}), (Grids{{1, 1}}));
  // More than 8: the 6 nearest to square and the two slabs.
  EXPECT_EQ(
      a2afft::Fft3d::grid_candidates(720, {1024, 1024, 1024}),
      (Grids{{30, 24}, {24, 30}, {36, 20}, {20, 36}, {40, 18}, {18, 40}, {720, 1}, {1, 720}}));
  // A grid that splits a dimension into more parts than points is left out.
  EXPECT_EQ(a2afft::Fft3d::grid_candidates(8, {2, 100, 100}), (Grids{{2, 4}, {1, 8}}));
}

TEST(TimedGrid, one_choice_on_every_rank_with_the_rule_grids_bits) {
  a2afft::Fft3d timed(MPI_COMM_WORLD, kShape, options_on(a2afft::timed_grid));
  const Grid chosen = timed.grid();
  EXPECT_EQ(chosen[0] * chosen[1], world(MPI_Comm_size));
  EXPECT_TRUE(same_on_every_rank(grid_text(chosen))) << grid_text(chosen);
  EXPECT_NE(timed.describe().find("grid " + grid_text(chosen) + " timed"), std::string::npos)
      << timed.describe();
  a2afft::Fft3d rule(MPI_COMM_WORLD, kShape, options_on({0, 0}));
  EXPECT_EQ(rule.grid(), a2afft::Fft3d::default_grid(world(MPI_Comm_size)));
  EXPECT_EQ(rule.describe().find("timed"), std::string::npos) << rule.describe();
  const std::vector<Complex> got = forward_of(timed), expected = forward_of(rule);
  ASSERT_EQ(got.size(), expected.size());
  EXPECT_EQ(std::memcmp(got.data(), expected.data(), got.size() * sizeof(Complex)), 0)
      << "the timed grid " << grid_text(chosen) << " against the rule's " << grid_text(rule.grid());
}

TEST(TimedGrid, the_choice_is_kept_in_the_wisdom_file_and_taken_again) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("a2afft_timed_grid_" + std::to_string(world(MPI_Comm_size)) + "_" +
                             std::to_string(::getppid()) + ".json"))
                               .string();
  if (world(MPI_Comm_rank) == 0) std::filesystem::remove(path);
  MPI_Barrier(MPI_COMM_WORLD);
  setenv("A2AFFT_WISDOM", path.c_str(), 1);
  Grid first_grid{}, second_grid{};
  std::string second_text;
  {
    a2afft::Fft3d first(MPI_COMM_WORLD, kShape, options_on(a2afft::timed_grid));
    first_grid = first.grid();
    EXPECT_NE(first.describe().find(" timed: "), std::string::npos) << first.describe();
  }
  {
    a2afft::Fft3d second(MPI_COMM_WORLD, kShape, options_on(a2afft::timed_grid));
    second_grid = second.grid();
    second_text = second.describe();
  }
  unsetenv("A2AFFT_WISDOM");
  EXPECT_EQ(second_grid, first_grid);
  EXPECT_NE(second_text.find("grid " + grid_text(first_grid) +
                             " timed earlier (kept in "
                             "A2AFFT_WISDOM)"),
            std::string::npos)
      << second_text;
  if (world(MPI_Comm_rank) == 0) {
    std::stringstream file;
    file << std::ifstream(path).rdbuf();
    EXPECT_NE(file.str().find("grid:timed"), std::string::npos) << file.str();
    EXPECT_NE(file.str().find("\"" + grid_text(first_grid) + "\""), std::string::npos)
        << file.str();
    std::filesystem::remove(path);
  }
}

TEST(TimedGrid, a_damaged_kept_grid_is_one_clear_error) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("a2afft_timed_grid_damaged_" + std::to_string(world(MPI_Comm_size)) +
                             "_" + std::to_string(::getppid()) + ".json"))
                               .string();
  setenv("A2AFFT_WISDOM", path.c_str(), 1);
  { a2afft::Fft3d first(MPI_COMM_WORLD, kShape, options_on(a2afft::timed_grid)); }
  if (world(MPI_Comm_rank) == 0) {
    std::stringstream file;
    file << std::ifstream(path).rdbuf();
    std::string text = file.str();
    const std::size_t value = text.find("\"", text.find("grid:timed") + 1);
    const std::size_t begin = text.find('"', value + 1), end = text.find('"', begin + 1);
    text.replace(begin + 1, end - begin - 1, "2by2");
    std::ofstream(path) << text;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  try {
    a2afft::Fft3d second(MPI_COMM_WORLD, kShape, options_on(a2afft::timed_grid));
    ADD_FAILURE() << "a damaged entry was taken";
  } catch (const a2afft::UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("'2by2'"), std::string::npos) << error.what();
  }
  unsetenv("A2AFFT_WISDOM");
  if (world(MPI_Comm_rank) == 0) std::filesystem::remove(path);
}

TEST(TimedGrid, a_half_timed_grid_is_one_clear_error) {
  a2afft::Fft3dOptions options;
  options.grid = {-1, world(MPI_Comm_size)};
  try {
    a2afft::Fft3d plan(MPI_COMM_WORLD, kShape, options);
    FAIL() << "grid -1 x P was accepted";
  } catch (const a2afft::UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("timed_grid"), std::string::npos) << error.what();
  }
}
