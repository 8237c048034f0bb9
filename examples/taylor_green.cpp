// The Taylor–Green vortex on the installed a2afft: incompressible Navier–Stokes on the periodic
// box [0, 2π)³ by the pseudo-spectral method, from
//
//   u = sin x cos y cos z,  v = -cos x sin y cos z,  w = 0     (E(0) = 1/8, ε(0) = 3ν/4)
//
// in rotational form, ∂û/∂t = P[FFT(u × ω)] - ν|k|² û, with ω = ∇ × u, P the projection onto
// divergence-free fields (it removes the pressure), dealiasing, and the classic fourth-order
// Runge–Kutta in time. The velocity's three components are one batch of the plan
// (options.batch = 3, interleaved u, v, w per point), so each transpose moves all three in one
// exchange; a step is 4 stages of 2 backward and 1 forward transforms.
//
// Dealiasing (--dealias) removes what the product u × ω aliases onto the kept modes:
//   truncation  the 2/3 rule: an n³ grid and n³ spectrum, only |k_d| < n/3 kept (the rest zero);
//   padding     the 3/2 rule: n modes per axis (|k_d| < n/2 kept, the Nyquist modes zero) and
//               a 3n/2 grid, through a padded plan (PlanOptions::padding) whose transposes never
//               move the zeros between the modes and the grid's extra points.
// Both keep the same modes for padding at n and truncation at 3n/2, on the same 3n/2 grid.
//
// Writes t, the energy E = ½⟨|u|²⟩ and the dissipation ε = ν⟨|ω|²⟩ (⟨⟩: the box's mean) to a CSV,
// shows a progress bar on rank 0's stderr (--progress), and prints the time per step split into the
// transposes, the FFTs and the rest. Sums over the grid are formed line by line and added in one
// fixed order on rank 0, so with Rigor::estimate (the default here) the results do not depend on
// the number of ranks, the grid or the exchange: `digest` is a hash of the final velocity.
//
//     mpiexec -n 4 ./taylor_green [--n 32] [--nu 0.000625] [--dt 0.02] [--t-end 10 | --steps S]
//         [--dealias truncation|padding] [--exchange auto] [--grid P0xP1] [--rigor estimate]
//         [--csv tg.csv] [--csv-every 1] [--progress auto|on|off]

#include <mpi.h>
#include <unistd.h>

#include <a2afft/a2afft.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <numbers>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace {

using a2afft::Complex;
using Index = std::array<std::size_t, 3>;
constexpr std::size_t components = 3;  // u, v, w: the plan's batch

// A bad command line: the message names the value and what is valid.
struct BadArgument : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Options {
  std::size_t n = 32;  // modes per axis (padding) or grid points per axis (truncation)
  // Padding: at the same kept modes it ran faster per step than truncation (see `help`).
  enum class Dealias { truncation, padding } dealias = Dealias::padding;
  double nu = 1.0 / 1600;  // Re = 1600 for the unit velocity and length of the vortex
  double dt = 0.02;
  double t_end = 10;
  std::size_t steps = 0;  // 0: as many as t_end takes
  std::string exchange = "auto";
  std::array<int, 2> grid{0, 0};
  // Estimate: FFTW's plan depends only on the problem, not on timings, so reruns and other
  // rank counts give the same bits.
  a2afft::Rigor rigor = a2afft::Rigor::estimate;
  std::string csv;
  std::size_t csv_every = 1;
  // auto: when rank 0's stderr is a terminal. Open MPI's mpirun hands the ranks a pipe for
  // stderr whatever the user's terminal, so under it only `on` shows the bar.
  enum class Progress { automatic, on, off } progress = Progress::automatic;
};

const char* const usage =
    "usage: taylor_green [--n N] [--nu NU] [--dt DT] [--t-end T | --steps S] "
    "[--dealias truncation|padding] [--exchange SPEC] [--grid P0xP1] "
    "[--rigor estimate|measure|patient] [--csv FILE] [--csv-every K] [--progress auto|on|off]";

