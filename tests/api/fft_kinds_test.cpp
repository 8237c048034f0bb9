// Every transform kind (c2c, r2c) x precision (double, float) x batch (1, 3 fields) of the public
// Fft3d, through the shared liba2afft, against serial FFTW of the whole array in double (every
// rank computes it for itself: the arrays are small): forward and backward on their own, in
// place and out of place, odd sizes (an odd last dimension for r2c), every output layout; and the
// bits of the output the same whichever exchange runs the transposes. Tolerances scale with the
// precision's epsilon. Every check is reduced over the ranks first (collective.hpp).
// Fft1d (c2c only) likewise: double and float, batch 1 and 3, natural and scrambled output,
// in place and out of place, against fftw_plan_dft_1d in double.

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

// The spectrum's shape: n2/2+1 points along dimension 2 for r2c.
Index spectrum_shape(const Index& n, Kind kind) {
  return kind == Kind::r2c ? Index{n[0], n[1], n[2] / 2 + 1} : n;
}

// Serial FFTW (double) of field f of signal() over `n`: the forward spectrum, row-major over
// spectrum_shape().
std::vector<std::complex<double>> serial_spectrum(const Index& n, Kind kind, std::size_t f) {
  const Index m = spectrum_shape(n, kind);
  std::vector<std::complex<double>> spectrum(points(m));
  auto* out = reinterpret_cast<fftw_complex*>(spectrum.data());
  if (kind == Kind::c2c) {
    for (std::size_t g = 0; g < points(n); ++g)
      spectrum[g] = signal(g, f);
    fftw_plan plan =
        fftw_plan_dft_3d(int(n[0]), int(n[1]), int(n[2]), out, out, FFTW_FORWARD, FFTW_ESTIMATE);
    fftw_execute(plan);
    fftw_destroy_plan(plan);
  } else {
    std::vector<double> real(points(n));
    for (std::size_t g = 0; g < points(n); ++g)
      real[g] = signal(g, f).real();
    fftw_plan plan =
        fftw_plan_dft_r2c_3d(int(n[0]), int(n[1]), int(n[2]), real.data(), out, FFTW_ESTIMATE);
    fftw_execute(plan);
    fftw_destroy_plan(plan);
  }
  return spectrum;
}

// An Fft2d seen as the Fft3d of a 1 x n0 x n1 array, so the checks below serve both.
struct Fft2dAs3d {
  a2afft::Fft2d fft;
  static a2afft::Box3 box3(const a2afft::Box2& box) {
    a2afft::Box3 three;
    three.lower = {0, box.lower[0], box.lower[1]};
    three.size = {1, box.size[0], box.size[1]};
    three.order = {0, box.order[0] + 1, box.order[1] + 1};
    return three;
  }
  a2afft::Box3 input_box() const { return box3(fft.input_box()); }
  a2afft::Box3 output_box() const { return box3(fft.output_box()); }
  std::size_t in_place_elements() const { return fft.in_place_elements(); }
  std::size_t output_elements() const { return fft.output_elements(); }
  std::string describe() const { return fft.describe(); }
  template <typename In, typename Out>
  void forward(const In* in, Out* out) {
    fft.forward(in, out);
  }
  template <typename In, typename Out>
  void backward(const In* in, Out* out) {
    fft.backward(in, out);
  }
};

// One configuration, run for one Real: its plan, arrays and checks.
template <typename Real, typename Plan>
struct Run {
  using Complex = std::complex<Real>;
  // The input scalar: Real for r2c, Complex for c2c; both stored in a Complex array (an
  // in-place array holds in_place_elements() complex numbers).
  Plan& fft;
  Index n;
  Kind kind;
  std::size_t batch;

  Real* real(std::vector<Complex>& array) const { return reinterpret_cast<Real*>(array.data()); }

  // The local input of every field, from signal().
  std::vector<Complex> input() const {
    std::vector<Complex> array(fft.in_place_elements());
    const a2afft::Box3 box = fft.input_box();
    for_each_point(box, [&](const Index& at) {
      for (std::size_t f = 0; f < batch; ++f) {
        const std::size_t i = box.local_index(at) * batch + f;
        const std::complex<double> v = signal(row_major(at, n), f);
        if (kind == Kind::r2c) {
          reinterpret_cast<Real*>(array.data())[i] = static_cast<Real>(v.real());
        } else {
          array[i] = Complex(static_cast<Real>(v.real()), static_cast<Real>(v.imag()));
        }
      }
    });
    return array;
  }

