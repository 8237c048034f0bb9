// A spectral Poisson solver on the installed a2afft: -∇²u = f in a box, with periodic, Dirichlet
// (u = 0) or Neumann (∂u/∂n = 0) boundaries. f comes from an analytic u whose spectrum the grid
// holds exactly (a few modes of the boundary's eigenfunctions), so the solution must match u to
// round-off:
//
//   periodic, [0, 2π)³:  r2c forward of f  ->  û(k) = f̂(k) / |k|²  (k = 0 set to 0: the
//                        zero-mean solution)  ->  c2r backward with Scaling::full  ->  u
//   dirichlet, (0, π)³:  DST-I (FFTW's RODFT00) on every axis over the interior points
//                        x_j = π (j + 1) / (n + 1), whose modes sin(k x), k = j + 1, vanish on
//                        the faces; the same division, Scaling::full backward
//   neumann, [0, π]³:    DCT-I (REDFT00) over x_j = π j / (n - 1), faces included, whose modes
//                        cos(k x), k = j, have zero slope there; k = 0 set to 0
//
// Prints the plan, the largest error against the analytic u, and the solve's time split into
// the transposes and the FFTs (the plan's last_times()). Exits 0 (PASS) when the error is at
// most 1e-11, 1 (FAIL) otherwise, 2 on a bad argument.
//
// With --bricks G0xG1xG2 the application holds f and u in bricks of its own (G0 G1 G2 = P, as a
// PME or particle-mesh code does) and the spectrum in bricks too: the plan's input_box and
// output_box, which a2afft reshapes to and from its pencils.
//
//     mpiexec -n 4 ./poisson3d [--n 64] [--boundary periodic|dirichlet|neumann] [--exchange auto]
//                              [--grid P0xP1] [--bricks G0xG1xG2] [--rigor measure]

#include <mpi.h>

#include <a2afft/a2afft.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace {

using Index = std::array<std::size_t, 3>;

constexpr double error_bound = 1e-11;
// The largest wavenumber of u along any dimension (see exact_solution): the grid must hold
// 2 * 4 + 1 points per dimension for u's spectrum to be exact.
constexpr std::size_t highest_wavenumber = 4;

// A bad command line: the message names the value and what is valid.
struct BadArgument : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class Boundary { periodic, dirichlet, neumann };

struct Options {
  std::size_t n = 64;
  Boundary boundary = Boundary::periodic;
  std::array<int, 3> bricks{0, 0, 0};  // the application's bricks; {0, 0, 0}: a2afft's pencils
  std::string exchange = "auto";
  std::array<int, 2> grid{0, 0};
  a2afft::Rigor rigor = a2afft::Rigor::measure;
};

const char* const usage =
    "usage: poisson3d [--n N] [--boundary periodic|dirichlet|neumann] [--exchange SPEC] "
    "[--grid P0xP1] [--bricks G0xG1xG2] [--rigor estimate|measure|patient]";

std::size_t parse_count(std::string_view name, std::string_view text, std::size_t minimum) {
  std::size_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size() || value < minimum)
    throw BadArgument(std::string(name) + "=" + std::string(text) +
                      " is not valid: an integer >= " + std::to_string(minimum));
  return value;
}

// "P0xP1" of positive integers; the library checks that they multiply to the ranks.
std::array<int, 2> parse_grid(std::string_view text) {
  const std::string refusal =
      "--grid=" + std::string(text) + " is not valid: P0xP1 of positive integers, e.g. 2x2";
  const auto x = text.find('x');
  if (x == std::string_view::npos) throw BadArgument(refusal);
  try {
    return {int(parse_count("", text.substr(0, x), 1)),
            int(parse_count("", text.substr(x + 1), 1))};
  } catch (const BadArgument&) {
    throw BadArgument(refusal);
  }
}

// "G0xG1xG2" of positive integers; run() checks that they multiply to the ranks.
std::array<int, 3> parse_bricks(std::string_view text) {
  const std::string refusal =
      "--bricks=" + std::string(text) + " is not valid: G0xG1xG2 of positive integers, e.g. 2x2x1";
  const auto x = text.find('x');
  if (x == std::string_view::npos) throw BadArgument(refusal);
  try {
    const std::array<int, 2> rest = parse_grid(text.substr(x + 1));
    return {int(parse_count("", text.substr(0, x), 1)), rest[0], rest[1]};
  } catch (const BadArgument&) {
    throw BadArgument(refusal);
  }
}