// --help: the usage and what the less obvious choices mean.
const char* const help =
    "  --dealias padding (default): the 3/2 rule, N modes per axis (|k| < N/2 kept) on a\n"
    "      3N/2 grid, through padded transforms.\n"
    "  --dealias truncation: the 2/3 rule on an NxNxN grid, |k| < N/3 kept (before 2026-11,\n"
    "      the only rule).\n"
    "  Padding is the default because it was the faster at the same kept modes (padding at N\n"
    "  against truncation at 3N/2, the same grid; 2 ranks: 0.77x the time per step on a 96^3\n"
    "  grid, 0.86x on 144^3): its transposes never move the zeros, and the spectrum it steps\n"
    "  is (2/3)^3 the size (docs/results/taylor-green.md). Note that N then counts modes.\n";

// --help was asked for: main() prints the usage and help, and exits 0.
struct HelpRequested {};

std::string quoted(std::string_view name, std::string_view text) {
  return std::string(name) + "=" + std::string(text);
}

std::size_t parse_count(std::string_view name, std::string_view text, std::size_t minimum) {
  std::size_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size() || value < minimum)
    throw BadArgument(quoted(name, text) +
                      " is not valid: an integer >= " + std::to_string(minimum));
  return value;
}

// A finite number above `minimum` (or equal to it when `minimum_allowed`).
double parse_number(std::string_view name, std::string_view text, double minimum,
                    bool minimum_allowed) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size() || !std::isfinite(value) ||
      value < minimum || (value == minimum && !minimum_allowed))
    throw BadArgument(quoted(name, text) + " is not valid: a number " +
                      (minimum_allowed ? ">= " : "> ") + std::to_string(minimum));
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

Options parse_options(int argc, char** argv) {
  Options options;
  bool t_end_given = false;
  for (int a = 1; a < argc; ++a) {
    const std::string_view name = argv[a];
    if (name == "--help" || name == "-h") throw HelpRequested{};
    if (a + 1 >= argc) throw BadArgument(std::string(name) + " needs a value; " + usage);
    const std::string_view value = argv[++a];
    if (name == "--n") {
      // 4 keeps |k| = 1, the initial modes, inside either rule's band (3|k| < n, 2|k| < n).
      options.n = parse_count(name, value, 4);
    } else if (name == "--nu") {
      options.nu = parse_number(name, value, 0, true);
    } else if (name == "--dt") {
      options.dt = parse_number(name, value, 0, false);
    } else if (name == "--t-end") {
      options.t_end = parse_number(name, value, 0, false);
      t_end_given = true;
    } else if (name == "--steps") {
      options.steps = parse_count(name, value, 1);
    } else if (name == "--dealias") {
      if (value == "truncation")
        options.dealias = Options::Dealias::truncation;
      else if (value == "padding")
        options.dealias = Options::Dealias::padding;
      else
        throw BadArgument(quoted(name, value) + " is not valid: truncation or padding");
    } else if (name == "--exchange") {
      options.exchange = value;  // the library checks it, with every rank
    } else if (name == "--grid") {
      options.grid = parse_grid(value);
    } else if (name == "--rigor") {
      if (value == "estimate")
        options.rigor = a2afft::Rigor::estimate;
      else if (value == "measure")
        options.rigor = a2afft::Rigor::measure;
      else if (value == "patient")
        options.rigor = a2afft::Rigor::patient;
      else
        throw BadArgument(quoted(name, value) + " is not valid: estimate, measure or patient");
    } else if (name == "--csv") {
      options.csv = value;
    } else if (name == "--csv-every") {
      options.csv_every = parse_count(name, value, 1);
    } else if (name == "--progress") {
      if (value == "auto")
        options.progress = Options::Progress::automatic;
      else if (value == "on")
        options.progress = Options::Progress::on;
      else if (value == "off")
        options.progress = Options::Progress::off;
      else
        throw BadArgument(quoted(name, value) + " is not valid: auto, on or off");
    } else {
      throw BadArgument("unknown option '" + std::string(name) + "'; " + usage);
    }
  }
  if (options.steps > 0 && t_end_given)
    throw BadArgument("--steps and --t-end both given: one says how long to run");
  // The last step reaches t_end or just beyond it; t = step * dt, never a running sum.
  if (options.steps == 0)
    options.steps =
        std::max<std::size_t>(1, std::size_t(std::ceil(options.t_end / options.dt - 1e-9)));
  return options;
}