  // The local output of every field, from serial FFTW.
  std::vector<Complex> spectrum(
      const std::vector<std::vector<std::complex<double>>>& reference) const {
    std::vector<Complex> array(fft.in_place_elements());
    const a2afft::Box3 box = fft.output_box();
    const Index m = spectrum_shape(n, kind);
    for_each_point(box, [&](const Index& at) {
      for (std::size_t f = 0; f < batch; ++f) {
        const std::complex<double> v = reference[f][row_major(at, m)];
        array[box.local_index(at) * batch + f] =
            Complex(static_cast<Real>(v.real()), static_cast<Real>(v.imag()));
      }
    });
    return array;
  }

  // max |got - expected| / max |expected| over this rank's output (forward) or input (backward)
  // elements, max over ranks. `expected(at, f)` gives the value at global point `at`.
  template <typename Expected>
  double error(const std::vector<Complex>& got, bool real_values, const a2afft::Box3& box,
               Expected expected) const {
    double worst = 0;
    double scale = 0;
    for_each_point(box, [&](const Index& at) {
      for (std::size_t f = 0; f < batch; ++f) {
        const std::size_t i = box.local_index(at) * batch + f;
        const std::complex<double> want = expected(at, f);
        const std::complex<double> value =
            real_values ? std::complex<double>(reinterpret_cast<const Real*>(got.data())[i], 0)
                        : std::complex<double>(got[i]);
        worst = std::max(worst, std::abs(value - want));
        scale = std::max(scale, std::abs(want));
      }
    });
    return max_over(worst) / std::max(max_over(scale), 1e-300);
  }

  void forward(const std::vector<Complex>& in, std::vector<Complex>& out) {
    if (kind == Kind::r2c) {
      fft.forward(reinterpret_cast<const Real*>(in.data()), out.data());
    } else {
      fft.forward(in.data(), out.data());
    }
  }
  void backward(const std::vector<Complex>& in, std::vector<Complex>& out) {
    if (kind == Kind::r2c) {
      fft.backward(in.data(), reinterpret_cast<Real*>(out.data()));
    } else {
      fft.backward(in.data(), out.data());
    }
  }
};

// Relative error allowed: a few ulps of the precision per level of the FFT (heFFTe allows 1e-11
// for double and 5e-4 for float).
template <typename Real>
double tolerance(const Index& n) {
  return 20.0 * std::numeric_limits<Real>::epsilon() * std::log2(double(points(n)) + 1);
}

struct Config {
  Kind kind;
  Precision precision;
  std::size_t batch;
};

std::string name_of(const Config& c, const Index& n, bool in_place, a2afft::Fft3dOutput output) {
  return std::string(c.kind == Kind::r2c ? "r2c" : "c2c") +
         (c.precision == Precision::single_precision ? " float" : " double") + " batch " +
         std::to_string(c.batch) + " " + std::to_string(n[0]) + "x" + std::to_string(n[1]) + "x" +
         std::to_string(n[2]) + (in_place ? " in place" : " out of place") +
         (output == a2afft::Fft3dOutput::natural ? " natural" : " transposed");
}

// Forward and backward of one configuration against serial FFTW, out of place and then, with
// `also_in_place`, in place on the same plan (planning, not transforming, is what takes the
// time at P = 8 on two cores); returns the out-of-place forward output bytes for the
// bit-identity check.
template <typename Real, typename Plan>
std::vector<unsigned char> check_plan(Plan& fft, const Config& c, const Index& n,
                                      bool also_in_place, a2afft::Fft3dOutput output,
                                      const char* dimensions) {
  Run<Real, Plan> run{fft, n, c.kind, c.batch};
  const bool r2c = c.kind == Kind::r2c;

  std::vector<std::vector<std::complex<double>>> reference;
  for (std::size_t f = 0; f < c.batch; ++f)
    reference.push_back(serial_spectrum(n, c.kind, f));
  const Index m = spectrum_shape(n, c.kind);
  const double tol = tolerance<Real>(n);

  std::vector<unsigned char> bits(fft.output_elements() * sizeof(std::complex<Real>));
  for (const bool in_place : {false, true}) {
    if (in_place && !also_in_place) break;
    const std::string what =
        std::string(dimensions) + " " + name_of(c, n, in_place, output) + " on " + fft.describe();
    // Forward.
    std::vector<std::complex<Real>> in = run.input();
    std::vector<std::complex<Real>> out(fft.in_place_elements());
    if (in_place) {
      run.forward(in, in);
      out = in;
    } else {
      const std::vector<std::complex<Real>> kept = in;
      run.forward(in, out);
      EXPECT_EQ(sum_over(in == kept ? 0 : 1), 0) << what << ": forward changed its input";
      if (!bits.empty()) std::memcpy(bits.data(), out.data(), bits.size());
    }
    EXPECT_LT(
        run.error(out, false, fft.output_box(),
                  [&](const Index& at, std::size_t f) { return reference[f][row_major(at, m)]; }),
        tol)
        << what << ": forward";

    // Backward of the exact spectrum: N times the input.
    std::vector<std::complex<Real>> spectrum = run.spectrum(reference);
    std::vector<std::complex<Real>> back(fft.in_place_elements());
    if (in_place) {
      run.backward(spectrum, spectrum);
      back = spectrum;
    } else {
      run.backward(spectrum, back);
    }
    const double total = double(points(n));
    EXPECT_LT(run.error(back, r2c, fft.input_box(),
                        [&](const Index& at, std::size_t f) {
                          const std::complex<double> v = signal(row_major(at, n), f);
                          return total * (r2c ? std::complex<double>(v.real(), 0) : v);
                        }),
              tol)
        << what << ": backward";
  }
  return bits;
}

