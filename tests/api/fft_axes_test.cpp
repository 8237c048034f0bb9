// Per-axis transforms (PlanOptions::axes) of the public Fft3d and Fft2d against serial FFTW of the
// whole array in double, which every rank computes for itself one axis at a time (the arrays are
// small): the r2c along the last axis (fftw_plan_guru64_dft_r2c), then each other axis's complex
// DFT (fftw_plan_guru64_dft) or cosine or sine transform (fftw_plan_guru64_r2r, on the real and
// the imaginary parts apart), or nothing. Every one of FFTW's eight r2r kinds, mixed with dft,
// r2c and none; real (r2r) and complex data; double and float; batches; in place and out of
// place; transposed and natural output; slabs, pencils and a 1 x P grid; odd and even sizes.
// Backward of the exact spectrum gives the input times FFTW's logical size; Scaling::full undoes
// it. The bits are the same whichever exchange runs. Every check is reduced over the ranks.

#include <fftw3.h>
#include <mpi.h>

#include <gtest/gtest.h>

#include <a2afft/a2afft.hpp>
#include "collective.hpp"
#include "global_array.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace {

using namespace a2afft::api_test;

using a2afft::AxisKind;
using a2afft::Kind;
using a2afft::Precision;
using Axes = std::array<AxisKind, 3>;  // a 2D plan's are {none, a0, a1}

Kind kind_of(const Axes& axes) {
  if (axes[2] == AxisKind::r2c) return Kind::r2c;
  const bool dft = std::find(axes.begin(), axes.end(), AxisKind::dft) != axes.end();
  return dft ? Kind::c2c : Kind::r2r;
}

Index spectrum_shape(const Index& n, const Axes& axes) {
  return axes[2] == AxisKind::r2c ? Index{n[0], n[1], n[2] / 2 + 1} : n;
}

fftw_r2r_kind fftw_kind(AxisKind axis) {
  switch (axis) {
    case AxisKind::dct1:
      return FFTW_REDFT00;
    case AxisKind::dct2:
      return FFTW_REDFT10;
    case AxisKind::dct3:
      return FFTW_REDFT01;
    case AxisKind::dct4:
      return FFTW_REDFT11;
    case AxisKind::dst1:
      return FFTW_RODFT00;
    case AxisKind::dst2:
      return FFTW_RODFT10;
    case AxisKind::dst3:
      return FFTW_RODFT01;
    default:
      return FFTW_RODFT11;
  }
}

// FFTW's logical size: backward(forward(x)) = N x.
double logical_points(const Index& n, const Axes& axes) {
  double total = 1;
  for (std::size_t d = 0; d < 3; ++d) {
    const double size = double(n[d]);
    switch (axes[d]) {
      case AxisKind::none:
        break;
      case AxisKind::dft:
      case AxisKind::r2c:
        total *= size;
        break;
      case AxisKind::dct1:
        total *= 2 * (size - 1);
        break;
      case AxisKind::dst1:
        total *= 2 * (size + 1);
        break;
      default:
        total *= 2 * size;
    }
  }
  return total;
}

// The input of field f at global point g: real for r2c and r2r, complex otherwise.
std::complex<double> input_value(const Axes& axes, std::size_t g, std::size_t f) {
  const std::complex<double> v = signal(g, f);
  return kind_of(axes) == Kind::c2c ? v : std::complex<double>(v.real(), 0);
}