// The signed wavenumber of FFT index `index` along a dimension of `n` points.
double wavenumber(std::size_t index, std::size_t n) {
  return index <= n / 2 ? double(index) : double(index) - double(n);
}

// i z, exactly (a complex product would add 0 * z terms).
Complex times_i(Complex z) {
  return {-z.imag(), z.real()};
}

// 64-bit FNV-1a of `bytes`, continuing from `hash`.
std::uint64_t fnv1a(const void* bytes, std::size_t count,
                    std::uint64_t hash = 0xcbf29ce484222325ULL) {
  const auto* byte = static_cast<const unsigned char*>(bytes);
  for (std::size_t b = 0; b < count; ++b)
    hash = (hash ^ byte[b]) * 0x100000001b3ULL;
  return hash;
}

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

// Whether dealiasing keeps the mode of wavenumber k of an n-point (n-mode) axis.
// Truncation: the 2/3 rule, |k| < n/3, so products of kept modes (|k| < 2n/3) alias only onto
// dropped ones. Padding: the n modes' products are formed on a 3n/2 grid, where they alias only
// beyond |k| = n/2, so all n modes stay but the Nyquist mode of an even n: it has no partner of
// the opposite sign, so i k û there would not be the transform of a real field.
bool kept_by_dealiasing(double k, std::size_t n, Options::Dealias dealias) {
  const double bound = dealias == Options::Dealias::truncation ? 3 : 2;
  return bound * std::abs(k) < double(n);
}

// One spectral mode this rank holds: its wavenumber, |k|², and whether dealiasing keeps it.
struct Mode {
  std::array<double, 3> k;
  double k_squared;
  bool kept;
};

// E and ε at one time; on rank 0 only (the other ranks hold zeros).
struct Diagnostics {
  double energy = 0;
  double dissipation = 0;
};

class Solver {
 public:
  Solver(const Options& options, MPI_Comm comm)
      : options_(options), comm_(comm), fft_(make_plan()), grid_(fft_.padded_shape()) {
    MPI_Comm_rank(comm_, &rank_);
    const std::size_t n = options_.n;
    in_ = fft_.input_box();
    out_ = fft_.output_box();
    velocity_hat_.resize(fft_.output_elements());
    stage_hat_.resize(fft_.output_elements());
    sum_hat_.resize(fft_.output_elements());
    work_hat_.resize(fft_.output_elements());
    velocity_.resize(fft_.input_elements());
    vorticity_.resize(fft_.input_elements());
    line_sums_.resize(2 * grid_[0] * grid_[1]);
    line_hashes_.resize(grid_[0] * grid_[1]);

    // The output box is transposed ({1, 0, 2} when p0 > 1) and holds n/2+1 points along
    // dimension 2: the global index of each stored mode gives its wavenumber.
    modes_.reserve(out_.elements());
    const auto [slow, middle, fast] = out_.order;
    const auto dealias = options_.dealias;
    Index at{};
    for (std::size_t a = 0; a < out_.size[slow]; ++a)
      for (std::size_t b = 0; b < out_.size[middle]; ++b)
        for (std::size_t c = 0; c < out_.size[fast]; ++c) {
          at[slow] = out_.lower[slow] + a;
          at[middle] = out_.lower[middle] + b;
          at[fast] = out_.lower[fast] + c;
          const std::array<double, 3> k{wavenumber(at[0], n), wavenumber(at[1], n), double(at[2])};
          const bool kept = kept_by_dealiasing(k[0], n, dealias) &&
                            kept_by_dealiasing(k[1], n, dealias) &&
                            kept_by_dealiasing(k[2], n, dealias);
          modes_.push_back({k, k[0] * k[0] + k[1] * k[1] + k[2] * k[2], kept});
        }
  }