// The plan of a configuration: an Fft3d of `n`, or with `two_d` an Fft2d of n1 x n2 (n0 = 1).
a2afft::Fft3d make_plan(const Config& c, const Index& n, a2afft::Fft3dOutput output,
                        const std::string& exchange) {
  a2afft::Fft3dOptions options;
  options.kind = c.kind;
  options.precision = c.precision;
  options.batch = c.batch;
  options.rigor = a2afft::Rigor::estimate;
  options.output = output;
  options.row_exchange = exchange;
  options.column_exchange = exchange;
  return a2afft::Fft3d(MPI_COMM_WORLD, n, options);
}

Fft2dAs3d make_plan_2d(const Config& c, const Index& n, a2afft::Fft3dOutput output,
                       const std::string& exchange) {
  a2afft::Fft2dOptions options;
  options.kind = c.kind;
  options.precision = c.precision;
  options.batch = c.batch;
  options.rigor = a2afft::Rigor::estimate;
  options.output = output == a2afft::Fft3dOutput::natural ? a2afft::Fft2dOutput::natural
                                                          : a2afft::Fft2dOutput::transposed;
  options.exchange = exchange;
  return {a2afft::Fft2d(MPI_COMM_WORLD, {n[1], n[2]}, options)};
}

template <typename Real>
std::vector<unsigned char> check(const Config& c, const Index& n, bool also_in_place,
                                 a2afft::Fft3dOutput output, const std::string& exchange,
                                 bool two_d) {
  if (two_d) {
    Fft2dAs3d fft = make_plan_2d(c, n, output, exchange);
    return check_plan<Real>(fft, c, n, also_in_place, output, "2D");
  }
  a2afft::Fft3d fft = make_plan(c, n, output, exchange);
  return check_plan<Real>(fft, c, n, also_in_place, output, "3D");
}

using Complex = std::complex<double>;

const Config kConfigs[] = {
    {Kind::c2c, Precision::double_precision, 1}, {Kind::c2c, Precision::single_precision, 1},
    {Kind::r2c, Precision::double_precision, 1}, {Kind::r2c, Precision::single_precision, 1},
    {Kind::c2c, Precision::double_precision, 3}, {Kind::c2c, Precision::single_precision, 3},
    {Kind::r2c, Precision::double_precision, 3}, {Kind::r2c, Precision::single_precision, 3},
};
// Odd and even sizes; an odd and an even last dimension for r2c; fewer points than ranks.
const Index kShapes[] = {{6, 5, 7}, {5, 4, 6}, {3, 2, 5}};

std::vector<unsigned char> check_any(const Config& c, const Index& n, bool also_in_place,
                                     a2afft::Fft3dOutput output, const std::string& exchange,
                                     bool two_d = false) {
  return c.precision == Precision::single_precision
             ? check<float>(c, n, also_in_place, output, exchange, two_d)
             : check<double>(c, n, also_in_place, output, exchange, two_d);
}