// Serial FFTW, one axis at a time, of field f over `n`: row-major over spectrum_shape().
std::vector<std::complex<double>> serial_spectrum(const Index& n, const Axes& axes, std::size_t f) {
  const Index m = spectrum_shape(n, axes);
  std::vector<std::complex<double>> a(points(m));
  auto* complex = reinterpret_cast<fftw_complex*>(a.data());
  auto* reals = reinterpret_cast<double*>(a.data());
  const std::array<std::ptrdiff_t, 3> stride{std::ptrdiff_t(m[1] * m[2]), std::ptrdiff_t(m[2]), 1};
  // The other two axes of d as loops, in units of `unit` (1: complex numbers, 2: reals).
  const auto loops = [&](std::size_t d, std::ptrdiff_t unit) {
    std::vector<fftw_iodim64> other;
    for (std::size_t e = 0; e < 3; ++e) {
      if (e != d) other.push_back({std::ptrdiff_t(m[e]), stride[e] * unit, stride[e] * unit});
    }
    return other;
  };
  if (axes[2] == AxisKind::r2c) {
    std::vector<double> real(points(n));
    for (std::size_t g = 0; g < points(n); ++g)
      real[g] = signal(g, f).real();
    fftw_iodim64 dim{std::ptrdiff_t(n[2]), 1, 1};
    const fftw_iodim64 rows[2] = {
        {std::ptrdiff_t(n[0]), std::ptrdiff_t(n[1] * n[2]), std::ptrdiff_t(m[1] * m[2])},
        {std::ptrdiff_t(n[1]), std::ptrdiff_t(n[2]), std::ptrdiff_t(m[2])}};
    fftw_plan plan =
        fftw_plan_guru64_dft_r2c(1, &dim, 2, rows, real.data(), complex, FFTW_ESTIMATE);
    fftw_execute(plan);
    fftw_destroy_plan(plan);
  } else {
    for (std::size_t g = 0; g < points(n); ++g)
      a[g] = input_value(axes, g, f);
  }
  for (std::size_t d = 0; d < 3; ++d) {
    fftw_plan plan = nullptr;
    if (axes[d] == AxisKind::dft) {
      fftw_iodim64 dim{std::ptrdiff_t(m[d]), stride[d], stride[d]};
      const std::vector<fftw_iodim64> other = loops(d, 1);
      plan = fftw_plan_guru64_dft(1, &dim, 2, other.data(), complex, complex, FFTW_FORWARD,
                                  FFTW_ESTIMATE);
    } else if (axes[d] != AxisKind::none && axes[d] != AxisKind::r2c) {
      fftw_iodim64 dim{std::ptrdiff_t(m[d]), 2 * stride[d], 2 * stride[d]};
      std::vector<fftw_iodim64> other = loops(d, 2);
      other.push_back({2, 1, 1});  // the real and the imaginary parts
      const fftw_r2r_kind kind = fftw_kind(axes[d]);
      plan = fftw_plan_guru64_r2r(1, &dim, 3, other.data(), reals, reals, &kind, FFTW_ESTIMATE);
    }
    if (plan == nullptr) continue;
    fftw_execute(plan);
    fftw_destroy_plan(plan);
  }
  return a;
}

struct Config {
  Axes axes;
  Precision precision = Precision::double_precision;
  std::size_t batch = 1;
  bool two_d = false;
  std::array<int, 2> grid{0, 0};
  a2afft::Scaling scaling = a2afft::Scaling::none;
};

std::string name_of(const Config& c, const Index& n, bool in_place, bool natural) {
  const std::vector<AxisKind> axes(c.axes.begin() + (c.two_d ? 1 : 0), c.axes.end());
  return std::string(c.two_d ? "2D " : "3D ") + a2afft::to_string(axes) +
         (c.precision == Precision::single_precision ? " float" : " double") + " batch " +
         std::to_string(c.batch) + " " + std::to_string(n[0]) + "x" + std::to_string(n[1]) + "x" +
         std::to_string(n[2]) + " grid " + std::to_string(c.grid[0]) + "x" +
         std::to_string(c.grid[1]) + (in_place ? " in place" : " out of place") +
         (natural ? " natural" : " transposed");
}

Plan make_plan(const Config& c, const Index& n, bool natural, const std::string& exchange) {
  Plan plan;
  const std::vector<AxisKind> axes(c.axes.begin() + (c.two_d ? 1 : 0), c.axes.end());
  if (c.two_d) {
    a2afft::Fft2dOptions options;
    options.axes = axes;
    options.precision = c.precision;
    options.batch = c.batch;
    options.rigor = a2afft::Rigor::estimate;
    options.scaling = c.scaling;
    options.output = natural ? a2afft::Fft2dOutput::natural : a2afft::Fft2dOutput::transposed;
    options.exchange = exchange;
    plan.two = std::make_unique<a2afft::Fft2d>(MPI_COMM_WORLD, std::array{n[1], n[2]}, options);
  } else {
    a2afft::Fft3dOptions options;
    options.axes = axes;
    options.precision = c.precision;
    options.batch = c.batch;
    options.rigor = a2afft::Rigor::estimate;
    options.scaling = c.scaling;
    options.grid = c.grid;
    options.output = natural ? a2afft::Fft3dOutput::natural : a2afft::Fft3dOutput::transposed;
    options.exchange = exchange;
    plan.three = std::make_unique<a2afft::Fft3d>(MPI_COMM_WORLD, n, options);
  }
  return plan;
}

