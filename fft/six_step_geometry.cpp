#include "six_step_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "error.hpp"

namespace a2afft::detail::fft {

SixStepSplit choose_six_step_split(std::size_t n, int ranks, std::size_t n1) {
  const auto p = static_cast<std::size_t>(ranks);
  const auto valid = [&](std::size_t candidate) {
    return candidate != 0 && n % candidate == 0 && candidate % p == 0 && (n / candidate) % p == 0;
  };
  const std::string where = "N=" + std::to_string(n) + " on P=" + std::to_string(ranks);
  if (n == 0) throw UsageError(where + " is not valid; a transform needs at least 1 point");
  const std::size_t square = p * p;
  if (n % square != 0) {
    const std::size_t below = n / square * square;
    throw UsageError(where +
                     " has no six-step split: N = N1 * N2 with P dividing both needs N to "
                     "be a multiple of P^2 = " +
                     std::to_string(square) + "; nearest valid N: " +
                     (below > 0 ? std::to_string(below) + " or " : std::string()) +
                     std::to_string(below + square));
  }
  std::vector<std::size_t> candidates;
  for (std::size_t d = 1; d * d <= n; ++d) {
    if (n % d != 0) continue;
    if (valid(d)) candidates.push_back(d);
    if (n / d != d && valid(n / d)) candidates.push_back(n / d);  // a square's root once
  }
  std::sort(candidates.begin(), candidates.end());
  if (n1 != 0) {
    if (valid(n1)) return {n1, n / n1};
    std::string list;
    for (const std::size_t c : candidates) {
      if (list.size() > 60) {
        list += ", ...";
        break;
      }
      list += (list.empty() ? "" : ", ") + std::to_string(c);
    }
    throw UsageError("Fft1dOptions::n1=" + std::to_string(n1) + " is not valid for " + where +
                     ": N1 must divide N with P dividing N1 and N/N1; valid N1: " + list);
  }
  const double root = std::sqrt(static_cast<double>(n));
  std::size_t best = candidates.front();
  for (const std::size_t c : candidates) {
    const double distance = std::abs(std::log(static_cast<double>(c) / root));
    const double best_distance = std::abs(std::log(static_cast<double>(best) / root));
    if (distance < best_distance - 1e-12 || (distance < best_distance + 1e-12 && c > best)) {
      best = c;
    }
  }
  return {best, n / best};
}

SixStepGeometry::SixStepGeometry(std::size_t n, int ranks, std::size_t n1, bool scrambled_output)
    : n_(n),
      ranks_(ranks),
      split_(choose_six_step_split(n, ranks, n1)),
      rows1_(split_.n1 / static_cast<std::size_t>(ranks)),
      rows2_(split_.n2 / static_cast<std::size_t>(ranks)),
      scrambled_output_(scrambled_output) {}

std::size_t SixStepGeometry::block_bytes(std::size_t element_bytes) const {
  return block_elements() * element_bytes;
}

BoxRange SixStepGeometry::input_box(int rank) const {
  return {{0, 0, static_cast<std::size_t>(rank) * local_length()}, {1, 1, local_length()}};
}

std::size_t SixStepGeometry::output_index(int rank, std::size_t i) const {
  if (!scrambled_output_) return static_cast<std::size_t>(rank) * local_length() + i;
  const std::size_t k1 = static_cast<std::size_t>(rank) * rows1_ + i / split_.n2;
  return k1 + split_.n1 * (i % split_.n2);
}

std::complex<double> unit_root(std::size_t m, std::size_t n, int sign) {
  // The angle 2 pi m / n is folded into [0, pi/4] by the circle's symmetries, each fold exact in
  // integers, so only the last step rounds.
  m %= n;
  const bool lower_half = 2 * m > n;                  // angle in (pi, 2 pi): conjugate
  const std::size_t m_half = lower_half ? n - m : m;  // angle in [0, pi]
  const bool second_quadrant = 4 * m_half > n;        // angle in (pi/2, pi]: reflect
  // In the second quadrant use angle' = pi - angle, i.e. m' = n/2 - m_half, kept as 2m' = n - 2m.
  const std::size_t twice = second_quadrant ? n - 2 * m_half : 2 * m_half;  // 2m' in [0, n/2]
  const bool upper_octant = 4 * twice > n;  // angle' in (pi/4, pi/2]: swap cos and sin
  // With swapping, angle'' = pi/2 - angle', i.e. 2m'' = n/2 - 2m', kept as 4m'' = n - 4m'.
  const std::size_t quad = upper_octant ? n - 2 * twice : 2 * twice;  // 4m'' in [0, n/2]
  const long double angle = std::numbers::pi_v<long double> * static_cast<long double>(quad) /
                            (2.0L * static_cast<long double>(n));  // = 2 pi m'' / n
  long double c = std::cos(angle);
  long double s = std::sin(angle);
  if (upper_octant) std::swap(c, s);
  if (second_quadrant) c = -c;
  if (lower_half) s = -s;
  // s is sin(2 pi m / n); the root with sign -1 is cos - i sin.
  return {static_cast<double>(c), static_cast<double>(sign < 0 ? -s : s)};
}

TwiddleTable::TwiddleTable(std::size_t n) {
  while ((std::size_t{1} << (2 * low_bits_)) < n)
    ++low_bits_;  // L = 2^ceil(log2(sqrt N))
  const std::size_t low_size = std::size_t{1} << low_bits_;
  low_mask_ = low_size - 1;
  low_.resize(low_size);
  for (std::size_t m = 0; m < low_size; ++m)
    low_[m] = unit_root(m, n, -1);
  high_.resize((n + low_size - 1) / low_size);
  for (std::size_t h = 0; h < high_.size(); ++h)
    high_[h] = unit_root(h * low_size, n, -1);
}

namespace {

using A = SixStepArray;

// A step on a rows x columns matrix of `from` into `to`: a local transpose or column FFTs.
SixStepStep matrix_step(SixStepStep::Op op, A from, A to, std::size_t rows, std::size_t columns,
                        int side) {
  SixStepStep step;
  step.op = op;
  step.from = from;
  step.to = to;
  step.rows = rows;
  step.columns = columns;
  step.side = side;
  return step;
}

SixStepStep local_transpose(A from, A to, std::size_t rows, std::size_t columns, int side) {
  return matrix_step(SixStepStep::Op::local_transpose, from, to, rows, columns, side);
}

SixStepStep exchange(bool own_in_place) {
  SixStepStep step;
  step.op = SixStepStep::Op::exchange;
  step.from = A::send;
  step.to = A::recv;
  step.own_in_place = own_in_place;
  return step;
}

// A sweep of `rows` rows of `length` on side `side`: unpacked or not, twiddled, packed or not,
// scaled or not.
struct SweepSteps {
  int side;
  std::size_t rows;
  std::size_t length;
  bool unpack;
  SixStepTwiddle twiddle;
  bool pack;
  bool scaled;
};

SixStepStep sweep(A from, A to, const SweepSteps& what) {
  SixStepStep step;
  step.op = SixStepStep::Op::sweep;
  step.from = from;
  step.to = to;
  step.side = what.side;
  step.rows = what.rows;
  step.columns = what.length;
  step.unpack = what.unpack;
  step.twiddle = what.twiddle;
  step.pack = what.pack;
  step.scaled = what.scaled;
  return step;
}

// Forward: x = A[n1][n2] by rows n1 -> [n2][n1] rows: FFT N1, twiddle -> [k1][n2] rows: FFT N2
// -> E[k1][k2] (scrambled), -> [k2][k1] rows = X in natural order. An exchange after a local
// transpose into send has our block in send; after a pack, in recv when the exchange allows it
// (`own`).
std::vector<SixStepStep> forward_steps(const SixStepGeometry& geometry, bool own) {
  const std::size_t n1 = geometry.split().n1;
  const std::size_t n2 = geometry.split().n2;
  const std::size_t rows1 = geometry.rows1();
  const std::size_t rows2 = geometry.rows2();
  const bool natural = !geometry.scrambled_output();
  const A rows = natural ? A::work : A::output;
  std::vector<SixStepStep> steps{
      local_transpose(A::input, A::send, rows1, n2, 2),  // send: [n2][n1 local], by n2 owner
      exchange(false),                                   // recv: [n2 local][n1 of the sender]
      sweep(A::work, A::work, {1, rows2, n1, true, SixStepTwiddle::after, true, false}),
      exchange(own),                                 // recv: [n2][k1 local]
      local_transpose(A::recv, rows, n2, rows1, 2),  // rows: [k1 local][n2]
      sweep(rows, rows, {2, rows1, n2, false, SixStepTwiddle::none, natural, true})};
  if (natural) {
    steps.push_back(exchange(own));                                      // recv: [k1][k2 local]
    steps.push_back(local_transpose(A::recv, A::output, n1, rows2, 1));  // [k2 local][k1]
  }
  return steps;
}

// Backward retraces forward with inverse FFTs and conjugate twiddles.
std::vector<SixStepStep> backward_steps(const SixStepGeometry& geometry, bool own) {
  const std::size_t n1 = geometry.split().n1;
  const std::size_t n2 = geometry.split().n2;
  const std::size_t rows1 = geometry.rows1();
  const std::size_t rows2 = geometry.rows2();
  std::vector<SixStepStep> steps;
  if (!geometry.scrambled_output()) {
    steps.push_back(local_transpose(A::input, A::send, rows2, n1, 1));  // send: [k1][k2 local]
    steps.push_back(exchange(false));  // recv: [k1 local][k2 of the sender]
    steps.push_back(
        sweep(A::work, A::work, {2, rows1, n2, true, SixStepTwiddle::none, false, false}));
  } else {
    steps.push_back(
        sweep(A::input, A::work, {2, rows1, n2, false, SixStepTwiddle::none, false, false}));
  }                                                                  // work: [k1 local][n2]
  steps.push_back(local_transpose(A::work, A::send, rows1, n2, 2));  // send: [n2][k1 local]
  steps.push_back(exchange(false));                                  // recv: [n2 local][k1]
  steps.push_back(
      sweep(A::work, A::work, {1, rows2, n1, true, SixStepTwiddle::conjugate_before, true, true}));
  steps.push_back(exchange(own));                                      // recv: [n2][n1 local]
  steps.push_back(local_transpose(A::recv, A::output, n2, rows1, 2));  // out: A[n1 local][n2]
  return steps;
}

// The N1-point FFTs down the columns of `from`, an N1 x N2 matrix, into the same places of `to`.
SixStepStep column_ffts(A from, A to, std::size_t n1, std::size_t n2, bool scaled) {
  SixStepStep step = matrix_step(SixStepStep::Op::column_ffts, from, to, n1, n2, 1);
  step.scaled = scaled;
  return step;
}

// One rank, forward: x = A[n1][n2]; its columns' N1 FFTs -> [k1][n2]; rows k1 twiddled by
// W_N^(n2 k1), then their N2 FFTs -> E[k1][k2] (scrambled); transposed -> [k2][k1] = X natural.
// Scrambled output takes the columns straight to the output and leaves the rows there.
std::vector<SixStepStep> one_rank_forward_steps(const SixStepGeometry& geometry) {
  const std::size_t n1 = geometry.split().n1;
  const std::size_t n2 = geometry.split().n2;
  const bool natural = !geometry.scrambled_output();
  const A rows = natural ? A::work : A::output;
  std::vector<SixStepStep> steps{
      column_ffts(A::input, rows, n1, n2, false),  // rows: [k1][n2]
      sweep(rows, rows, {2, n1, n2, false, SixStepTwiddle::before, false, true})};  // [k1][k2]
  if (natural) steps.push_back(local_transpose(A::work, A::output, n1, n2, 2));     // [k2][k1]
  return steps;
}

// One rank, backward, retracing forward: the rows' inverse N2 FFTs with conjugate twiddles
// after, then the columns' inverse N1 FFTs into the output. The rows never go to the output
// first: with the caller's arrays one (in place), a row copied from the input onto itself would
// be a copy of overlapping bytes.
std::vector<SixStepStep> one_rank_backward_steps(const SixStepGeometry& geometry) {
  const std::size_t n1 = geometry.split().n1;
  const std::size_t n2 = geometry.split().n2;
  std::vector<SixStepStep> steps;
  A from = A::input;
  if (!geometry.scrambled_output()) {
    steps.push_back(local_transpose(A::input, A::work, n2, n1, 2));  // work: [k1][k2]
    from = A::work;
  }
  steps.push_back(
      sweep(from, A::work, {2, n1, n2, false, SixStepTwiddle::conjugate_after, false, false}));
  steps.push_back(column_ffts(A::work, A::output, n1, n2, true));  // out: A[n1][n2]
  return steps;
}

}  // namespace

std::vector<SixStepStep> six_step_schedule(const SixStepGeometry& geometry, bool backward,
                                           bool leaves_own_block) {
  if (geometry.ranks() == 1) {
    return backward ? one_rank_backward_steps(geometry) : one_rank_forward_steps(geometry);
  }
  return backward ? backward_steps(geometry, leaves_own_block)
                  : forward_steps(geometry, leaves_own_block);
}

}  // namespace a2afft::detail::fft