Options parse_options(int argc, char** argv) {
  Options options;
  for (int a = 1; a < argc; ++a) {
    const std::string_view name = argv[a];
    if (name == "--help" || name == "-h") throw BadArgument(usage);
    if (a + 1 >= argc) throw BadArgument(std::string(name) + " needs a value; " + usage);
    const std::string_view value = argv[++a];
    if (name == "--n") {
      options.n = parse_count(name, value, 2 * highest_wavenumber + 1);
    } else if (name == "--boundary") {
      if (value == "periodic")
        options.boundary = Boundary::periodic;
      else if (value == "dirichlet")
        options.boundary = Boundary::dirichlet;
      else if (value == "neumann")
        options.boundary = Boundary::neumann;
      else
        throw BadArgument("--boundary=" + std::string(value) +
                          " is not valid: periodic, dirichlet or neumann");
    } else if (name == "--exchange") {
      options.exchange = value;  // the library checks it, with every rank
    } else if (name == "--grid") {
      options.grid = parse_grid(value);
    } else if (name == "--bricks") {
      options.bricks = parse_bricks(value);
    } else if (name == "--rigor") {
      if (value == "estimate")
        options.rigor = a2afft::Rigor::estimate;
      else if (value == "measure")
        options.rigor = a2afft::Rigor::measure;
      else if (value == "patient")
        options.rigor = a2afft::Rigor::patient;
      else
        throw BadArgument("--rigor=" + std::string(value) +
                          " is not valid: estimate, measure or patient");
    } else {
      throw BadArgument("unknown option '" + std::string(name) + "'; " + usage);
    }
  }
  return options;
}

// u on [0, 2π)³: separable modes with a different wavenumber along each dimension, and a plane
// wave along (2, -1, 3) that is not a product of 1D functions. Zero mean, as the solver's.
double exact_solution(double x, double y, double z) {
  return std::sin(x) * std::cos(2 * y) * std::sin(3 * z) + 0.5 * std::cos(4 * x) * std::sin(y) +
         std::cos(2 * x - y + 3 * z);
}

// f = -∇²u: each mode of u times its |k|².
double source(double x, double y, double z) {
  return 14 * std::sin(x) * std::cos(2 * y) * std::sin(3 * z) +
         17 * 0.5 * std::cos(4 * x) * std::sin(y) + 14 * std::cos(2 * x - y + 3 * z);
}

// The same for the walls: u of sines on (0, π)³ (zero on every face) or of cosines on [0, π]³
// (zero slope on every face, zero mean), each mode with a different wavenumber per dimension.
double exact_wall_solution(Boundary boundary, double x, double y, double z) {
  if (boundary == Boundary::dirichlet)
    return std::sin(x) * std::sin(2 * y) * std::sin(3 * z) +
           0.5 * std::sin(4 * x) * std::sin(y) * std::sin(z);
  return std::cos(x) * std::cos(2 * y) * std::cos(3 * z) + 0.5 * std::cos(4 * x) * std::cos(y) +
         std::cos(2 * z);
}

double wall_source(Boundary boundary, double x, double y, double z) {
  if (boundary == Boundary::dirichlet)
    return 14 * std::sin(x) * std::sin(2 * y) * std::sin(3 * z) +
           18 * 0.5 * std::sin(4 * x) * std::sin(y) * std::sin(z);
  return 14 * std::cos(x) * std::cos(2 * y) * std::cos(3 * z) +
         17 * 0.5 * std::cos(4 * x) * std::cos(y) + 4 * std::cos(2 * z);
}

// Calls visit(global index, local index) for every element of `box` in storage order, so the
// local index runs 0, 1, 2, ... whatever the box's order.
template <typename Visit>
void for_each_stored(const a2afft::Box3& box, Visit visit) {
  const auto [slow, middle, fast] = box.order;
  Index at{};
  std::size_t local = 0;
  for (std::size_t a = 0; a < box.size[slow]; ++a)
    for (std::size_t b = 0; b < box.size[middle]; ++b)
      for (std::size_t c = 0; c < box.size[fast]; ++c) {
        at[slow] = box.lower[slow] + a;
        at[middle] = box.lower[middle] + b;
        at[fast] = box.lower[fast] + c;
        visit(at, local++);
      }
}

