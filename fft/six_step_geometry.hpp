#pragma once

#include <complex>
#include <cstddef>
#include <string>
#include <vector>

#include "geometry.hpp"

// The 1D six-step FFT's sizes and twiddles. Pure, no MPI, unit-tested.
namespace a2afft::detail::fft {

/// N = N1 * N2 with `ranks` dividing both, as the six-step FFT needs.
struct SixStepSplit {
  std::size_t n1;
  std::size_t n2;
};
/// N1 nearest sqrt(N) (the larger on a tie) among the valid ones; `n1` = 0 chooses, any other
/// value is checked. Throws UsageError naming N, P and valid alternatives (the nearest valid
/// N, or the valid N1 in increasing order) when there is none; a bad `n1` is named as the
/// library's option, Fft1dOptions::n1, which the command maps to its flag.
SixStepSplit choose_six_step_split(std::size_t n, int ranks, std::size_t n1 = 0);

/// The sizes of a six-step FFT of length N = N1 * N2 on P ranks (see SixStep1d), the same on
/// every rank: rank r holds the N/P elements [r N/P, (r+1) N/P), rows of N2 of the N1 x N2
/// matrix; the N1 FFTs run on N2/P rows of N1 per rank, the N2 FFTs on N1/P rows of N2; every
/// transpose moves blocks of N/P^2 elements. Scrambled output skips the last transpose.
class SixStepGeometry {
 public:
  /// `n1` = 0 chooses N1; throws UsageError as choose_six_step_split does.
  SixStepGeometry(std::size_t n, int ranks, std::size_t n1 = 0, bool scrambled_output = false);

  std::size_t length() const { return n_; }
  int ranks() const { return ranks_; }
  const SixStepSplit& split() const { return split_; }
  bool scrambled_output() const { return scrambled_output_; }
  /// Elements on each rank, N/P: the local array and each exchange buffer.
  std::size_t local_length() const { return n_ / static_cast<std::size_t>(ranks_); }
  std::size_t rows1() const { return rows1_; }  // N1/P: rows of the N2 FFTs on a rank
  std::size_t rows2() const { return rows2_; }  // N2/P: rows of the N1 FFTs on a rank
  /// Elements of one block of each of the three transposes, and its bytes when an element is
  /// `element_bytes` (one complex double by default; a batch of k fields of Real: k of them).
  std::size_t block_elements() const { return rows1_ * rows2_; }
  std::size_t block_bytes(std::size_t element_bytes = sizeof(std::complex<double>)) const;

  /// Rank `rank`'s part of the (natural-order) input, as a box of the 1 x 1 x N array.
  BoxRange input_box(int rank) const;
  /// Global index of element i of rank `rank`'s output: the input box's when natural, else
  /// element i * N2 + k2 (i < N1/P, k2 < N2) holds X[(r N1/P + i) + N1 k2].
  std::size_t output_index(int rank, std::size_t i) const;