  const a2afft::Fft3d& plan() const { return fft_; }

  // The Taylor–Green vortex at t = 0, sampled on the physical (padded) grid: its modes,
  // |k_d| = 1, are the same on any grid of 4 points or more.
  void initialize() {
    const auto coordinate = [&](std::size_t index, std::size_t axis) {
      return 2 * std::numbers::pi * double(index) / double(grid_[axis]);
    };
    std::size_t point = 0;
    for (std::size_t i = in_.lower[0]; i < in_.lower[0] + in_.size[0]; ++i)
      for (std::size_t j = in_.lower[1]; j < in_.lower[1] + in_.size[1]; ++j)
        for (std::size_t k = 0; k < in_.size[2]; ++k, ++point) {
          const double x = coordinate(i, 0), y = coordinate(j, 1), z = coordinate(k, 2);
          double* u = &velocity_[point * components];
          u[0] = std::sin(x) * std::cos(y) * std::cos(z);
          u[1] = -std::cos(x) * std::sin(y) * std::cos(z);
          u[2] = 0;
        }
    forward(velocity_.data(), velocity_hat_.data());
    for (std::size_t m = 0; m < modes_.size(); ++m)
      if (!modes_[m].kept)
        for (std::size_t c = 0; c < components; ++c)
          velocity_hat_[m * components + c] = 0;
  }

  // One RK4 step of dt; the diagnostics of the step's start when `diagnostics` is set.
  void step(Diagnostics* diagnostics) {
    const double dt = options_.dt;
    const std::size_t values = velocity_hat_.size();
    constexpr double weights[4] = {1, 2, 2, 1}, next_stage[3] = {0.5, 0.5, 1};
    for (int stage = 0; stage < 4; ++stage) {
      // Stage 0 starts from the step's velocity itself; the others from stage_hat_.
      const Complex* input = stage == 0 ? velocity_hat_.data() : stage_hat_.data();
      right_hand_side(input, stage == 0 ? diagnostics : nullptr, true);
      for (std::size_t v = 0; v < values; ++v) {
        sum_hat_[v] = stage == 0 ? work_hat_[v] : sum_hat_[v] + weights[stage] * work_hat_[v];
        if (stage < 3) stage_hat_[v] = velocity_hat_[v] + (next_stage[stage] * dt) * work_hat_[v];
      }
    }
    for (std::size_t v = 0; v < values; ++v)
      velocity_hat_[v] += (dt / 6) * sum_hat_[v];
  }

  // E and ε of the current velocity (collective; the values on rank 0); leaves the velocity
  // in physical space in velocity_, for digest().
  Diagnostics diagnose() {
    Diagnostics diagnostics;
    right_hand_side(velocity_hat_.data(), &diagnostics, false);
    return diagnostics;
  }

  // max |k·û| / max |k||û| over every mode: the velocity's divergence relative to the size of
  // its gradient, round-off for a solenoidal field. The same on every rank.
  double relative_divergence() const {
    double maxima[2] = {0, 0};
    for (std::size_t m = 0; m < modes_.size(); ++m) {
      const Complex* u = &velocity_hat_[m * components];
      const auto& k = modes_[m].k;
      maxima[0] = std::max(maxima[0], std::abs(k[0] * u[0] + k[1] * u[1] + k[2] * u[2]));
      maxima[1] =
          std::max(maxima[1], std::sqrt(modes_[m].k_squared) *
                                  std::sqrt(std::norm(u[0]) + std::norm(u[1]) + std::norm(u[2])));
    }
    MPI_Allreduce(MPI_IN_PLACE, maxima, 2, MPI_DOUBLE, MPI_MAX, comm_);
    return maxima[1] > 0 ? maxima[0] / maxima[1] : 0;
  }

