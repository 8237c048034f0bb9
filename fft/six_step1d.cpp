// The six-step 1D FFT (Bailey's algorithm, as in HPCC's MPIFFT and the seeds' FFT application)
// with every transpose through one Exchange. Of the three transposes, the first packs rows
// into blocks, the second needs no pack (the column FFTs write [k1][n2] whose row blocks are
// the messages), and the third ends in one transposing FFTW copy. The twiddles and the row FFTs
// run on a few rows at a time right after their unpack, while the rows are in cache.
#include "six_step1d.hpp"

#include <algorithm>

#include "error.hpp"
#include "gather.hpp"
#include "registry.hpp"

namespace a2afft::fft {
namespace {

// Rows handled per timed chunk: about 256 KiB, so they are still in cache for the next step.
std::size_t rows_per_chunk(std::size_t row_length) {
  return std::max<std::size_t>(1, (std::size_t{256} << 10) / (row_length * sizeof(Complex)));
}

// a * b, or a * conj(b); written out because std::complex's operator* checks for NaN and
// infinities (C99 Annex G), which costs a library call per element here.
inline Complex multiply(const Complex& a, const Complex& b, bool conjugate) {
  const double br = b.real();
  const double bi = conjugate ? -b.imag() : b.imag();
  return {a.real() * br - a.imag() * bi, a.real() * bi + a.imag() * br};
}

}  // namespace

SixStep1d::SixStep1d(const Topology& topology, std::size_t n, const SixStep1dOptions& options)
    : comm_(topology.comm()),
      rank_(topology.rank()),
      ranks_(topology.size()),
      n_(n),
      split_(choose_six_step_split(n, topology.size(), options.n1)),
      rows1_(split_.n1 / static_cast<std::size_t>(ranks_)),
      rows2_(split_.n2 / static_cast<std::size_t>(ranks_)),
      options_(options) {
  const std::size_t local = n / static_cast<std::size_t>(ranks_);
  const Spec spec = parse_spec(options.exchange);
  const ExchangeProblem problem{topology, rows1_ * rows2_ * sizeof(Complex)};
  if (const std::string why = exchange_refusal(spec, problem); !why.empty()) {
    throw UsageError(spec.to_string() + " cannot run the six-step transposes: " + why);
  }
  exchange_ = make_exchange(spec, problem);
  data_.resize(local);
  send_.resize(local);
  recv_.resize(local);

  const std::size_t n1 = split_.n1;
  const std::size_t n2 = split_.n2;
  const std::size_t first_k1 = static_cast<std::size_t>(rank_) * rows1_;
  twiddles_.resize(local);
  for (std::size_t i = 0; i < rows1_; ++i) {
    for (std::size_t j = 0; j < n2; ++j) {
      twiddles_[i * n2 + j] = unit_root((first_k1 + i) * j, n, -1);  // (k1 n2) < N, exact
    }
  }

  const auto s = [](std::size_t v) { return static_cast<std::ptrdiff_t>(v); };
  for (const Direction direction : {Direction::forward, Direction::backward}) {
    const auto d = static_cast<std::size_t>(direction == Direction::backward);
    column_plans_[d] = FftwPlan({{s(n1), s(rows2_)}}, {{s(rows2_), 1}}, recv_.data(), send_.data(),
                                direction, options.rigor);
    row_plans_[d] =
        FftwPlan({{s(n2), 1}}, {}, data_.data(), data_.data(), direction, options.rigor);
  }
  // Rank-0 plans are FFTW's cache-oblivious strided copies: here, local transposes.
  gather_transpose_ = FftwPlan({}, {{s(n1), s(rows2_), 1}, {s(rows2_), 1, s(n1)}}, recv_.data(),
                               data_.data(), Direction::forward, options.rigor);
  scatter_transpose_ = FftwPlan({}, {{s(rows2_), s(n1), 1}, {s(n1), 1, s(rows2_)}}, data_.data(),
                                send_.data(), Direction::forward, options.rigor);
}

SixStep1d::~SixStep1d() = default;

Box3 SixStep1d::input_box() const {
  const std::size_t local = n_ / static_cast<std::size_t>(ranks_);
  return {{0, 0, static_cast<std::size_t>(rank_) * local}, {1, 1, local}};
}

std::size_t SixStep1d::output_index(std::size_t i) const {
  const std::size_t local = n_ / static_cast<std::size_t>(ranks_);
  if (!options_.scrambled_output) return static_cast<std::size_t>(rank_) * local + i;
  const std::size_t k1 = static_cast<std::size_t>(rank_) * rows1_ + i / split_.n2;
  return k1 + split_.n1 * (i % split_.n2);
}

std::vector<Complex> SixStep1d::gather_output() const {
  // Every rank's raw block, in rank order; then each element goes to its output_index().
  std::vector<Complex> blocks = gather_global(data_.data(), input_box(), {1, 1, n_}, comm_);
  if (!options_.scrambled_output || blocks.empty()) return blocks;
  std::vector<Complex> natural(n_);
  const std::size_t local = n_ / static_cast<std::size_t>(ranks_);
  for (std::size_t owner = 0; owner < static_cast<std::size_t>(ranks_); ++owner) {
    for (std::size_t i = 0; i < local; ++i) {
      const std::size_t k1 = owner * rows1_ + i / split_.n2;
      natural[k1 + split_.n1 * (i % split_.n2)] = blocks[owner * local + i];
    }
  }
  return natural;
}

void SixStep1d::exchange() {
  const ScopedPhase timed(timer_, "transpose");
  exchange_->run(reinterpret_cast<const std::byte*>(send_.data()),
                 reinterpret_cast<std::byte*>(recv_.data()));
}

// Row i's part of exchange block b is the run of N2/P elements at b * (N1/P * N2/P) + i * N2/P
// in both buffers: rows go from data_ to send_, or come from recv_ into data_.
void SixStep1d::copy_rows(std::size_t first, std::size_t last, bool into_rows) {
  const std::size_t n2 = split_.n2;
  const std::size_t block = rows1_ * rows2_;
  for (std::size_t i = first; i < last; ++i) {
    for (std::size_t b = 0; b < static_cast<std::size_t>(ranks_); ++b) {
      Complex* row_part = data_.data() + i * n2 + b * rows2_;
      if (into_rows) {
        std::copy_n(recv_.data() + b * block + i * rows2_, rows2_, row_part);
      } else {
        std::copy_n(row_part, rows2_, send_.data() + b * block + i * rows2_);
      }
    }
  }
}

// A sweep over this rank's rows of an N1 x N2 matrix in data_, a chunk at a time: unpack the
// rows from the last exchange, transform them with their twiddles (before a forward FFT, after
// a backward one) and pack them for the next exchange, while the chunk is in cache.
void SixStep1d::rows(bool backward, bool unpack_first) {
  const std::size_t n2 = split_.n2;
  const FftwPlan& fft = row_plans_[backward ? 1 : 0];
  const std::size_t chunk = rows_per_chunk(n2);
  for (std::size_t first = 0; first < rows1_; first += chunk) {
    const std::size_t last = std::min(rows1_, first + chunk);
    if (unpack_first) {
      const ScopedPhase timed(timer_, "transpose");
      copy_rows(first, last, true);
    }
    {
      const ScopedPhase timed(timer_, "compute");
      for (std::size_t i = first; i < last; ++i) {
        Complex* row = data_.data() + i * n2;
        const Complex* twiddle = twiddles_.data() + i * n2;
        if (!backward) {
          for (std::size_t j = 0; j < n2; ++j)
            row[j] = multiply(row[j], twiddle[j], false);
        }
        fft.execute(row, row);
        if (backward) {
          for (std::size_t j = 0; j < n2; ++j)
            row[j] = multiply(row[j], twiddle[j], true);
        }
      }
    }
    if (backward || !options_.scrambled_output) {
      const ScopedPhase timed(timer_, "transpose");
      copy_rows(first, last, false);
    }
  }
}

void SixStep1d::forward() {
  {
    const ScopedPhase timed(timer_, "transpose");
    copy_rows(0, rows1_, false);  // x as rows n1 of [n1][n2] -> blocks by receiver's n2
  }
  exchange();  // recv: [n1][n2 local]
  {
    const ScopedPhase timed(timer_, "compute");
    column_plans_[0].execute();  // -> send: [k1][n2 local], row blocks by receiver
  }
  exchange();         // recv: blocks [k1 local][n2 of the sender]
  rows(false, true);  // data: [k1 local][k2]; send: blocks [k1 local][k2 of the receiver]
  if (options_.scrambled_output) return;
  exchange();  // recv: [k1][k2 local]
  const ScopedPhase timed(timer_, "transpose");
  gather_transpose_.execute();  // data: [k2 local][k1] = X in natural order
}

void SixStep1d::backward() {
  if (!options_.scrambled_output) {
    {
      const ScopedPhase timed(timer_, "transpose");
      scatter_transpose_.execute();  // send: [k1][k2 local], row blocks by receiver
    }
    exchange();  // recv: blocks [k1 local][k2 of the sender]
  }
  rows(true, !options_.scrambled_output);  // send: blocks [k1 local][n2 of the receiver]
  exchange();                              // recv: [k1][n2 local]
  {
    const ScopedPhase timed(timer_, "compute");
    column_plans_[1].execute();  // -> send: [n1][n2 local], row blocks by receiver
  }
  exchange();  // recv: blocks [n1 local][n2 of the sender]
  const ScopedPhase timed(timer_, "transpose");
  copy_rows(0, rows1_, true);
}

std::string SixStep1d::describe() const {
  return "sixstep(N1=" + std::to_string(split_.n1) + ",N2=" + std::to_string(split_.n2) +
         (options_.scrambled_output ? ",scrambled" : "") + "): " + exchange_->describe();
}

}  // namespace a2afft::fft
