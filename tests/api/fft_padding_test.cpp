// Padded (dealiased) transforms (PlanOptions::padding) of the public Fft3d and Fft2d against a
// serial reference every rank computes for itself on the whole (small) array, one axis at a
// time as mpi4py-fft does: backward pads an axis's modes with zeros (the Nyquist mode of an
// even size split in halves between +n/2 and -n/2), then runs serial FFTW's inverse of the
// padded length along it; forward runs FFTW along an axis, then keeps its modes (the two halves
// added back). The r2c axis goes last backward and first forward; its Nyquist mode is real
// there. The padding and truncation here are written from that definition, not from the
// library's. c2c and r2c, odd and even sizes, partial padding, double and float, batches, in
// place and out of place, slabs, pencils and a 1 x P grid; the bits are the same whichever
// exchange runs, and the bytes exchanged fall as the issue asks. Every check is reduced over
// the ranks.

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

using a2afft::Kind;
using a2afft::Precision;
using Complex = std::complex<double>;
using Padding = std::array<double, 3>;

// A global array of complex numbers, row-major over `shape`.
struct Global {
  Index shape;
  std::vector<Complex> values;
  Complex& at(const Index& i) { return values[row_major(i, shape)]; }
  Complex at(const Index& i) const { return values[row_major(i, shape)]; }
};

// Where mode k of an axis of n modes sits among m padded points, or -1 for the Nyquist mode of
// an even n (which goes to both +n/2 and m - n/2, halved).
long padded_position(std::size_t k, std::size_t n, std::size_t m) {
  if (n % 2 == 0 && k == n / 2 && m > n) return -1;
  const long frequency = 2 * k < n ? long(k) : long(k) - long(n);
  return (frequency + long(m)) % long(m);
}

// Applies `line(in, out)` to every line along `axis`, from `from` into an array of `to_shape`.
template <typename Line>
Global along(const Global& from, std::size_t axis, const Index& to_shape, Line line) {
  Global to{to_shape, std::vector<Complex>(points(to_shape))};
  Index others = from.shape;
  others[axis] = 1;
  for_each_point({{0, 0, 0}, others, {0, 1, 2}}, [&](const Index& start) {
    std::vector<Complex> in(from.shape[axis]), out(to_shape[axis]);
    Index i = start;
    for (std::size_t k = 0; k < in.size(); ++k, ++i[axis])
      in[k] = from.at(i);
    line(in, out);
    i = start;
    for (std::size_t k = 0; k < out.size(); ++k, ++i[axis])
      to.at(i) = out[k];
  });
  return to;
}

// One complex DFT of the line, in place, by serial FFTW.
void dft(std::vector<Complex>& line, int sign) {
  auto* data = reinterpret_cast<fftw_complex*>(line.data());
  fftw_plan plan = fftw_plan_dft_1d(int(line.size()), data, data, sign, FFTW_ESTIMATE);
  fftw_execute(plan);
  fftw_destroy_plan(plan);
}

// The padded transforms of the reference, axis by axis.
struct Reference {
  Index modes;   // n, the plan's shape (reals along z for r2c)
  Index padded;  // m
  bool r2c;

  Index spectrum_shape() const { return r2c ? Index{modes[0], modes[1], modes[2] / 2 + 1} : modes; }

  // Modes -> padded grid: pad and invert x, then y, then z (r2c: c2r last).
  Global backward(Global a) const {
    for (std::size_t axis = 0; axis < 3; ++axis) {
      Index shape = a.shape;
      const std::size_t n = modes[axis], m = padded[axis];
      if (axis == 2 && r2c) {
        shape[2] = m;  // the real line, held as complex numbers with zero imaginary parts
        a = along(a, 2, shape, [&](const std::vector<Complex>& in, std::vector<Complex>& out) {
          std::vector<Complex> half(m / 2 + 1);
          for (std::size_t k = 0; k < in.size(); ++k)
            half[k] = n % 2 == 0 && k == n / 2 && m > n ? Complex(in[k].real() / 2, 0) : in[k];
          std::vector<double> real(m);
          fftw_plan plan = fftw_plan_dft_c2r_1d(
              int(m), reinterpret_cast<fftw_complex*>(half.data()), real.data(), FFTW_ESTIMATE);
          fftw_execute(plan);
          fftw_destroy_plan(plan);
          for (std::size_t k = 0; k < m; ++k)
            out[k] = real[k];
        });
        continue;
      }
      shape[axis] = m;
      a = along(a, axis, shape, [&](const std::vector<Complex>& in, std::vector<Complex>& out) {
        for (std::size_t k = 0; k < n; ++k) {
          const long at = padded_position(k, n, m);
          if (at >= 0) {
            out[std::size_t(at)] = in[k];
          } else {
            out[n / 2] += in[k] / 2.0;
            out[m - n / 2] += in[k] / 2.0;
          }
        }
        dft(out, FFTW_BACKWARD);
      });
    }
    return a;
  }