// Every configuration against serial FFTW; and since the exchange moves bytes only, the output
// is the same to the bit whichever backend runs it (checked on 6x5x7 against the mpi run of the
// first check, so that no plan is made twice: planning is what takes the time here).
TEST(Fft3dKinds, every_kind_precision_and_batch_matches_serial_fftw_and_every_exchange_the_bits) {
  for (const Config& c : kConfigs) {
    for (const Index& n : kShapes) {
      const auto transposed = a2afft::Fft3dOutput::transposed;
      const std::vector<unsigned char> reference = check_any(c, n, true, transposed, "mpi");
      check_any(c, n, false, a2afft::Fft3dOutput::natural, "mpi");
      if (n != kShapes[0]) continue;
      for (const char* exchange : {"pairwise", "tra", "nonblocking", "onmpml", "node-aware"}) {
        const std::vector<unsigned char> bits = check_any(c, n, false, transposed, exchange);
        EXPECT_EQ(sum_over(bits == reference ? 0 : 1), 0)
            << name_of(c, n, false, transposed) << ": " << exchange << " gives other bits than mpi";
      }
    }
  }
}

// Fft2d, slabs of n0 x n1 with one transpose: each configuration against serial FFTW of the
// 1 x n0 x n1 array (the 2D transform), odd and even n1, fewer rows than ranks at P > 5, and
// the same bits on tra as on mpi.
TEST(Fft2dKinds, every_kind_precision_and_batch_matches_serial_fftw) {
  for (const Config& c : kConfigs) {
    const auto transposed = a2afft::Fft3dOutput::transposed;
    for (const Index& n : {Index{1, 5, 7}, Index{1, 6, 4}}) {
      const std::vector<unsigned char> reference = check_any(c, n, true, transposed, "mpi", true);
      check_any(c, n, false, a2afft::Fft3dOutput::natural, "pairwise", true);
      if (n[2] != 7) continue;
      EXPECT_EQ(sum_over(check_any(c, n, false, transposed, "tra", true) == reference ? 0 : 1), 0)
          << "2D " << name_of(c, n, false, transposed) << ": tra gives other bits than mpi";
    }
  }
}

// Batch k moves k fields per point in each exchange: the exchange blocks are k times one
// field's, and half (plus a line) for r2c; a batch of 0 and a wrong overload are clear errors.
TEST(Fft3dKinds, block_bytes_and_errors) {
  const Index n{8, 8, 8};
  const std::array<int, 2> grid{2, 2};
  const auto one = a2afft::Fft3d::exchange_block_bytes(n, grid, a2afft::Fft3dOutput::transposed);
  const auto three = a2afft::Fft3d::exchange_block_bytes(n, grid, a2afft::Fft3dOutput::transposed,
                                                         Kind::c2c, Precision::double_precision, 3);
  EXPECT_EQ(three[0], 3 * one[0]);
  EXPECT_EQ(three[1], 3 * one[1]);
  const auto single = a2afft::Fft3d::exchange_block_bytes(
      n, grid, a2afft::Fft3dOutput::transposed, Kind::c2c, Precision::single_precision, 1);
  EXPECT_EQ(single[1] * 2, one[1]);
  const auto r2c = a2afft::Fft3d::exchange_block_bytes(n, grid, a2afft::Fft3dOutput::transposed,
                                                       Kind::r2c, Precision::double_precision, 1);
  EXPECT_EQ(r2c[0] * 4, one[0] * 3);  // z: 8/2+1 = 5 points split over 2: parts of 3, not 4

  a2afft::Fft3dOptions options;
  options.batch = 0;
  options.rigor = a2afft::Rigor::estimate;
  try {
    a2afft::Fft3d fft(MPI_COMM_WORLD, n, options);
    ADD_FAILURE() << "batch 0 was accepted";
  } catch (const a2afft::UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("batch=0 is not valid"), std::string::npos)
        << error.what();
  }
  options.batch = 1;
  options.kind = Kind::r2c;
  a2afft::Fft3d fft(MPI_COMM_WORLD, n, options);
  std::vector<Complex> array(fft.in_place_elements());
  try {
    fft.forward(array.data(), array.data());
    ADD_FAILURE() << "a c2c call on an r2c plan was accepted";
  } catch (const a2afft::UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("call Fft3d::forward(const double*, Complex*)"),
              std::string::npos)
        << error.what();
  }
}

// ---- Fft1d: c2c only (no kind), double and float, batch 1 and 3 ----