// Arrays of scalars of the plan's types: Real, or complex<Real> as two Reals.
template <typename Real>
struct Run {
  Plan& plan;
  const Config& c;
  Index n;
  bool real_in;   // forward's input (backward's output) is real: r2c and r2r
  bool real_out;  // forward's output is real: r2r

  std::vector<Real> array() const {
    const std::size_t scalars = plan.fft().in_place_elements() * (real_out ? 1 : 2);
    return std::vector<Real>(std::max<std::size_t>(scalars, 2));
  }
  // Writes value v of field f at local point `local` of an array of real or complex scalars.
  void put(std::vector<Real>& a, bool real, std::size_t i, std::complex<double> v) const {
    if (real) {
      a[i] = static_cast<Real>(v.real());
    } else {
      a[2 * i] = static_cast<Real>(v.real());
      a[2 * i + 1] = static_cast<Real>(v.imag());
    }
  }
  std::complex<double> get(const std::vector<Real>& a, bool real, std::size_t i) const {
    return real ? std::complex<double>(a[i], 0) : std::complex<double>(a[2 * i], a[2 * i + 1]);
  }
  template <typename Value>
  std::vector<Real> fill(const a2afft::Box3& box, bool real, Value value) const {
    std::vector<Real> a = array();
    for_each_point(box, [&](const Index& at) {
      for (std::size_t f = 0; f < c.batch; ++f)
        put(a, real, box.local_index(at) * c.batch + f, value(at, f));
    });
    return a;
  }
  template <typename Expected>
  double error(const std::vector<Real>& got, bool real, const a2afft::Box3& box,
               Expected expected) const {
    double worst = 0;
    double scale = 0;
    for_each_point(box, [&](const Index& at) {
      for (std::size_t f = 0; f < c.batch; ++f) {
        const std::complex<double> want = expected(at, f);
        worst = std::max(worst, std::abs(get(got, real, box.local_index(at) * c.batch + f) - want));
        scale = std::max(scale, std::abs(want));
      }
    });
    return max_over(worst) / std::max(max_over(scale), 1e-300);
  }
  // The typed calls the plan's kind takes.
  void transform(bool forward, const std::vector<Real>& in, std::vector<Real>& out) {
    using C = std::complex<Real>;
    const bool in_real = forward ? real_in : real_out;
    const bool out_real = forward ? real_out : real_in;
    void* to = out.data();
    const void* from = in.data();
    a2afft::DistributedFft& fft = plan.fft();
    if (in_real && out_real) {
      forward ? fft.forward(static_cast<const Real*>(from), static_cast<Real*>(to))
              : fft.backward(static_cast<const Real*>(from), static_cast<Real*>(to));
    } else if (in_real) {
      fft.forward(static_cast<const Real*>(from), static_cast<C*>(to));
    } else if (out_real) {
      fft.backward(static_cast<const C*>(from), static_cast<Real*>(to));
    } else {
      forward ? fft.forward(static_cast<const C*>(from), static_cast<C*>(to))
              : fft.backward(static_cast<const C*>(from), static_cast<C*>(to));
    }
  }
};

template <typename Real>
double tolerance(const Index& n) {
  return 40.0 * std::numeric_limits<Real>::epsilon() * std::log2(double(points(n)) + 1);
}