  // Padded grid -> modes: transform and truncate z (r2c first), then y, then x.
  Global forward(Global a) const {
    for (std::size_t axis = 3; axis-- > 0;) {
      Index shape = a.shape;
      const std::size_t n = modes[axis], m = padded[axis];
      if (axis == 2 && r2c) {
        shape[2] = n / 2 + 1;
        a = along(a, 2, shape, [&](const std::vector<Complex>& in, std::vector<Complex>& out) {
          std::vector<double> real(m);
          for (std::size_t k = 0; k < m; ++k)
            real[k] = in[k].real();
          std::vector<Complex> half(m / 2 + 1);
          fftw_plan plan = fftw_plan_dft_r2c_1d(
              int(m), real.data(), reinterpret_cast<fftw_complex*>(half.data()), FFTW_ESTIMATE);
          fftw_execute(plan);
          fftw_destroy_plan(plan);
          for (std::size_t k = 0; k < out.size(); ++k)
            out[k] = n % 2 == 0 && k == n / 2 && m > n ? Complex(2 * half[k].real(), 0) : half[k];
        });
        continue;
      }
      shape[axis] = n;
      a = along(a, axis, shape, [&](const std::vector<Complex>& in, std::vector<Complex>& out) {
        std::vector<Complex> line = in;
        dft(line, FFTW_FORWARD);
        for (std::size_t k = 0; k < n; ++k) {
          const long at = padded_position(k, n, m);
          out[k] = at >= 0 ? line[std::size_t(at)] : line[n / 2] + line[m - n / 2];
        }
      });
    }
    return a;
  }
};

struct Config {
  Index n;
  Padding padding;
  bool r2c = false;
  Precision precision = Precision::double_precision;
  std::size_t batch = 1;
  std::array<int, 2> grid{0, 0};
  bool two_d = false;  // a 2D plan of n1 x n2 (n0 = 1, padding[0] = 1)
};

std::string name_of(const Config& c) {
  char text[200];
  std::snprintf(text, sizeof text, "%s %s %zux%zux%zu padded %gx%gx%g %s batch %zu grid %dx%d",
                c.two_d ? "2D" : "3D", c.r2c ? "r2c" : "c2c", c.n[0], c.n[1], c.n[2], c.padding[0],
                c.padding[1], c.padding[2],
                c.precision == Precision::single_precision ? "float" : "double", c.batch, c.grid[0],
                c.grid[1]);
  return text;
}

Plan make_plan(const Config& c, const std::string& exchange,
               a2afft::Scaling scaling = a2afft::Scaling::none) {
  Plan plan;
  a2afft::PlanOptions shared;
  shared.kind = c.r2c ? Kind::r2c : Kind::c2c;
  shared.precision = c.precision;
  shared.batch = c.batch;
  shared.rigor = a2afft::Rigor::estimate;
  shared.scaling = scaling;
  shared.exchange = exchange;
  if (c.two_d) {
    a2afft::Fft2dOptions options;
    static_cast<a2afft::PlanOptions&>(options) = shared;
    options.padding = {c.padding[1], c.padding[2]};
    plan.two = std::make_unique<a2afft::Fft2d>(MPI_COMM_WORLD, std::array{c.n[1], c.n[2]}, options);
  } else {
    a2afft::Fft3dOptions options;
    static_cast<a2afft::PlanOptions&>(options) = shared;
    options.padding = {c.padding.begin(), c.padding.end()};
    options.grid = c.grid;
    plan.three = std::make_unique<a2afft::Fft3d>(MPI_COMM_WORLD, c.n, options);
  }
  return plan;
}