// Serial FFTW (double) of field f of signal() over n points.
std::vector<std::complex<double>> serial_spectrum_1d(std::size_t n, std::size_t f) {
  std::vector<std::complex<double>> spectrum(n);
  for (std::size_t g = 0; g < n; ++g)
    spectrum[g] = signal(g, f);
  auto* data = reinterpret_cast<fftw_complex*>(spectrum.data());
  fftw_plan plan = fftw_plan_dft_1d(int(n), data, data, FFTW_FORWARD, FFTW_ESTIMATE);
  fftw_execute(plan);
  fftw_destroy_plan(plan);
  return spectrum;
}

struct Config1d {
  Precision precision;
  std::size_t batch;
};

const Config1d kConfigs1d[] = {{Precision::double_precision, 1},
                               {Precision::single_precision, 1},
                               {Precision::double_precision, 3},
                               {Precision::single_precision, 3}};

std::string name_of(const Config1d& c, std::size_t n, bool in_place, a2afft::Fft1dOutput output) {
  return std::string("1D") + (c.precision == Precision::single_precision ? " float" : " double") +
         " batch " + std::to_string(c.batch) + " N=" + std::to_string(n) +
         (in_place ? " in place" : " out of place") +
         (output == a2afft::Fft1dOutput::scrambled ? " scrambled" : " natural");
}

// max |got - expected| / max |expected| over the local points of every field, max over ranks;
// `expected(i, f)` is the value of field f at local point i.
template <typename Real, typename Expected>
double error_1d(const std::vector<std::complex<Real>>& got, std::size_t batch, Expected expected) {
  double worst = 0;
  double scale = 0;
  for (std::size_t i = 0; i < got.size() / batch; ++i) {
    for (std::size_t f = 0; f < batch; ++f) {
      const std::complex<double> want = expected(i, f);
      worst = std::max(worst, std::abs(std::complex<double>(got[i * batch + f]) - want));
      scale = std::max(scale, std::abs(want));
    }
  }
  return max_over(worst) / std::max(max_over(scale), 1e-300);
}

// Forward and backward of one Fft1d configuration against serial FFTW, out of place and then,
// with `also_in_place`, in place on the same plan (which must give the same bits: the engine
// runs the same steps); returns the out-of-place forward output bytes for the bit-identity
// check.
template <typename Real>
std::vector<unsigned char> check_1d(const Config1d& c, std::size_t n, bool also_in_place,
                                    a2afft::Fft1dOutput output, const std::string& exchange) {
  using C = std::complex<Real>;
  a2afft::Fft1dOptions options;
  options.precision = c.precision;
  options.batch = c.batch;
  options.rigor = a2afft::Rigor::estimate;
  options.output = output;
  options.exchange = exchange;
  a2afft::Fft1d fft(MPI_COMM_WORLD, n, options);
  const std::size_t local = fft.local_points();
  EXPECT_EQ(fft.local_elements(), local * c.batch);
  EXPECT_EQ(fft.local_bytes(), local * c.batch * sizeof(C));
  std::vector<std::vector<std::complex<double>>> reference;
  for (std::size_t f = 0; f < c.batch; ++f)
    reference.push_back(serial_spectrum_1d(n, f));
  const double tol = tolerance<Real>(Index{1, 1, n});
  const auto as_real = [](const std::complex<double>& v) {
    return C(static_cast<Real>(v.real()), static_cast<Real>(v.imag()));
  };

  std::vector<unsigned char> bits(fft.local_bytes());
  for (const bool in_place : {false, true}) {
    if (in_place && !also_in_place) break;
    const std::string what = name_of(c, n, in_place, output) + " on " + fft.describe();
    // Forward.
    std::vector<C> in(fft.local_elements());
    for (std::size_t i = 0; i < local; ++i)
      for (std::size_t f = 0; f < c.batch; ++f)
        in[i * c.batch + f] = as_real(signal(fft.input_offset() + i, f));
    std::vector<C> out(in.size());
    if (in_place) {
      fft.forward(in.data(), in.data());
      out = in;
      EXPECT_EQ(sum_over(std::memcmp(out.data(), bits.data(), bits.size()) == 0 ? 0 : 1), 0)
          << what << ": other bits than out of place";
    } else {
      const std::vector<C> kept = in;
      fft.forward(in.data(), out.data());
      EXPECT_EQ(sum_over(in == kept ? 0 : 1), 0) << what << ": forward changed its input";
      std::memcpy(bits.data(), out.data(), bits.size());
    }
    EXPECT_LT(
        error_1d(out, c.batch,
                 [&](std::size_t i, std::size_t f) { return reference[f][fft.output_index(i)]; }),
        tol)
        << what << ": forward";

    // Backward of the exact spectrum (in the output order): N times the input.
    std::vector<C> spectrum(in.size());
    for (std::size_t i = 0; i < local; ++i)
      for (std::size_t f = 0; f < c.batch; ++f)
        spectrum[i * c.batch + f] = as_real(reference[f][fft.output_index(i)]);
    std::vector<C> back(in.size());
    if (in_place) {
      fft.backward(spectrum.data(), spectrum.data());
      back = spectrum;
    } else {
      fft.backward(spectrum.data(), back.data());
    }
    EXPECT_LT(error_1d(back, c.batch,
                       [&](std::size_t i, std::size_t f) {
                         return double(n) * signal(fft.input_offset() + i, f);
                       }),
              tol)
        << what << ": backward";
  }
  return bits;
}