// What one solve gives: the largest error against the analytic u on this rank, and its times.
struct Solved {
  double error = 0;
  double seconds = 0;
  a2afft::FftTimes times;
};

// This rank's brick of a g0 x g1 x g2 grid over `shape`: near-equal parts, rank r at
// (r / g2 / g1, r / g2 % g1, r % g2), row-major.
a2afft::Box3 brick(const std::array<int, 3>& grid, const Index& shape, int rank) {
  const std::array<int, 3> at{rank / grid[2] / grid[1], rank / grid[2] % grid[1], rank % grid[2]};
  a2afft::Box3 box;
  for (std::size_t d = 0; d < 3; ++d) {
    const std::size_t parts = std::size_t(grid[d]), index = std::size_t(at[d]);
    const std::size_t base = shape[d] / parts, extra = shape[d] % parts;
    box.lower[d] = index * base + std::min(index, extra);
    box.size[d] = base + (index < extra ? 1 : 0);
  }
  return box;
}

// The plan's options the command line asks for, with full scaling: backward returns u, not N u.
a2afft::Fft3dOptions plan_options_of(const Options& options, int rank, int ranks) {
  a2afft::Fft3dOptions plan_options;
  plan_options.scaling = a2afft::Scaling::full;
  plan_options.row_exchange = plan_options.column_exchange = options.exchange;
  plan_options.grid = options.grid;
  plan_options.rigor = options.rigor;
  if (options.boundary == Boundary::periodic) {
    plan_options.kind = a2afft::Kind::r2c;
  } else {
    const a2afft::AxisKind axis =
        options.boundary == Boundary::dirichlet ? a2afft::AxisKind::dst1 : a2afft::AxisKind::dct1;
    plan_options.axes = {axis, axis, axis};
  }
  if (options.bricks[0] > 0) {
    const auto [g0, g1, g2] = options.bricks;
    if (g0 * g1 * g2 != ranks)
      throw BadArgument("--bricks=" + std::to_string(g0) + "x" + std::to_string(g1) + "x" +
                        std::to_string(g2) + " is not valid on " + std::to_string(ranks) +
                        " ranks: G0 * G1 * G2 must be " + std::to_string(ranks));
    const std::size_t n = options.n;
    const bool periodic = options.boundary == Boundary::periodic;
    plan_options.input_box = brick(options.bricks, {n, n, n}, rank);
    plan_options.output_box = brick(options.bricks, {n, n, periodic ? n / 2 + 1 : n}, rank);
  }
  return plan_options;
}

// The coordinate of grid point j and the wavenumber of spectral index m along a dimension.
double coordinate(Boundary boundary, std::size_t j, std::size_t n) {
  switch (boundary) {
    case Boundary::periodic:
      return 2 * std::numbers::pi * double(j) / double(n);
    case Boundary::dirichlet:
      return std::numbers::pi * double(j + 1) / double(n + 1);
    default:
      return std::numbers::pi * double(j) / double(n - 1);
  }
}
double wavenumber(Boundary boundary, std::size_t m, std::size_t n) {
  if (boundary == Boundary::dirichlet) return double(m + 1);
  if (boundary == Boundary::neumann) return double(m);
  return m <= n / 2 ? double(m) : double(m) - double(n);  // the FFT's signed index
}