// The local array of a box, every field interleaved, as the plan's scalars (Real, or complex
// as two Reals), and back.
template <typename Real>
std::vector<Real> local(const std::vector<Global>& fields, const a2afft::Box3& box, bool real,
                        std::size_t scalars) {
  std::vector<Real> a(std::max<std::size_t>(scalars, 2));
  const std::size_t batch = fields.size();
  for_each_point(box, [&](const Index& at) {
    for (std::size_t f = 0; f < batch; ++f) {
      const std::size_t i = box.local_index(at) * batch + f;
      const Complex v = fields[f].at(at);
      if (real) {
        a[i] = Real(v.real());
      } else {
        a[2 * i] = Real(v.real());
        a[2 * i + 1] = Real(v.imag());
      }
    }
  });
  return a;
}

// The largest difference from `want` over the box, relative to want's largest value.
template <typename Real>
double error(const std::vector<Real>& got, const std::vector<Global>& want, const a2afft::Box3& box,
             bool real) {
  double worst = 0, scale = 0;
  const std::size_t batch = want.size();
  for_each_point(box, [&](const Index& at) {
    for (std::size_t f = 0; f < batch; ++f) {
      const std::size_t i = box.local_index(at) * batch + f;
      const Complex value = real ? Complex(got[i], 0) : Complex(got[2 * i], got[2 * i + 1]);
      worst = std::max(worst, std::abs(value - want[f].at(at)));
      scale = std::max(scale, std::abs(want[f].at(at)));
    }
  });
  return max_over(worst) / std::max(max_over(scale), 1e-300);
}

// Fields of `shape` from the shared signal: real parts only for a real array.
std::vector<Global> fields_of(const Index& shape, std::size_t batch, bool real) {
  std::vector<Global> fields;
  for (std::size_t f = 0; f < batch; ++f) {
    Global g{shape, std::vector<Complex>(points(shape))};
    for (std::size_t i = 0; i < g.values.size(); ++i)
      g.values[i] = real ? Complex(signal(i, f).real(), 0) : signal(i, f);
    fields.push_back(g);
  }
  return fields;
}

template <typename Real>
double tolerance(const Index& n) {
  return 60.0 * std::numeric_limits<Real>::epsilon() * std::log2(double(points(n)) + 1);
}

// Forward of a padded-grid signal and backward of a spectrum, in place and out of place,
// against the reference. Returns the out-of-place forward output's bytes.
template <typename Real>
std::vector<unsigned char> check(const Config& c, const std::string& exchange) {
  Plan plan = make_plan(c, exchange);
  a2afft::DistributedFft& fft = plan.fft();
  const Index padded = plan.padded_shape();
  const Reference reference{c.n, padded, c.r2c};
  const std::string what = name_of(c) + " on " + fft.describe();
  Index want_padded;
  for (std::size_t d = 0; d < 3; ++d)
    want_padded[d] = a2afft::padded_size(c.n[d], c.padding[d]);
  EXPECT_EQ(sum_over(padded == want_padded ? 0 : 1), 0) << what << ": padded_shape()";

  const std::vector<Global> grid = fields_of(padded, c.batch, c.r2c);
  std::vector<Global> spectrum_of_grid, grid_of_spectrum;
  for (const Global& g : grid)
    spectrum_of_grid.push_back(reference.forward(g));
  const std::vector<Global> spectrum = fields_of(reference.spectrum_shape(), c.batch, false);
  for (const Global& s : spectrum)
    grid_of_spectrum.push_back(reference.backward(s));

  const std::size_t scalars = fft.in_place_elements() * 2;
  std::vector<unsigned char> bits(fft.output_bytes());
  const double tol = tolerance<Real>(padded);
  for (const bool in_place : {false, true}) {
    const std::string how = what + (in_place ? " in place" : " out of place");
    std::vector<Real> in = local<Real>(grid, plan.input_box(), c.r2c, scalars);
    std::vector<Real> out(scalars);
    std::vector<Real>& forward_out = in_place ? in : out;
    if (c.r2c) {
      fft.forward(in.data(), reinterpret_cast<std::complex<Real>*>(forward_out.data()));
    } else {
      fft.forward(reinterpret_cast<const std::complex<Real>*>(in.data()),
                  reinterpret_cast<std::complex<Real>*>(forward_out.data()));
    }
    if (!in_place) std::memcpy(bits.data(), out.data(), bits.size());
    EXPECT_LT(error(forward_out, spectrum_of_grid, plan.output_box(), false), tol)
        << how << ": forward";

    std::vector<Real> modes = local<Real>(spectrum, plan.output_box(), false, scalars);
    std::vector<Real> back(scalars);
    std::vector<Real>& backward_out = in_place ? modes : back;
    const auto* from = reinterpret_cast<const std::complex<Real>*>(modes.data());
    if (c.r2c) {
      fft.backward(from, backward_out.data());
    } else {
      fft.backward(from, reinterpret_cast<std::complex<Real>*>(backward_out.data()));
    }
    EXPECT_LT(error(backward_out, grid_of_spectrum, plan.input_box(), c.r2c), tol)
        << how << ": backward";
  }
  return bits;
}

