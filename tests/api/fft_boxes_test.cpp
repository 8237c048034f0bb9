// Bring-your-own boxes (Fft3dOptions::input_box, output_box; issue 34) through the public Fft3d,
// against serial FFTW of the whole array, which every rank computes for itself: brick to brick,
// brick to pencil, pencil to brick, slab to brick, storage orders, empty boxes; c2c, r2c and
// cosine transforms, double and float, batches, in place and out of place. The bits are those
// of the plan without boxes whichever reshape exchange runs, boxes that are the plan's own add
// nothing, and boxes that do not tile the array are one error on every rank.

#include <fftw3.h>
#include <mpi.h>

#include <gtest/gtest.h>

#include <a2afft/a2afft.hpp>
#include "collective.hpp"
#include "global_array.hpp"

#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace {

using namespace a2afft::api_test;

using a2afft::Box3;
using a2afft::Kind;
using a2afft::Precision;

// Part `index` of `parts` near-equal parts of n (the first ones one larger; empty past n).
std::pair<std::size_t, std::size_t> part_of(std::size_t n, int parts, int index) {
  const std::size_t base = n / std::size_t(parts), extra = n % std::size_t(parts);
  const std::size_t i = std::size_t(index);
  return {i * base + std::min(i, extra), base + (i < extra ? 1 : 0)};
}

// This rank's brick of a g0 x g1 x g2 grid (g0 g1 g2 = P) over `n`, stored in `order`.
Box3 brick(const Index& n, const std::array<int, 3>& grid, std::array<int, 3> order = {0, 1, 2}) {
  int r = rank_in();
  const std::array<int, 3> at{r / (grid[1] * grid[2]), (r / grid[2]) % grid[1], r % grid[2]};
  Box3 box;
  for (std::size_t d = 0; d < 3; ++d) {
    const auto [lower, size] = part_of(n[d], grid[d], at[d]);
    box.lower[d] = lower;
    box.size[d] = size;
  }
  box.order = order;
  return box;
}

// A brick grid for P ranks: P's factors spread over the three dimensions.
std::array<int, 3> brick_grid(int ranks) {
  std::array<int, 3> grid{1, 1, 1};
  int left = ranks;
  for (int factor = 2; left > 1;) {
    if (left % factor != 0) {
      ++factor;
      continue;
    }
    *std::min_element(grid.begin(), grid.end()) *= factor;
    left /= factor;
  }
  return grid;
}

enum class What { c2c, r2c, dct };

// Serial FFTW (double) of field f over n: the whole forward output, row-major.
std::vector<std::complex<double>> serial(const Index& n, What what, std::size_t f) {
  const Index m{n[0], n[1], what == What::r2c ? n[2] / 2 + 1 : n[2]};
  const std::size_t points = n[0] * n[1] * n[2];
  std::vector<std::complex<double>> out(m[0] * m[1] * m[2]);
  auto* complex = reinterpret_cast<fftw_complex*>(out.data());
  fftw_plan plan = nullptr;
  std::vector<double> real(points);
  for (std::size_t g = 0; g < points; ++g)
    real[g] = signal(g, f).real();
  if (what == What::c2c) {
    for (std::size_t g = 0; g < points; ++g)
      out[g] = signal(g, f);
    plan = fftw_plan_dft_3d(int(n[0]), int(n[1]), int(n[2]), complex, complex, FFTW_FORWARD,
                            FFTW_ESTIMATE);
  } else if (what == What::r2c) {
    plan =
        fftw_plan_dft_r2c_3d(int(n[0]), int(n[1]), int(n[2]), real.data(), complex, FFTW_ESTIMATE);
  } else {
    plan = fftw_plan_r2r_3d(int(n[0]), int(n[1]), int(n[2]), real.data(), real.data(), FFTW_REDFT10,
                            FFTW_REDFT10, FFTW_REDFT10, FFTW_ESTIMATE);
  }
  fftw_execute(plan);
  fftw_destroy_plan(plan);
  if (what == What::dct) {
    for (std::size_t g = 0; g < points; ++g)
      out[g] = real[g];
  }
  return out;
}

struct Case {
  What what = What::c2c;
  Precision precision = Precision::double_precision;
  std::size_t batch = 1;
  std::optional<Box3> in;
  std::optional<Box3> out;
  std::string reshape_exchange = "auto";
};