// Forward and backward of one configuration against serial FFTW; returns the out-of-place
// forward output's bytes for the bit-identity check.
template <typename Real>
std::vector<unsigned char> check(const Config& c, const Index& n, bool in_place_too, bool natural,
                                 const std::string& exchange) {
  Plan plan = make_plan(c, n, natural, exchange);
  const Kind kind = kind_of(c.axes);
  EXPECT_EQ(sum_over(plan.fft().kind() == kind ? 0 : 1), 0) << name_of(c, n, false, natural);
  Run<Real> run{plan, c, n, kind != Kind::c2c, kind == Kind::r2r};
  std::vector<std::vector<std::complex<double>>> reference;
  for (std::size_t f = 0; f < c.batch; ++f)
    reference.push_back(serial_spectrum(n, c.axes, f));
  const Index m = spectrum_shape(n, c.axes);
  const double tol = tolerance<Real>(n);
  const double full = c.scaling == a2afft::Scaling::full ? 1.0 : logical_points(n, c.axes);
  std::vector<unsigned char> bits(plan.fft().output_bytes());
  for (const bool in_place : {false, true}) {
    if (in_place && !in_place_too) break;
    const std::string what = name_of(c, n, in_place, natural) + " on " + plan.fft().describe();
    std::vector<Real> in = run.fill(
        plan.input_box(), run.real_in,
        [&](const Index& at, std::size_t f) { return input_value(c.axes, row_major(at, n), f); });
    std::vector<Real> out = run.array();
    run.transform(true, in, in_place ? in : out);
    if (in_place) out = in;
    if (!in_place) std::memcpy(bits.data(), out.data(), bits.size());
    EXPECT_LT(
        run.error(out, run.real_out, plan.output_box(),
                  [&](const Index& at, std::size_t f) { return reference[f][row_major(at, m)]; }),
        tol)
        << what << ": forward";
    std::vector<Real> spectrum =
        run.fill(plan.output_box(), run.real_out,
                 [&](const Index& at, std::size_t f) { return reference[f][row_major(at, m)]; });
    std::vector<Real> back = run.array();
    run.transform(false, spectrum, in_place ? spectrum : back);
    if (in_place) back = spectrum;
    EXPECT_LT(run.error(back, run.real_in, plan.input_box(),
                        [&](const Index& at, std::size_t f) {
                          return full * input_value(c.axes, row_major(at, n), f);
                        }),
              tol)
        << what << ": backward";
  }
  return bits;
}

std::vector<unsigned char> check_any(const Config& c, const Index& n, bool in_place_too,
                                     bool natural, const std::string& exchange = "mpi") {
  return c.precision == Precision::single_precision
             ? check<float>(c, n, in_place_too, natural, exchange)
             : check<double>(c, n, in_place_too, natural, exchange);
}

constexpr AxisKind dft = AxisKind::dft, r2c = AxisKind::r2c, none = AxisKind::none;
constexpr AxisKind dct1 = AxisKind::dct1, dct2 = AxisKind::dct2, dct3 = AxisKind::dct3,
                   dct4 = AxisKind::dct4, dst1 = AxisKind::dst1, dst2 = AxisKind::dst2,
                   dst3 = AxisKind::dst3, dst4 = AxisKind::dst4;

// Every r2r kind at least once, mixed with dft, r2c and none, on real and complex data.
const Axes kAxes[] = {
    {dct2, dft, r2c},    // a channel flow: cosines across the walls, r2c along the contiguous axis
    {dft, dst1, dft},    // complex data, a sine transform in the middle
    {dct1, dst2, dct3},  // real data throughout
    {dct4, dst3, dst4},  // the other kinds
    {none, dft, r2c},    // an axis left alone
    {dst1, dct2, none},  // real data, the contiguous axis left alone
};
const Index kShapes[] = {{6, 5, 7}, {5, 4, 6}};

TEST(Fft3dAxes, every_r2r_kind_mixed_with_dft_r2c_and_none_matches_serial_fftw) {
  for (const Axes& axes : kAxes) {
    for (const Index& n : kShapes) {
      for (const Precision precision : {Precision::double_precision, Precision::single_precision}) {
        const Config c{axes, precision, n == kShapes[0] ? std::size_t{1} : std::size_t{3}};
        check_any(c, n, true, false);
        check_any(c, n, false, true);
      }
    }
  }
}

// Slabs (p1 = 1: stage 0 is one 2D plane of y and z, whose axes may be of different families)
// and a 1 x P grid (no column transpose); full scaling undoes FFTW's logical size.
TEST(Fft3dAxes, slabs_and_rows_and_full_scaling) {
  const int ranks = size_of();
  for (const Axes& axes : kAxes) {
    for (const std::array<int, 2> grid :
         {std::array<int, 2>{ranks, 1}, std::array<int, 2>{1, ranks}}) {
      Config c{axes};
      c.grid = grid;
      c.scaling = a2afft::Scaling::full;
      check_any(c, {6, 5, 7}, true, false);
    }
  }
}