  // A hash of the physical velocity diagnose() left, over the global grid in row-major order
  // whatever the distribution (on rank 0).
  std::uint64_t digest() {
    const std::size_t line_values = grid_[2] * components;
    std::fill(line_hashes_.begin(), line_hashes_.end(), 0);
    for_each_line([&](std::size_t line, const double* u, const double*) {
      line_hashes_[line] = fnv1a(u, line_values * sizeof(double));
    });
    // Each line's slot is set by one rank only, so the XOR just collects them.
    MPI_Reduce(rank_ == 0 ? MPI_IN_PLACE : line_hashes_.data(), line_hashes_.data(),
               int(line_hashes_.size()), MPI_UINT64_T, MPI_BXOR, 0, comm_);
    return fnv1a(line_hashes_.data(), line_hashes_.size() * sizeof(std::uint64_t));
  }

  a2afft::FftTimes fft_times() const { return fft_times_; }
  std::size_t transforms() const { return transforms_; }
  void reset_fft_times() {
    fft_times_ = {};
    transforms_ = 0;
  }

 private:
  a2afft::Fft3d make_plan() const {
    a2afft::Fft3dOptions plan_options;
    plan_options.kind = a2afft::Kind::r2c;
    plan_options.batch = components;
    // backward() returns the velocity itself; the spectra are the physical grid's points
    // times the Fourier coefficients throughout, which the RHS, linear in them, does not mind.
    plan_options.scaling = a2afft::Scaling::full;
    // The 3/2 rule: the plan's shape is the n modes, its physical grid 3n/2 points per axis.
    if (options_.dealias == Options::Dealias::padding) plan_options.padding = {1.5, 1.5, 1.5};
    plan_options.row_exchange = plan_options.column_exchange = options_.exchange;
    plan_options.grid = options_.grid;
    plan_options.rigor = options_.rigor;
    const std::size_t n = options_.n;
    return a2afft::Fft3d(comm_, {n, n, n}, plan_options);
  }

  void forward(const double* in, Complex* out) {
    fft_.forward(in, out);
    add_times();
  }
  void backward(const Complex* in, double* out) {
    fft_.backward(in, out);
    add_times();
  }
  void add_times() {
    fft_times_.transpose_seconds += fft_.last_times().transpose_seconds;
    fft_times_.compute_seconds += fft_.last_times().compute_seconds;
    ++transforms_;
  }

  // visit(global line index i * m1 + j, its velocity, its vorticity) for every line of the
  // m0 x m1 x m2 physical grid this rank holds (all m2 points of dimension 2, 3 values each).
  template <typename Visit>
  void for_each_line(Visit visit) const {
    const std::size_t line_values = grid_[2] * components;
    std::size_t offset = 0;
    for (std::size_t i = in_.lower[0]; i < in_.lower[0] + in_.size[0]; ++i)
      for (std::size_t j = in_.lower[1]; j < in_.lower[1] + in_.size[1]; ++j) {
        visit(i * grid_[1] + j, &velocity_[offset], &vorticity_[offset]);
        offset += line_values;
      }
  }