a2afft::Fft3d plan_of(const Case& c, const Index& n) {
  a2afft::Fft3dOptions options;
  options.kind = c.what == What::r2c ? Kind::r2c : Kind::c2c;
  if (c.what == What::dct)
    options.axes = {a2afft::AxisKind::dct2, a2afft::AxisKind::dct2, a2afft::AxisKind::dct2};
  options.precision = c.precision;
  options.batch = c.batch;
  options.rigor = a2afft::Rigor::estimate;
  options.exchange = "pairwise";
  options.input_box = c.in;
  options.output_box = c.out;
  options.reshape_exchange = c.reshape_exchange;
  return a2afft::Fft3d(MPI_COMM_WORLD, n, options);
}

// Forward (out of place, or in place) and backward of one case against serial FFTW; returns the
// forward output's bytes.
template <typename Real>
std::vector<unsigned char> check(const Case& c, const Index& n, bool in_place,
                                 const std::string& name) {
  a2afft::Fft3d fft = plan_of(c, n);
  const bool real_in = c.what != What::c2c, real_out = c.what == What::dct;
  const Box3 in_box = fft.input_box(), out_box = fft.output_box();
  if (c.in) {  // the same on every rank: every rank passes a box, or none does
    EXPECT_EQ(sum_over(in_box.lower == c.in->lower && in_box.size == c.in->size ? 0 : 1), 0);
  }
  const Index m{n[0], n[1], c.what == What::r2c ? n[2] / 2 + 1 : n[2]};
  std::vector<std::vector<std::complex<double>>> reference;
  for (std::size_t f = 0; f < c.batch; ++f)
    reference.push_back(serial(n, c.what, f));
  const std::size_t scalars = std::max<std::size_t>(2, fft.in_place_bytes() / sizeof(Real));
  std::vector<Real> input(scalars), output(scalars);
  const auto put = [](std::vector<Real>& a, bool real, std::size_t i, std::complex<double> v) {
    if (real) {
      a[i] = Real(v.real());
    } else {
      a[2 * i] = Real(v.real());
      a[2 * i + 1] = Real(v.imag());
    }
  };
  const auto get = [](const std::vector<Real>& a, bool real, std::size_t i) {
    return real ? std::complex<double>(a[i]) : std::complex<double>(a[2 * i], a[2 * i + 1]);
  };
  for_each_point(in_box, [&](const Index& at) {
    for (std::size_t f = 0; f < c.batch; ++f)
      put(input, real_in, in_box.local_index(at) * c.batch + f, signal(row_major(at, n), f));
  });
  const std::vector<Real> kept = input;
  std::vector<Real>& result = in_place ? input : output;
  fft.execute(a2afft::Direction::forward, input.data(), input.size() * sizeof(Real), result.data(),
              result.size() * sizeof(Real));
  double worst = 0, scale = 0;
  for_each_point(out_box, [&](const Index& at) {
    for (std::size_t f = 0; f < c.batch; ++f) {
      const std::complex<double> want = reference[f][row_major(at, m)];
      worst = std::max(
          worst, std::abs(get(result, real_out, out_box.local_index(at) * c.batch + f) - want));
      scale = std::max(scale, std::abs(want));
    }
  });
  const double tolerance = 40 * std::numeric_limits<Real>::epsilon() * 12;
  EXPECT_LT(max_over(worst) / max_over(scale), tolerance) << name << ": forward";
  std::vector<unsigned char> bits(fft.output_bytes());
  std::memcpy(bits.data(), result.data(), bits.size());
  // Backward gives the input times the logical size (2n per cosine axis).
  std::vector<Real> back(scalars);
  std::vector<Real>& back_result = in_place ? result : back;
  fft.execute(a2afft::Direction::backward, result.data(), result.size() * sizeof(Real),
              back_result.data(), back_result.size() * sizeof(Real));
  const double factor = double(n[0] * n[1] * n[2]) * (c.what == What::dct ? 8.0 : 1.0);
  worst = scale = 0;
  for_each_point(in_box, [&](const Index& at) {
    for (std::size_t f = 0; f < c.batch; ++f) {
      const std::size_t i = in_box.local_index(at) * c.batch + f;
      worst =
          std::max(worst, std::abs(get(back_result, real_in, i) / factor - get(kept, real_in, i)));
      scale = std::max(scale, std::abs(get(kept, real_in, i)));
    }
  });
  EXPECT_LT(max_over(worst) / max_over(scale), tolerance) << name << ": backward";
  return bits;
}

