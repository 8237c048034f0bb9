// The six-step 1D FFT (Bailey's algorithm [bailey-1990], as in HPCC's MPIFFT [hpcc-2006] and the
// FFT application of [tra-2024])
// with every transpose through one ExchangePlan. Every FFT runs on contiguous rows (strided column
// FFTs measured ~5x slower). A global transpose is a local transpose (an FFTW rank-0 plan) on
// one side, and on the other the packing or unpacking of rows as runs of N1/P or N2/P
// elements, fused into a sweep of row FFTs a cache-sized chunk of rows at a time: besides the
// exchange, one pass over memory.
//   cost per transform: 3 exchanges of N/P^2-element blocks, 5 N/P log2 N flops per rank.
//   parameters: the exchange spec (one plan serves all three), N1 (N2 = N/N1), output order,
//   precision, batch (k interleaved fields: blocks of k N/P^2 complex numbers, one exchange for
//   all fields per transpose).
#include "six_step1d.hpp"

#include <algorithm>
#include <stdexcept>

#include "copy_bytes.hpp"
#include "error.hpp"
#include "registry.hpp"

namespace a2afft::detail::fft {
namespace {

// Rows handled per timed chunk: about 256 KiB, so they are still in cache for the next step.
std::size_t rows_per_chunk(std::size_t row_bytes) {
  return std::max<std::size_t>(1, (std::size_t{256} << 10) / row_bytes);
}

// The interleaved fields of a batch, as FFTW's innermost howmany loop (none for one field).
std::vector<Stride> fields_loop(std::size_t batch) {
  if (batch == 1) return {};
  return {{static_cast<std::ptrdiff_t>(batch), 1, 1}};
}

}  // namespace

template <typename Real>
BasicSixStep1d<Real>::BasicSixStep1d(const Topology& topology, std::size_t n,
                                     const SixStep1dOptions& options)
    : rank_(topology.rank()),
      geometry_(n, topology.size(), options.n1, options.scrambled_output),
      options_(options),
      twiddles_(n) {
  if (options.batch == 0) throw std::logic_error("a six-step plan of a batch of 0 fields");
  const std::size_t batch = options.batch;
  const std::size_t local = local_scalars();
  const Spec& spec = options.exchange;
  // Every sweep that packs unpacks in step with it (one run length per row), so all three
  // transposes can leave our own block in place: auto times its candidates that way.
  const ExchangeProblem problem{topology, geometry_.block_bytes(batch * sizeof(Complex)), true};
  if (const std::string why = exchange_refusal(spec, problem); !why.empty()) {
    throw UsageError(spec.to_string() + " cannot run the six-step transposes: " + why);
  }
  exchange_ = make_exchange(spec, problem);
  work_ = ExchangeArray<Complex>(nullptr, local);
  send_ = ExchangeArray<Complex>(exchange_.get(), local);
  recv_ = ExchangeArray<Complex>(exchange_.get(), local);

  const std::size_t n1 = geometry_.split().n1;
  const std::size_t n2 = geometry_.split().n2;
  const auto s = [](std::size_t v) { return static_cast<std::ptrdiff_t>(v); };
  const std::ptrdiff_t b = s(batch);
  Complex* work = work_.data();
  // A row of length L starts L * batch complex numbers after the last: rows at offsets FFTW's
  // SIMD alignment does not divide (float, odd L * batch) need plans made for any alignment.
  const auto aligned = [&](std::size_t length) {
    return length * batch * sizeof(Complex) % 16 == 0;
  };
  for (const Direction direction : {Direction::forward, Direction::backward}) {
    const auto d = static_cast<std::size_t>(direction == Direction::backward);
    n1_plans_[d] = FftwPlan<Real>({{s(n1), b}}, fields_loop(batch), work, work, direction,
                                  options.rigor, aligned(n1));
    n2_plans_[d] = FftwPlan<Real>({{s(n2), b}}, fields_loop(batch), work, work, direction,
                                  options.rigor, aligned(n2));
  }
  // Rank-0 plans are FFTW's strided copies, here whole local transposes of a rows x columns
  // matrix of points (transposing a chunk of rows at a time inside a sweep measured 1.5-2x
  // slower; gathering each chunk of rows from recv's columns inside the next sweep, one pass
  // fewer, measured no faster in the reference runs: docs/results/local-fft-limits.md), a
  // point's fields copied together as the innermost loop. The arrays are whole
  // (work_, the exchange buffers, the caller's), so always aligned alike.
  const auto transpose = [&](std::size_t rows, std::size_t columns, Complex* from, Complex* to) {
    std::vector<Stride> loops{{s(rows), s(columns) * b, b}, {s(columns), b, s(rows) * b}};
    for (const Stride& fields : fields_loop(batch))
      loops.push_back(fields);
    return FftwPlan<Real>({}, loops, from, to, Direction::forward, options.rigor);
  };
  recv_to_rows_[0] = transpose(n1, geometry_.rows2(), recv_.data(), work);
  recv_to_rows_[1] = transpose(n2, geometry_.rows1(), recv_.data(), work);
  rows_to_send_[0] = transpose(geometry_.rows2(), n1, work, send_.data());
  rows_to_send_[1] = transpose(geometry_.rows1(), n2, work, send_.data());
  const bool leaves_own_block = own_in_place() == Own::in_place;
  forward_steps_ = six_step_schedule(geometry_, false, leaves_own_block);
  backward_steps_ = six_step_schedule(geometry_, true, leaves_own_block);
}

template <typename Real>
BasicSixStep1d<Real>::~BasicSixStep1d() = default;

template <typename Real>
void BasicSixStep1d<Real>::exchange(Own own) {
  const ScopedPhase timed(timer_, "transpose");
  const auto* send = reinterpret_cast<const std::byte*>(send_.data());
  auto* recv = reinterpret_cast<std::byte*>(recv_.data());
  if (own == Own::in_place) {
    exchange_->run_others(send, recv);
  } else {
    exchange_->run(send, recv);
  }
}

// Rows [first, last) of `rows`, each of P runs of length/P points: run b of row i is at point
// b * (N1/P * N2/P) + i * length/P in the exchange buffers. Rows go to send_ or come from recv_.
// A point is `batch` complex numbers, so every offset and length is scaled by it.
template <typename Real>
void BasicSixStep1d<Real>::copy_runs(const SixStepStep& sweep, Complex* rows, std::size_t first,
                                     std::size_t last, bool into_rows) {
  const std::size_t batch = options_.batch;
  const std::size_t block = geometry_.block_elements() * batch;
  const std::size_t run = sweep.columns / static_cast<std::size_t>(geometry_.ranks()) * batch;
  for (std::size_t i = first; i < last; ++i) {
    for (std::size_t b = 0; b < static_cast<std::size_t>(geometry_.ranks()); ++b) {
      Complex* row_part = rows + i * sweep.columns * batch + b * run;
      if (into_rows) {
        copy_elements(row_part, recv_.data() + b * block + i * run, run);
      } else {
        // Our own block goes straight to where the exchange would have put it. In a sweep that
        // also unpacks, rows [first, last) were just read from the same places (one run length
        // per sweep), so nothing still unread is overwritten.
        Complex* blocks = own_in_place() == Own::in_place && b == static_cast<std::size_t>(rank_)
                              ? recv_.data()
                              : send_.data();
        copy_elements(blocks + b * block + i * run, row_part, run);
      }
    }
  }
}

template <typename Real>
void BasicSixStep1d<Real>::local_transpose(const FftwPlan<Real>& plan, const Complex* from,
                                           Complex* to) {
  const ScopedPhase timed(timer_, "transpose");
  plan.execute(from, to);
}

// One pass over the rows, a cache-sized chunk at a time: unpack them from the last exchange into
// `to` (or copy them there from `from`), transform them with their twiddles, scale them and
// pack them for the next exchange.
//
// Twiddles come from the double table for float as well, rounded to float once: a float
// table would round W_N^(m mod L) and W_N^(L floor(m / L)) and then their product, three
// roundings per twiddle against one, and the double table (2 sqrt(N) entries, 32 KiB at
// N = 2^20) stays in cache all the same. Each twiddle then serves all fields of its point.
template <typename Real>
void BasicSixStep1d<Real>::sweep(const SixStepStep& sweep, bool backward, const Complex* from,
                                 Complex* to) {
  const std::size_t batch = options_.batch;
  const std::size_t length = sweep.columns;
  const std::size_t row_scalars = length * batch;
  const std::size_t chunk = rows_per_chunk(row_scalars * sizeof(Complex));
  const Direction direction = backward ? Direction::backward : Direction::forward;
  const double scale_value =
      sweep.scaled ? scale_factor(options_.scaling, direction, geometry_.length()) : 1.0;
  const auto scale = static_cast<Real>(scale_value);
  const FftwPlan<Real>& fft = (sweep.side == 1 ? n1_plans_ : n2_plans_)[backward ? 1 : 0];
  for (std::size_t first = 0; first < sweep.rows; first += chunk) {
    const std::size_t last = std::min(sweep.rows, first + chunk);
    if (sweep.unpack) {
      const ScopedPhase timed(timer_, "transpose");
      copy_runs(sweep, to, first, last, true);
    }
    {
      const ScopedPhase timed(timer_, "compute");
      for (std::size_t i = first; i < last; ++i) {
        Complex* row = to + i * row_scalars;
        // Row i of the N1 FFTs is n2 = r N2/P + i; its twiddle exponents n2 k1 stay below N.
        const std::size_t n2 = static_cast<std::size_t>(rank_) * geometry_.rows2() + i;
        const auto twiddle = [&](bool conjugate) {
          for (std::size_t k = 0, m = 0; k < length; ++k, m += n2) {
            const Complex w(twiddles_(m));
            for (std::size_t f = 0; f < batch; ++f)
              row[k * batch + f] = multiply(row[k * batch + f], w, conjugate);
          }
        };
        if (sweep.twiddle == SixStepTwiddle::conjugate_before) twiddle(true);  // after an unpack
        // Rows no unpack brought are copied in while in cache: in-place plans are the fast ones.
        if (!sweep.unpack && from != to) copy_elements(row, from + i * row_scalars, row_scalars);
        fft.execute(row, row);
        if (sweep.twiddle == SixStepTwiddle::after) twiddle(false);
        if (scale_value != 1.0) {
          for (std::size_t k = 0; k < row_scalars; ++k)
            row[k] *= scale;
        }
      }
    }
    if (sweep.pack) {
      const ScopedPhase timed(timer_, "transpose");
      copy_runs(sweep, to, first, last, false);
    }
  }
}

// The steps six_step_schedule() laid out (its comments follow the data), on the caller's arrays.
template <typename Real>
void BasicSixStep1d<Real>::run(const std::vector<SixStepStep>& steps, bool backward,
                               const Complex* in, Complex* out) {
  const auto array = [&](SixStepArray which) -> Complex* {
    switch (which) {
      case SixStepArray::input:
        return const_cast<Complex*>(in);  // only ever read
      case SixStepArray::output:
        return out;
      case SixStepArray::work:
        return work_.data();
      case SixStepArray::send:
        return send_.data();
      case SixStepArray::recv:
        return recv_.data();
    }
    throw std::logic_error("a six-step step names no array");
  };
  for (const SixStepStep& step : steps) {
    switch (step.op) {
      case SixStepStep::Op::local_transpose: {
        const std::size_t side = step.side == 1 ? 0 : 1;
        const FftwPlan<Real>& plan =
            step.to == SixStepArray::send ? rows_to_send_[side] : recv_to_rows_[side];
        local_transpose(plan, array(step.from), array(step.to));
        break;
      }
      case SixStepStep::Op::exchange:
        exchange(step.own_in_place ? Own::in_place : Own::sent);
        break;
      case SixStepStep::Op::sweep:
        sweep(step, backward, array(step.from), array(step.to));
        break;
    }
  }
}

template <typename Real>
void BasicSixStep1d<Real>::forward(const Complex* in, Complex* out) {
  check_fftw_alignment(in, "forward's input");
  check_fftw_alignment(out, "forward's output");
  run(forward_steps_, false, in, out);
}

// Backward retraces forward's steps with inverse FFTs and conjugate twiddles.
template <typename Real>
void BasicSixStep1d<Real>::backward(const Complex* in, Complex* out) {
  check_fftw_alignment(in, "backward's input");
  check_fftw_alignment(out, "backward's output");
  run(backward_steps_, true, in, out);
}

template <typename Real>
TransformTraffic BasicSixStep1d<Real>::traffic(bool backward) const {
  const std::size_t element_bytes = options_.batch * sizeof(Complex);
  TransformTraffic traffic;
  traffic.bytes_moved =
      six_step_bytes_moved(geometry_, backward ? backward_steps_ : forward_steps_, element_bytes);
  traffic.array_bytes = geometry_.local_length() * element_bytes;
  traffic.memory_passes =
      static_cast<double>(traffic.bytes_moved) / static_cast<double>(traffic.array_bytes);
  return traffic;
}

template <typename Real>
std::size_t BasicSixStep1d<Real>::workspace_bytes() const {
  return (work_.size() + send_.size() + recv_.size()) * sizeof(Complex);
}

template <typename Real>
std::string BasicSixStep1d<Real>::describe() const {
  return "sixstep(N1=" + std::to_string(geometry_.split().n1) +
         ",N2=" + std::to_string(geometry_.split().n2) +
         (geometry_.scrambled_output() ? ",scrambled" : "") + "): " + exchange_->describe();
}

template class BasicSixStep1d<double>;
template class BasicSixStep1d<float>;

}  // namespace a2afft::detail::fft