std::vector<unsigned char> check_any(const Config& c, const std::string& exchange = "mpi") {
  return c.precision == Precision::single_precision ? check<float>(c, exchange)
                                                    : check<double>(c, exchange);
}

// Odd and even sizes (even ones have Nyquist modes to split), the 3/2 rule and 2x, on every
// axis or some.
const Config kConfigs[] = {
    {{6, 5, 7}, {1.5, 1.5, 1.5}},
    {{8, 6, 10}, {1.5, 1.5, 1.5}},
    {{6, 4, 8}, {1, 2, 1.5}},
    {{5, 6, 4}, {2, 1, 1}},
};

TEST(Fft3dPadding, c2c_and_r2c_match_zero_padding_and_truncation_axis_by_axis) {
  for (Config c : kConfigs) {
    for (const bool r2c : {false, true}) {
      for (const Precision precision : {Precision::double_precision, Precision::single_precision}) {
        c.r2c = r2c;
        c.precision = precision;
        c.batch = precision == Precision::single_precision ? 3 : 1;
        check_any(c);
      }
    }
  }
}

// Slabs (p1 = 1: stage 0 transforms y and z in one plan, so the r2c axis's Nyquist mode is
// folded with its conjugate across y) and a 1 x P grid (the x-major last stage pads its leading
// axis); a 2D plan.
TEST(Fft3dPadding, slabs_rows_and_two_d) {
  const int ranks = size_of();
  for (Config c : {kConfigs[0], kConfigs[1]}) {
    for (const bool r2c : {false, true}) {
      c.r2c = r2c;
      for (const std::array<int, 2> grid :
           {std::array<int, 2>{ranks, 1}, std::array<int, 2>{1, ranks}}) {
        c.grid = grid;
        check_any(c);
      }
      Config two = c;
      two.two_d = true;
      two.n[0] = 1;
      two.padding[0] = 1;
      two.grid = {0, 0};
      check_any(two);
    }
  }
}

// With Scaling::full the padded grid's points are divided out: forward(backward(modes)) gives
// the modes back (a spectrum whose Nyquist modes are consistent, as a real array's are).
TEST(Fft3dPadding, full_scaling_makes_forward_undo_backward) {
  Config c = kConfigs[1];
  c.r2c = true;
  Plan plan = make_plan(c, "mpi", a2afft::Scaling::full);
  a2afft::DistributedFft& fft = plan.fft();
  const std::vector<Global> grid = fields_of(c.n, 1, true);
  const Reference unpadded{c.n, c.n, true};
  const std::vector<Global> modes{unpadded.forward(grid[0])};  // a real array's spectrum
  const std::size_t scalars = fft.in_place_elements() * 2;
  std::vector<double> a = local<double>(modes, plan.output_box(), false, scalars);
  std::vector<double> physical(scalars);
  fft.backward(reinterpret_cast<const a2afft::Complex*>(a.data()), physical.data());
  std::vector<double> again(scalars);
  fft.forward(physical.data(), reinterpret_cast<a2afft::Complex*>(again.data()));
  EXPECT_LT(error(again, modes, plan.output_box(), false), tolerance<double>(c.n));
}

// The exchanges move bytes only: the same bits from every backend.
TEST(Fft3dPadding, every_exchange_gives_the_same_bits) {
  for (const bool r2c : {false, true}) {
    Config c = kConfigs[1];
    c.r2c = r2c;
    const std::vector<unsigned char> reference = check_any(c, "mpi");
    for (const char* exchange : {"pairwise", "tra", "onmpml"}) {
      EXPECT_EQ(sum_over(check_any(c, exchange) == reference ? 0 : 1), 0)
          << name_of(c) << ": " << exchange << " gives other bits";
    }
  }
}