  // work_hat_ = P[FFT(u × ω)] - ν|k|² û for û = `velocity_hat` (when `want_rhs`); velocity_
  // and vorticity_ hold u and ω in physical space after it (ω replaced by u × ω with
  // want_rhs). Fills `diagnostics` (on rank 0) when set.
  void right_hand_side(const Complex* velocity_hat, Diagnostics* diagnostics, bool want_rhs) {
    for (std::size_t m = 0; m < modes_.size(); ++m) {
      const Complex* u = &velocity_hat[m * components];
      Complex* omega = &work_hat_[m * components];
      const auto& k = modes_[m].k;
      omega[0] = times_i(k[1] * u[2] - k[2] * u[1]);
      omega[1] = times_i(k[2] * u[0] - k[0] * u[2]);
      omega[2] = times_i(k[0] * u[1] - k[1] * u[0]);
    }
    backward(velocity_hat, velocity_.data());
    backward(work_hat_.data(), vorticity_.data());
    if (diagnostics) *diagnostics = reduce_diagnostics();
    if (!want_rhs) return;

    const std::size_t points = velocity_.size() / components;
    for (std::size_t p = 0; p < points; ++p) {
      const double* u = &velocity_[p * components];
      double* omega = &vorticity_[p * components];
      const double cross[3] = {u[1] * omega[2] - u[2] * omega[1], u[2] * omega[0] - u[0] * omega[2],
                               u[0] * omega[1] - u[1] * omega[0]};
      std::copy(cross, cross + 3, omega);
    }
    forward(vorticity_.data(), work_hat_.data());

    const double nu = options_.nu;
    for (std::size_t m = 0; m < modes_.size(); ++m) {
      Complex* rhs = &work_hat_[m * components];
      const Complex* u = &velocity_hat[m * components];
      const Mode& mode = modes_[m];
      // k = 0: the mean flow stays (u × ω has zero mean on a periodic box); dropped modes stay
      // zero, so û never leaves the dealiased band.
      if (!mode.kept || mode.k_squared == 0) {
        std::fill(rhs, rhs + components, Complex(0));
        continue;
      }
      const auto& k = mode.k;
      const Complex k_dot_n = (k[0] * rhs[0] + k[1] * rhs[1] + k[2] * rhs[2]) / mode.k_squared;
      for (std::size_t c = 0; c < components; ++c)
        rhs[c] = rhs[c] - k[c] * k_dot_n - (nu * mode.k_squared) * u[c];
    }
  }

  // E = ½⟨|u|²⟩ and ε = ν⟨|ω|²⟩ from velocity_ and vorticity_. Each line's sum lands in its
  // own slot of a global array (the other ranks add zeros, exactly), and rank 0 adds the lines
  // in global order: the same bits on any number of ranks. The grid's mean of a square is
  // exact (Parseval): |u|² has modes up to twice the kept ones, which alias nowhere near k = 0.
  Diagnostics reduce_diagnostics() {
    const std::size_t lines = grid_[0] * grid_[1], line_values = grid_[2] * components;
    std::fill(line_sums_.begin(), line_sums_.end(), 0.0);
    for_each_line([&](std::size_t line, const double* u, const double* omega) {
      double u_squared = 0, omega_squared = 0;
      for (std::size_t v = 0; v < line_values; ++v) {
        u_squared += u[v] * u[v];
        omega_squared += omega[v] * omega[v];
      }
      line_sums_[line] = u_squared;
      line_sums_[lines + line] = omega_squared;
    });
    MPI_Reduce(rank_ == 0 ? MPI_IN_PLACE : line_sums_.data(), line_sums_.data(),
               int(line_sums_.size()), MPI_DOUBLE, MPI_SUM, 0, comm_);
    Diagnostics diagnostics;
    if (rank_ != 0) return diagnostics;
    double u_squared = 0, omega_squared = 0;
    for (std::size_t line = 0; line < lines; ++line) {
      u_squared += line_sums_[line];
      omega_squared += line_sums_[lines + line];
    }
    const double points = double(grid_[0]) * double(grid_[1]) * double(grid_[2]);
    diagnostics.energy = 0.5 * u_squared / points;
    diagnostics.dissipation = options_.nu * omega_squared / points;
    return diagnostics;
  }