 private:
  std::size_t n_;
  int ranks_;
  SixStepSplit split_;
  std::size_t rows1_;
  std::size_t rows2_;
  bool scrambled_output_;
};

/// The arrays a six-step step reads or writes: the caller's input and output, the plan's work
/// array and the exchange's send and receive buffers, each N/P points of every field.
enum class SixStepArray { input, output, work, send, recv };
/// When a sweep's rows are twiddled by W_N^(n2 k1): not at all, after their FFTs (forward's N1
/// FFTs on P ranks), conjugated before them (backward's), before them (forward's N2 FFTs on one
/// rank, whose rows are k1) or conjugated after them (backward's on one rank).
enum class SixStepTwiddle { none, after, conjugate_before, before, conjugate_after };

/// One step of a six-step transform (see SixStep1d).
struct SixStepStep {
  enum class Op {
    // `from`, a rows x columns matrix of points, into `to` as columns x rows: an FFTW rank-0
    // plan, one whole pass (transposing a chunk at a time measured 1.5-2x slower).
    local_transpose,
    // send -> recv; `own_in_place`: the last sweep packed our own block straight into recv.
    exchange,
    // `rows` rows of `columns` points, a cache-sized chunk at a time: unpacked from recv (or
    // copied from `from` into `to`), FFT, twiddle, scaling, packed into send (or left in `to`).
    sweep,
    // One rank only: the FFTs of length `rows` (N1) down the `columns` (N2) columns of `from`, a
    // rows x columns matrix of points, into the same places of `to` (maybe `from`): a
    // cache-sized chunk of columns at a time gathered into lines of a scratch, transformed there
    // and scattered back (GatheredColumns), so the transposes around them are not needed.
    column_ffts,
  };
  Op op = Op::sweep;
  SixStepArray from = SixStepArray::work;
  SixStepArray to = SixStepArray::work;
  std::size_t rows = 0;
  std::size_t columns = 0;
  // local_transpose, sweep and column_ffts: whose side it is, 1 (the FFTs of length N1, N2/P
  // rows or N2 columns of them) or 2 (length N2, N1/P rows).
  int side = 1;
  bool own_in_place = false;
  bool unpack = false;
  bool pack = false;
  SixStepTwiddle twiddle = SixStepTwiddle::none;
  bool scaled = false;  // the last FFTs of the direction: scaling applies here
};

/// The steps of one direction of a six-step FFT with `geometry` (natural or scrambled output),
/// in order. Forward: transpose the input into send, exchange, the N1 FFTs (unpacked, twiddled,
/// packed), exchange, transpose into rows, the N2 FFTs (packed when natural), and for natural
/// output one more exchange and transpose into the output. Backward retraces them with inverse
/// FFTs and conjugate twiddles. `leaves_own_block`: the exchange can leave our own block to a
/// pack. On one rank the exchanges are self-copies and the transposes only serve them, so the
/// schedule is three passes (issue 45): forward, the N1 FFTs down the input's columns into the
/// work array, the N2 FFTs of its rows twiddled before, and for natural output one transpose
/// into the output (scrambled: the columns go to the output and the rows stay there); backward
/// retraces them. Pure; SixStep1d runs exactly these steps.
std::vector<SixStepStep> six_step_schedule(const SixStepGeometry& geometry, bool backward,
                                           bool leaves_own_block = false);

/// exp(sign * 2 pi i * m / n), accurate to about one ulp for any m < n (the angle is reduced to
/// the first octant exactly in integers, then sin and cos are taken in long double), so a
/// table of N entries loses no digits at N = 2^30 the way a recurrence would.
std::complex<double> unit_root(std::size_t m, std::size_t n, int sign);

/// a * b, or a * conj(b), in `Real` (double or float). Written out because std::complex's
/// operator* checks for NaN and infinities (C99 Annex G), a library call per element in the
/// twiddle loops.
template <typename Real>
inline std::complex<Real> multiply(const std::complex<Real>& a, const std::complex<Real>& b,
                                   bool conjugate = false) {
  const Real br = b.real();
  const Real bi = conjugate ? -b.imag() : b.imag();
  return {a.real() * br - a.imag() * bi, a.real() * bi + a.imag() * br};
}

/// W_N^m = exp(-2 pi i m / N) for any m < N from two small tables of exact roots: the low
/// bits of m index W_N^(m mod L), the high bits W_N^(L floor(m / L)), with L a power of two
/// near sqrt(N). Their product is within a few ulp, and the tables (2 sqrt(N) entries) stay in
/// cache where a full table of N/P entries would be one more stream through memory.
class TwiddleTable {
 public:
  explicit TwiddleTable(std::size_t n);
  std::complex<double> operator()(std::size_t m) const {
    return multiply(high_[m >> low_bits_], low_[m & low_mask_]);
  }

 private:
  unsigned low_bits_ = 0;
  std::size_t low_mask_ = 0;
  std::vector<std::complex<double>> low_;
  std::vector<std::complex<double>> high_;
};

}  // namespace a2afft::detail::fft