// No zero is exchanged: forward + backward of the 3/2 rule send at most 0.6x the bytes of the
// same transform of the padded grid (pencils: (1.5 + 2.25) / (2 x 3.375) = 0.56; slabs 0.44).
TEST(Fft3dPadding, exchanges_move_at_most_six_tenths_of_the_padded_grid) {
  for (const bool r2c : {false, true}) {
    a2afft::Fft3dOptions options;
    options.kind = r2c ? Kind::r2c : Kind::c2c;
    options.rigor = a2afft::Rigor::estimate;
    options.exchange = "mpi";
    a2afft::Fft3dOptions padded_options = options;
    padded_options.padding = {1.5, 1.5, 1.5};
    const a2afft::Fft3d padded(MPI_COMM_WORLD, {32, 32, 32}, padded_options);
    const a2afft::Fft3d naive(MPI_COMM_WORLD, {48, 48, 48}, options);
    const auto both = [](const a2afft::Fft3d& fft) {
      return double(fft.traffic(a2afft::Direction::forward).exchanged_bytes +
                    fft.traffic(a2afft::Direction::backward).exchanged_bytes);
    };
    double sums[2] = {both(padded), both(naive)};
    MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (size_of() == 1) {  // one rank exchanges nothing
      EXPECT_EQ(sums[0] + sums[1], 0);
      continue;
    }
    EXPECT_GT(sums[0], 0);
    EXPECT_LE(sums[0], 0.6 * sums[1])
        << (r2c ? "r2c" : "c2c") << ": padded " << sums[0] << " bytes against " << sums[1];
  }
}

// Bad padding gets one clear error on every rank, naming the value and what is valid.
TEST(Fft3dPadding, bad_padding_is_a_clear_error) {
  const auto error_of = [](const a2afft::Fft3dOptions& options) -> std::string {
    try {
      a2afft::Fft3d fft(MPI_COMM_WORLD, {6, 6, 6}, options);
    } catch (const a2afft::UsageError& error) {
      return error.what();
    }
    return "no error";
  };
  a2afft::Fft3dOptions options;
  options.rigor = a2afft::Rigor::estimate;
  const auto with = [&](std::vector<double> padding) {
    a2afft::Fft3dOptions o = options;
    o.padding = std::move(padding);
    return o;
  };
  const struct {
    a2afft::Fft3dOptions options;
    const char* says;
  } cases[] = {
      {with({1.5, 0.5, 1}),
       "padding 1.5,0.5,1 is not valid on axis 1; every factor must be a "
       "number >= 1"},
      {with({1.5, 1.5}), "padding 1.5,1.5 names 2 axes; expected 3"},
      {with({1, std::nan(""), 1}), "is not valid on axis 1"},
      {[&] {
         a2afft::Fft3dOptions o = with({1.5, 1, 1});
         o.axes = {a2afft::AxisKind::dct2, a2afft::AxisKind::dft, a2afft::AxisKind::dft};
         return o;
       }(),
       "pads axis 0, which is dct2; only dft and r2c axes are padded"},
      {[&] {
         a2afft::Fft3dOptions o = with({1.5, 1.5, 1.5});
         o.output = a2afft::Fft3dOutput::natural;
         return o;
       }(),
       "needs the transposed output"},
      {[&] {
         a2afft::Fft3dOptions o = with({1.5, 1.5, 1.5});
         o.input_box = a2afft::Box3{{0, 0, 0}, {6, 6, 6}};
         return o;
       }(),
       "input_box and output_box cannot be set with it"},
  };
  for (const auto& c : cases) {
    const std::string said = error_of(c.options);
    EXPECT_NE(said.find(c.says), std::string::npos) << said;
    EXPECT_TRUE(same_on_every_rank(said)) << said;
  }
  a2afft::Fft1dOptions one_d;
  one_d.padding = {1.5};
  try {
    a2afft::Fft1d fft(MPI_COMM_WORLD, 64, one_d);
    ADD_FAILURE() << "Fft1d took padding";
  } catch (const a2afft::UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("only 3D and 2D plans are padded"), std::string::npos)
        << error.what();
  }
}

}  // namespace