// The exchanges move bytes only: the same bits from every backend.
TEST(Fft3dAxes, every_exchange_gives_the_same_bits) {
  for (const Axes& axes : {kAxes[0], kAxes[2]}) {
    const Config c{axes};
    const std::vector<unsigned char> reference = check_any(c, {6, 5, 7}, false, false, "mpi");
    for (const char* exchange : {"pairwise", "tra", "onmpml"}) {
      EXPECT_EQ(sum_over(check_any(c, {6, 5, 7}, false, false, exchange) == reference ? 0 : 1), 0)
          << name_of(c, {6, 5, 7}, false, false) << ": " << exchange << " gives other bits";
    }
  }
}

TEST(Fft2dAxes, two_axes_against_serial_fftw) {
  for (const Axes& axes : {Axes{none, dct2, r2c}, Axes{none, dst1, dft}, Axes{none, dct3, dst4},
                           Axes{none, none, r2c}, Axes{none, dct1, none}}) {
    for (const Precision precision : {Precision::double_precision, Precision::single_precision}) {
      Config c{axes, precision, 2};
      c.two_d = true;
      check_any(c, {1, 5, 7}, true, false);
      check_any(c, {1, 6, 4}, false, true);
    }
  }
}

// Bad axes get one clear error on every rank, naming the value and what is valid.
TEST(Fft3dAxes, bad_axes_are_clear_errors) {
  const auto error_of = [](std::vector<AxisKind> axes, Kind kind, Index n) -> std::string {
    a2afft::Fft3dOptions options;
    options.axes = std::move(axes);
    options.kind = kind;
    options.rigor = a2afft::Rigor::estimate;
    try {
      a2afft::Fft3d fft(MPI_COMM_WORLD, n, options);
    } catch (const a2afft::UsageError& error) {
      return error.what();
    }
    return "accepted";
  };
  const auto expect = [&](const std::string& got, const std::string& part) {
    EXPECT_TRUE(same_on_every_rank(got)) << got;
    EXPECT_NE(got.find(part), std::string::npos) << got;
  };
  expect(error_of({dft, r2c, dft}, Kind::c2c, {4, 4, 4}),
         "only the last (contiguous) axis can be r2c");
  expect(error_of({r2c, dft, r2c}, Kind::c2c, {4, 4, 4}),
         "only the last (contiguous) axis can be r2c");
  expect(error_of({dft, dft}, Kind::c2c, {4, 4, 4}), "name 2 axes; expected 3");
  expect(error_of({none, none, none}, Kind::c2c, {4, 4, 4}), "transform no axis");
  expect(error_of({dct1, dft, dft}, Kind::c2c, {1, 4, 4}),
         "dct1 (REDFT00) needs at least 2 points");
  expect(error_of({dct2, dct2, dct2}, Kind::r2c, {4, 4, 4}), "kind=r2c does not fit");
  expect(error_of({}, Kind::r2r, {4, 4, 4}), "kind=r2r is not valid without axes");
  try {
    a2afft::parse_axis_kinds("dft,dct5,r2c");
    ADD_FAILURE() << "dct5 was read";
  } catch (const a2afft::UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("transform 'dct5'"), std::string::npos);
  }
  EXPECT_EQ(a2afft::parse_axis_kinds("redft10,rodft00,skip"),
            (std::vector<AxisKind>{dct2, dst1, none}));
  // An r2r plan takes real arrays both ways, and says so.
  a2afft::Fft3dOptions options;
  options.axes = {dct2, dct2, dct2};
  options.rigor = a2afft::Rigor::estimate;
  a2afft::Fft3d fft(MPI_COMM_WORLD, {4, 4, 4}, options);
  EXPECT_EQ(fft.transform().to_string(), "dct2,dct2,dct2 double");
  EXPECT_EQ(fft.output_bytes(), fft.output_elements() * sizeof(double));
  std::vector<a2afft::Complex> array(fft.in_place_elements());
  try {
    fft.forward(array.data(), array.data());
    ADD_FAILURE() << "a c2c call on an r2r plan was accepted";
  } catch (const a2afft::UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("call Fft3d::forward(const double*, double*)"),
              std::string::npos)
        << error.what();
  }
}

}  // namespace