// Forward of f, û = f̂ / |k|² (0 at k = 0), backward into u: Spectrum is Complex for the
// periodic r2c plan, double for the walls' r2r ones. The output box is transposed ({1, 0, 2}
// when p0 > 1): its global indices, not the storage position, give the wavenumbers.
template <typename Spectrum>
Solved solve(const Options& options, a2afft::Fft3d& fft) {
  const std::size_t n = options.n;
  const Boundary boundary = options.boundary;
  const a2afft::Box3 in = fft.input_box(), out = fft.output_box();
  std::vector<double> f(fft.input_elements()), u(fft.input_elements());
  std::vector<Spectrum> spectrum(fft.output_elements());
  const auto at_point = [&](const Index& at, auto function) {
    return function(coordinate(boundary, at[0], n), coordinate(boundary, at[1], n),
                    coordinate(boundary, at[2], n));
  };
  const bool periodic = boundary == Boundary::periodic;
  for_each_stored(in, [&](const Index& at, std::size_t local) {
    f[local] = at_point(at, [&](double x, double y, double z) {
      return periodic ? source(x, y, z) : wall_source(boundary, x, y, z);
    });
  });

  MPI_Barrier(MPI_COMM_WORLD);  // time the solve, not the ranks' arrival
  const double start_seconds = MPI_Wtime();
  fft.forward(f.data(), spectrum.data());
  Solved solved;
  solved.times = fft.last_times();
  for_each_stored(out, [&](const Index& at, std::size_t local) {
    double k_squared = 0;
    for (std::size_t d = 0; d < 3; ++d)
      k_squared += std::pow(wavenumber(boundary, at[d], n), 2);
    spectrum[local] = k_squared == 0 ? Spectrum(0) : spectrum[local] / k_squared;
  });
  fft.backward(spectrum.data(), u.data());
  solved.seconds = MPI_Wtime() - start_seconds;
  solved.times.transpose_seconds += fft.last_times().transpose_seconds;
  solved.times.compute_seconds += fft.last_times().compute_seconds;
  solved.times.reshape_seconds += fft.last_times().reshape_seconds;

  for_each_stored(in, [&](const Index& at, std::size_t local) {
    const double exact = at_point(at, [&](double x, double y, double z) {
      return periodic ? exact_solution(x, y, z) : exact_wall_solution(boundary, x, y, z);
    });
    solved.error = std::max(solved.error, std::abs(u[local] - exact));
  });
  return solved;
}

int run(const Options& options, int rank, int ranks) {
  const std::size_t n = options.n;
  a2afft::Fft3d fft(MPI_COMM_WORLD, {n, n, n}, plan_options_of(options, rank, ranks));
  const Solved solved = options.boundary == Boundary::periodic
                            ? solve<a2afft::Complex>(options, fft)
                            : solve<double>(options, fft);
  // The slowest rank's times: each is what the solve cost.
  double maxima[5] = {solved.error, solved.seconds, solved.times.transpose_seconds,
                      solved.times.compute_seconds, solved.times.reshape_seconds};
  MPI_Allreduce(MPI_IN_PLACE, maxima, 5, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  const bool pass = maxima[0] <= error_bound;
  if (rank == 0) {
    const char* boundary = options.boundary == Boundary::periodic    ? "periodic"
                           : options.boundary == Boundary::dirichlet ? "dirichlet"
                                                                     : "neumann";
    std::printf("poisson3d: %zu^3, %s boundaries (%s), %d ranks, grid %dx%d, %s\n", n, boundary,
                fft.transform().to_string().c_str(), ranks, fft.grid()[0], fft.grid()[1],
                fft.describe().c_str());
    std::printf(
        "solve: %.3f ms (transpose %.3f ms, compute %.3f ms, reshape %.3f ms; slowest "
        "rank of each)\n",
        maxima[1] * 1e3, maxima[2] * 1e3, maxima[3] * 1e3, maxima[4] * 1e3);
    std::printf("%s: max error %.2e vs the analytic u (bound %.0e)\n", pass ? "PASS" : "FAIL",
                maxima[0], error_bound);
  }
  return pass ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  int status = 0;
  // Every rank parses the same arguments and the library throws on every rank alike, so all
  // ranks leave together and rank 0 alone says why.
  try {
    status = run(parse_options(argc, argv), rank, ranks);
  } catch (const BadArgument& error) {
    if (rank == 0) std::fprintf(stderr, "poisson3d: error: %s\n", error.what());
    status = 2;
  } catch (const a2afft::UsageError& error) {
    if (rank == 0) std::fprintf(stderr, "poisson3d: error: %s\n", error.what());
    status = 2;
  } catch (const a2afft::Error& error) {
    if (rank == 0) std::fprintf(stderr, "poisson3d: error: %s\n", error.what());
    status = 1;
  }
  MPI_Finalize();
  return status;
}