  Options options_;
  MPI_Comm comm_;
  int rank_ = 0;
  a2afft::Fft3d fft_;
  Index grid_;  // the physical grid: n³, or the padded (3n/2)³
  a2afft::Box3 in_, out_;
  std::vector<Mode> modes_;
  // Spectral: the velocity, a stage's input, the RK4 weighted sum, and the RHS (ω̂ first).
  std::vector<Complex> velocity_hat_, stage_hat_, sum_hat_, work_hat_;
  // Physical: u, and ω (then u × ω).
  std::vector<double> velocity_, vorticity_;
  std::vector<double> line_sums_;
  std::vector<std::uint64_t> line_hashes_;
  a2afft::FftTimes fft_times_;
  std::size_t transforms_ = 0;
};

// "[=====>    ] t = 1.20 / 10.00  ETA 0:42" on one line of stderr, redrawn with \r at most
// five times a second; by default only on a terminal, so logs keep only the results.
class ProgressBar {
 public:
  ProgressBar(bool enabled, double t_end) : enabled_(enabled), t_end_(t_end) {}
  ~ProgressBar() { finish(); }
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  // Ends the bar's line, before other output.
  void finish() {
    if (drawn_) std::fputc('\n', stderr);
    drawn_ = false;
  }

  void update(double t, double fraction, double elapsed_seconds) {
    if (!enabled_ || (elapsed_seconds - last_draw_seconds_ < 0.2 && fraction < 1)) return;
    last_draw_seconds_ = elapsed_seconds;
    constexpr int width = 30;
    const int filled = int(fraction * width);
    char bar[width + 1];
    for (int c = 0; c < width; ++c)
      bar[c] = c < filled ? '=' : c == filled ? '>' : ' ';
    bar[width] = '\0';
    const long eta_seconds =
        fraction > 0 ? std::lround(elapsed_seconds * (1 - fraction) / fraction) : 0;
    std::fprintf(stderr, "\r[%s] t = %.2f / %.2f  ETA %ld:%02ld ", bar, t, t_end_, eta_seconds / 60,
                 eta_seconds % 60);
    std::fflush(stderr);
    drawn_ = true;
  }

 private:
  bool enabled_;
  double t_end_;
  double last_draw_seconds_ = -1;
  bool drawn_ = false;
};

// The run's first line: the modes, the dealiasing and its physical grid, the ranks and plan.
void print_run(const Options& options, const a2afft::Fft3d& plan, int ranks, double t_end) {
  const auto grid = plan.padded_shape();
  std::printf(
      "taylor_green: %zu^3, %s on a %zux%zux%zu grid, %d ranks, grid %dx%d, %s, nu=%g, dt=%g, "
      "%zu steps to t=%g\n",
      options.n,
      options.dealias == Options::Dealias::padding ? "padding (3/2 rule)" : "truncation (2/3 rule)",
      grid[0], grid[1], grid[2], ranks, plan.grid()[0], plan.grid()[1], plan.describe().c_str(),
      options.nu, options.dt, options.steps, t_end);
}