std::vector<unsigned char> check_1d_any(const Config1d& c, std::size_t n, bool also_in_place,
                                        a2afft::Fft1dOutput output, const std::string& exchange) {
  return c.precision == Precision::single_precision
             ? check_1d<float>(c, n, also_in_place, output, exchange)
             : check_1d<double>(c, n, also_in_place, output, exchange);
}

// Lengths the six-step can split on P ranks (P^2 divides N): an even N1 x N2 and an odd one.
std::vector<std::size_t> lengths_1d() {
  const auto p = static_cast<std::size_t>(size_of());
  return {p * p * 6, p * p * 15};
}

// Every configuration against serial FFTW; and since the exchange moves bytes only, the output
// is the same to the bit whichever backend runs it (checked in natural order, which runs all
// three transposes, against the mpi run of the first check, so that no plan is made twice).
TEST(Fft1dKinds, every_precision_and_batch_matches_serial_fftw_and_every_exchange_the_bits) {
  for (const Config1d& c : kConfigs1d) {
    for (const std::size_t n : lengths_1d()) {
      for (const auto output : {a2afft::Fft1dOutput::natural, a2afft::Fft1dOutput::scrambled}) {
        const std::vector<unsigned char> reference = check_1d_any(c, n, true, output, "mpi");
        if (n != lengths_1d()[1] || output != a2afft::Fft1dOutput::natural) continue;
        for (const char* exchange : {"pairwise", "tra", "nonblocking"}) {
          const std::vector<unsigned char> bits = check_1d_any(c, n, false, output, exchange);
          EXPECT_EQ(sum_over(bits == reference ? 0 : 1), 0)
              << name_of(c, n, false, output) << ": " << exchange << " gives other bits than mpi";
        }
      }
    }
  }
}

// Batch k moves k fields per point in each exchange: blocks k times one field's, half as many
// bytes in float; a batch of 0 and the other precision's overload are clear errors.
TEST(Fft1dKinds, block_bytes_and_errors) {
  const std::size_t n = 1024;
  const std::size_t one = a2afft::Fft1d::exchange_block_bytes(n, 4);
  EXPECT_EQ(a2afft::Fft1d::exchange_block_bytes(n, 4, Precision::double_precision, 3), 3 * one);
  EXPECT_EQ(a2afft::Fft1d::exchange_block_bytes(n, 4, Precision::single_precision, 1) * 2, one);

  const std::size_t length = lengths_1d()[0];
  a2afft::Fft1dOptions options;
  options.batch = 0;
  options.rigor = a2afft::Rigor::estimate;
  options.exchange = "mpi";
  try {
    a2afft::Fft1d fft(MPI_COMM_WORLD, length, options);
    ADD_FAILURE() << "batch 0 was accepted";
  } catch (const a2afft::UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("batch=0 is not valid"), std::string::npos)
        << error.what();
  }
  options.batch = 1;
  options.precision = Precision::single_precision;
  a2afft::Fft1d fft(MPI_COMM_WORLD, length, options);
  EXPECT_EQ(fft.precision(), Precision::single_precision);
  std::vector<Complex> array(fft.local_elements());
  try {
    fft.forward(array.data(), array.data());
    ADD_FAILURE() << "a double call on a float plan was accepted";
  } catch (const a2afft::UsageError& error) {
    EXPECT_NE(
        std::string(error.what()).find("call Fft1d::forward(const ComplexFloat*, ComplexFloat*)"),
        std::string::npos)
        << error.what();
  }
  // Every rank holds points, so nullptr is refused on every rank.
  try {
    fft.backward(nullptr, nullptr);
    ADD_FAILURE() << "nullptr arrays were accepted";
  } catch (const a2afft::UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("in is null"), std::string::npos) << error.what();
  }
}

}  // namespace