std::vector<unsigned char> check_any(const Case& c, const Index& n, bool in_place,
                                     const std::string& name) {
  return c.precision == Precision::single_precision ? check<float>(c, n, in_place, name)
                                                    : check<double>(c, n, in_place, name);
}

TEST(Fft3dBoxes, bricks_pencils_and_slabs_against_serial_fftw) {
  const int ranks = size_of();
  const std::array<int, 3> grid = brick_grid(ranks);
  for (const Index& n : {Index{6, 5, 7}, Index{4, 6, 8}}) {
    const Box3 bricks = brick(n, grid);
    const Box3 slabs = brick(n, {ranks, 1, 1}, {2, 1, 0});
    for (const What what : {What::c2c, What::r2c, What::dct}) {
      const Index m{n[0], n[1], what == What::r2c ? n[2] / 2 + 1 : n[2]};
      const Box3 spectral_bricks = brick(m, grid, {1, 0, 2});
      for (const Precision precision : {Precision::double_precision, Precision::single_precision}) {
        if (precision == Precision::single_precision && n[0] != 6) continue;  // float: one size
        const std::string name = std::to_string(int(what)) + " " + std::to_string(n[0]) +
                                 (precision == Precision::single_precision ? " float" : " double");
        check_any({what, precision, 1, bricks, spectral_bricks}, n, false, name + " brick->brick");
        check_any({what, precision, 3, bricks, std::nullopt}, n, true, name + " brick->pencil");
        check_any({what, precision, 1, std::nullopt, spectral_bricks}, n, true,
                  name + " pencil->brick");
        check_any({what, precision, 2, slabs, spectral_bricks}, n, false, name + " slab->brick");
        // Everything on the last rank (the others empty) in, bricks out.
        const Box3 all_or_nothing =
            rank_in() == ranks - 1 ? Box3{{0, 0, 0}, n} : Box3{{0, 0, 0}, {0, 0, 0}};
        check_any({what, precision, 1, all_or_nothing, spectral_bricks}, n, true,
                  name + " one rank->brick");
      }
    }
  }
}

// The reshapes move bytes only: brick to brick gives the plain pencil plan's values, and the
// same bits on every reshape exchange.
TEST(Fft3dBoxes, every_reshape_exchange_gives_the_same_bits) {
  const Index n{6, 5, 7};
  const std::array<int, 3> grid = brick_grid(size_of());
  const Case base{What::c2c, Precision::double_precision, 1, brick(n, grid), brick(n, grid)};
  const std::vector<unsigned char> reference = check_any(base, n, false, "mpi");
  for (const char* exchange : {"mpi", "sparse", "node-aggregate", "neighbor"}) {
    Case c = base;
    c.reshape_exchange = exchange;
    EXPECT_EQ(sum_over(check_any(c, n, false, exchange) == reference ? 0 : 1), 0)
        << exchange << " gives other bits";
  }
}

TEST(Fft3dBoxes, the_plans_own_boxes_add_nothing_and_bad_tilings_are_errors) {
  const Index n{4, 4, 4};
  a2afft::Fft3dOptions options;
  options.rigor = a2afft::Rigor::estimate;
  a2afft::Fft3d own(MPI_COMM_WORLD, n, options);
  options.input_box = own.input_box();
  options.output_box = own.output_box();
  a2afft::Fft3d same(MPI_COMM_WORLD, n, options);
  EXPECT_EQ(sum_over(same.describe().find("reshape=in:-;out:-") != std::string::npos ? 0 : 1), 0)
      << same.describe();
  options.output_box.reset();
  Box3 bad = brick(n, brick_grid(size_of()));
  if (rank_in() == size_of() - 1) bad.size = {0, 0, 0};  // a gap (or the whole array on 1 rank)
  options.input_box = bad;
  std::string message = "accepted";
  try {
    a2afft::Fft3d fft(MPI_COMM_WORLD, n, options);
  } catch (const a2afft::UsageError& error) {
    message = error.what();
  }
  EXPECT_TRUE(same_on_every_rank(message)) << message;
  EXPECT_NE(message.find("input boxes hold"), std::string::npos) << message;
}

}  // namespace