int run(const Options& options, int rank, int ranks) {
  // The CSV opens first: a path that cannot be written is a bad argument, before any planning.
  File csv;
  int csv_ok = 1;
  if (rank == 0 && !options.csv.empty()) {
    csv.reset(std::fopen(options.csv.c_str(), "w"));
    csv_ok = csv != nullptr;
  }
  MPI_Bcast(&csv_ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!csv_ok)
    throw BadArgument(quoted("--csv", options.csv) + " cannot be written: " + std::strerror(errno));

  Solver solver(options, MPI_COMM_WORLD);
  const auto& plan = solver.plan();
  const double t_end = double(options.steps) * options.dt;
  if (rank == 0) {
    print_run(options, plan, ranks, t_end);
    if (csv) std::fprintf(csv.get(), "t,energy,dissipation\n");
  }
  const auto write_row = [&](double t, const Diagnostics& diagnostics) {
    if (csv)
      std::fprintf(csv.get(), "%.10g,%.17g,%.17g\n", t, diagnostics.energy,
                   diagnostics.dissipation);
  };

  solver.initialize();
  const Diagnostics initial = solver.diagnose();
  if (rank == 0)
    std::printf("t=0: energy %.17g (exact 1/8), dissipation %.17g (exact 3nu/4 = %.17g)\n",
                initial.energy, initial.dissipation, 0.75 * options.nu);

  solver.reset_fft_times();
  const bool show_progress =
      rank == 0 && (options.progress == Options::Progress::on ||
                    (options.progress == Options::Progress::automatic && isatty(STDERR_FILENO)));
  ProgressBar progress(show_progress, t_end);
  MPI_Barrier(MPI_COMM_WORLD);
  const double start_seconds = MPI_Wtime();
  // The first step touches every array and work buffer for the first time (page faults, the
  // exchanges' first messages): with more than one step, the timing starts after it.
  const std::size_t untimed_steps = options.steps > 1 ? 1 : 0;
  double timed_start_seconds = start_seconds;
  for (std::size_t step = 0; step < options.steps; ++step) {
    if (step == untimed_steps && untimed_steps > 0) {
      MPI_Barrier(MPI_COMM_WORLD);
      timed_start_seconds = MPI_Wtime();
      solver.reset_fft_times();
    }
    const bool row = csv_ok && !options.csv.empty() && step % options.csv_every == 0;
    Diagnostics diagnostics;
    solver.step(row ? &diagnostics : nullptr);
    if (row && rank == 0) write_row(double(step) * options.dt, diagnostics);
    if (rank == 0)
      progress.update(double(step + 1) * options.dt, double(step + 1) / double(options.steps),
                      MPI_Wtime() - start_seconds);
  }
  const double loop_seconds = MPI_Wtime() - timed_start_seconds;
  progress.finish();
  const a2afft::FftTimes times = solver.fft_times();
  const std::size_t transforms = solver.transforms();

  const Diagnostics final_state = solver.diagnose();
  if (rank == 0) write_row(t_end, final_state);
  const double divergence = solver.relative_divergence();
  const std::uint64_t digest = solver.digest();
  double maxima[3] = {loop_seconds, times.transpose_seconds, times.compute_seconds};
  MPI_Allreduce(MPI_IN_PLACE, maxima, 3, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) {
    const std::size_t timed_steps = options.steps - untimed_steps;
    const double steps = double(timed_steps);
    std::printf("t=%g: energy %.17g, dissipation %.17g\n", t_end, final_state.energy,
                final_state.dissipation);
    std::printf("divergence: max|k.u|/max(|k||u|) = %.2e\n", divergence);
    std::printf("digest: %016llx\n", static_cast<unsigned long long>(digest));
    std::printf(
        "per step: %.3f ms (transpose %.3f ms, compute %.3f ms, rest %.3f ms; %zu transforms "
        "of %zu fields per step; slowest rank of each; %zu steps timed%s)\n",
        maxima[0] / steps * 1e3, maxima[1] / steps * 1e3, maxima[2] / steps * 1e3,
        (maxima[0] - maxima[1] - maxima[2]) / steps * 1e3, transforms / timed_steps, components,
        timed_steps, untimed_steps > 0 ? ", after 1 warm-up step" : "");
  }
  return 0;
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
  } catch (const HelpRequested&) {
    if (rank == 0) std::printf("%s\n%s", usage, help);
  } catch (const BadArgument& error) {
    if (rank == 0) std::fprintf(stderr, "taylor_green: error: %s\n", error.what());
    status = 2;
  } catch (const a2afft::UsageError& error) {
    if (rank == 0) std::fprintf(stderr, "taylor_green: error: %s\n", error.what());
    status = 2;
  } catch (const a2afft::Error& error) {
    if (rank == 0) std::fprintf(stderr, "taylor_green: error: %s\n", error.what());
    status = 1;
  }
  MPI_Finalize();
  return status;
}
