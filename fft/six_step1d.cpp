// The six-step 1D FFT (Bailey's algorithm [bailey-1990], as in HPCC's MPIFFT [hpcc-2006] and the
// FFT application of [tra-2024])
// with every transpose through one ExchangePlan. Every FFT runs on contiguous rows (strided column
// FFTs measured ~5x slower). A global transpose is a local transpose (an FFTW rank-0 plan) on
// one side, and on the other the packing or unpacking of rows as runs of N1/P or N2/P
// elements, fused into a sweep of row FFTs a cache-sized chunk of rows at a time: besides the
// exchange, one pass over memory.
// On one rank there is nothing to exchange: the N1 FFTs run down the columns instead, each chunk
// of columns first gathered into contiguous lines of a scratch (GatheredColumns), then the
// twiddled row FFTs and one local transpose (issue 45).
//   cost per transform: 3 exchanges of N/P^2-element blocks, 5 N/P log2 N flops per rank.
//   parameters: the exchange spec (one plan serves all three), N1 (N2 = N/N1), output order,
//   precision, batch (k interleaved fields: blocks of k N/P^2 complex numbers, one exchange for
//   all fields per transpose).
#include "six_step1d.hpp"

#include <algorithm>
#include <stdexcept>

#include "error.hpp"
#include "make_exchange.hpp"

namespace a2afft::detail::fft {
namespace {

// Rows handled per timed chunk: about 256 KiB, so they are still in cache for the next step.
std::size_t rows_per_chunk(std::size_t row_bytes) {
  return std::max<std::size_t>(1, (std::size_t{256} << 10) / row_bytes);
}

// The program's name of a six-step step's array.
ProgramArray array_of(SixStepArray array) {
  switch (array) {
    case SixStepArray::input:
      return ProgramArray::input;
    case SixStepArray::output:
      return ProgramArray::output;
    case SixStepArray::work:
      return ProgramArray::work;
    case SixStepArray::send:
      return ProgramArray::send;
    case SixStepArray::recv:
      return ProgramArray::recv;
  }
  throw std::logic_error("a six-step step names no array");
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
  leaves_own_block_ = exchange_->can_leave_own_block();
  work_ = ExchangeArray<Complex>(nullptr, local);
  // One rank's schedule runs no exchange (six_step_schedule): no buffers for it.
  if (geometry_.ranks() > 1) {
    send_ = ExchangeArray<Complex>(exchange_.get(), local);
    recv_ = ExchangeArray<Complex>(exchange_.get(), local);
  }
  // A row of length L starts L * batch complex numbers after the last: rows at offsets FFTW's
  // SIMD alignment does not divide (float, odd L * batch) need plans made for any alignment.
  const auto s = [](std::size_t v) { return static_cast<std::ptrdiff_t>(v); };
  const auto row_fft = [&](std::size_t length, Direction direction) {
    const bool aligned = length * batch * sizeof(Complex) % 16 == 0;
    return PlaneFft<Real>(FftwPlan<Real>({{s(length), s(batch)}}, fields_loop(batch), work_.data(),
                                         work_.data(), direction, options.rigor, aligned));
  };
  row_ffts_.reserve(4);
  for (const Direction direction : {Direction::forward, Direction::backward}) {
    for (const std::size_t length : {geometry_.split().n1, geometry_.split().n2})
      row_ffts_.push_back(row_fft(length, direction));
  }
  plan_local_transposes();
  if (geometry_.ranks() == 1) plan_columns();
  threads_.count = options.threads;
  start_threads(options.threads);
  forward_ = compile(six_step_schedule(geometry_, false, leaves_own_block_), false);
  backward_ = compile(six_step_schedule(geometry_, true, leaves_own_block_), true);
}

template <typename Real>
BasicSixStep1d<Real>::~BasicSixStep1d() = default;

// Rank-0 plans are FFTW's strided copies, here whole local transposes of a rows x columns matrix
// of points (transposing a chunk of rows at a time inside a sweep measured 1.5-2x slower;
// gathering each chunk of rows from recv's columns inside the next sweep, one pass fewer,
// measured no faster in the reference runs: docs/results/local-fft-limits.md), a point's fields
// copied together as the innermost loop. The arrays are whole (work_, the exchange buffers, the
// caller's), so always aligned alike.
template <typename Real>
void BasicSixStep1d<Real>::plan_local_transposes() {
  const auto s = [](std::size_t v) { return static_cast<std::ptrdiff_t>(v); };
  const std::ptrdiff_t b = s(options_.batch);
  const auto transpose = [&](std::size_t rows, std::size_t columns, Complex* from, Complex* to) {
    std::vector<Stride> loops{{s(rows), s(columns) * b, b}, {s(columns), b, s(rows) * b}};
    for (const Stride& fields : fields_loop(options_.batch))
      loops.push_back(fields);
    // A copy: the same bits on any number of FFTW's threads.
    return FftwPlan<Real>({}, loops, from, to, Direction::forward, options_.rigor, true,
                          options_.threads);
  };
  const std::size_t n1 = geometry_.split().n1;
  const std::size_t n2 = geometry_.split().n2;
  if (geometry_.ranks() == 1) {
    // Only [N1][N2] -> [N2][N1] forward and back, between work_ and the caller's array, which
    // a plan made now cannot name: a temporary array stands in (MEASURE writes to both).
    const ExchangeArray<Complex> caller(nullptr, work_.size());
    rows_to_send_[1] = transpose(n1, n2, work_.data(), caller.data());
    recv_to_rows_[1] = transpose(n2, n1, caller.data(), work_.data());
    return;
  }
  recv_to_rows_[0] = transpose(n1, geometry_.rows2(), recv_.data(), work_.data());
  recv_to_rows_[1] = transpose(n2, geometry_.rows1(), recv_.data(), work_.data());
  rows_to_send_[0] = transpose(geometry_.rows2(), n1, work_.data(), send_.data());
  rows_to_send_[1] = transpose(geometry_.rows1(), n2, work_.data(), send_.data());
}

// One rank's N1 FFTs down the N2 columns of an N1 x N2 matrix (six_step_schedule), each point's
// fields as columns of their own: N2 * batch columns side by side, a line's points N2 * batch
// apart. Only the FFTs in the scratch are FFTW plans: they run on any arrays.
template <typename Real>
void BasicSixStep1d<Real>::plan_columns() {
  const std::size_t columns = geometry_.split().n2 * options_.batch;
  const Stride line{static_cast<std::ptrdiff_t>(geometry_.split().n1),
                    static_cast<std::ptrdiff_t>(columns)};
  for (const Direction direction : {Direction::forward, Direction::backward}) {
    columns_[direction == Direction::forward ? 0 : 1] = std::make_unique<GatheredColumns<Real>>(
        line, columns, direction, options_.rigor, options_.threads);
  }
}

// The steps six_step_schedule() laid out (its comments follow the data), as plane operations.
template <typename Real>
PlaneProgram<Real> BasicSixStep1d<Real>::compile(const std::vector<SixStepStep>& steps,
                                                 bool backward) const {
  PlaneProgram<Real> program;
  for (const SixStepStep& step : steps) {
    switch (step.op) {
      case SixStepStep::Op::local_transpose:
        program.emplace_back(transpose_sweep(step));
        break;
      case SixStepStep::Op::exchange:
        program.emplace_back(ExchangeRun{exchange_.get(), step.own_in_place,
                                         geometry_.block_bytes(options_.batch * sizeof(Complex)),
                                         static_cast<std::size_t>(geometry_.ranks())});
        break;
      case SixStepStep::Op::sweep:
        program.emplace_back(row_sweep(step, backward));
        break;
      case SixStepStep::Op::column_ffts:
        add_column_sweeps(step, backward, program);
        break;
    }
  }
  return program;
}

// The plan of the step's shape: rows_to_send_ transposes rows x columns as its rows, the rows of
// the FFTs on a rank (N2/P or N1/P), recv_to_rows_ the other way (on one rank, only side 2's
// plans exist).
template <typename Real>
Sweep<Real> BasicSixStep1d<Real>::transpose_sweep(const SixStepStep& step) const {
  const std::size_t side = step.side == 1 ? 0 : 1;
  const std::size_t rows = step.side == 1 ? geometry_.rows2() : geometry_.rows1();
  const FftwPlan<Real>& plan = step.rows == rows ? rows_to_send_[side] : recv_to_rows_[side];
  if (step.rows * step.columns != geometry_.local_length()) {
    throw std::logic_error("a six-step local transpose of another size than the local array");
  }
  const std::size_t bytes = local_scalars() * sizeof(Complex);
  return {
      1, 1, false, {LocalTranspose<Real>{&plan, array_of(step.from), array_of(step.to), bytes}}};
}

// One pass over the rows, a cache-sized chunk at a time: unpack them from the last exchange into
// `to` (or copy them there from `from` while in cache: in-place plans are the fast ones),
// transform them with their twiddles, scale them and pack them for the next exchange.
template <typename Real>
Sweep<Real> BasicSixStep1d<Real>::row_sweep(const SixStepStep& step, bool backward) const {
  const std::size_t batch = options_.batch;
  const std::size_t row_bytes = step.columns * batch * sizeof(Complex);
  const auto parts = static_cast<std::size_t>(geometry_.ranks());
  const std::size_t run_bytes = row_bytes / parts;
  const std::size_t block_bytes = geometry_.block_bytes(batch * sizeof(Complex));
  const ProgramArray to = array_of(step.to);
  const Planes rows{to, row_bytes};
  const std::size_t first_row = static_cast<std::size_t>(rank_) * geometry_.rows2();
  Sweep<Real> sweep{step.rows, rows_per_chunk(row_bytes), false, {}};
  std::vector<PlaneOp<Real>>& ops = sweep.ops;
  if (step.unpack) ops.push_back(UnpackRows{to, row_bytes, run_bytes, block_bytes, parts});
  if (!step.unpack && step.from != step.to) {
    ops.push_back(
        MoveRuns{Phase::compute, {array_of(step.from), row_bytes}, 0, rows, 0, 1, row_bytes});
  }
  // Row `first_row` + i times point k: W_N^(n2 k1) whichever of n2, k1 the rows are.
  const auto twiddle = [&](bool conjugate) {
    ops.push_back(Twiddle<Real>{&twiddles_, rows, step.columns, batch, first_row, conjugate});
  };
  const SixStepTwiddle when = step.twiddle;
  if (when == SixStepTwiddle::conjugate_before || when == SixStepTwiddle::before) {
    twiddle(when == SixStepTwiddle::conjugate_before);
  }
  const std::size_t fft = (backward ? 2 : 0) + (step.side == 1 ? 0 : 1);
  ops.push_back(InPlaceFft<Real>{&row_ffts_[fft], rows, row_bytes});
  if (when == SixStepTwiddle::after || when == SixStepTwiddle::conjugate_after) {
    twiddle(when == SixStepTwiddle::conjugate_after);
  }
  const Direction direction = backward ? Direction::backward : Direction::forward;
  const double scale =
      step.scaled ? scale_factor(options_.scaling, direction, geometry_.length()) : 1.0;
  if (scale != 1.0) {
    ops.push_back(Scale<Real>{rows, 1, 0, row_bytes / sizeof(Real), static_cast<Real>(scale)});
  }
  const int own = leaves_own_block_ ? rank_ : -1;
  if (step.pack) ops.push_back(PackRows{to, row_bytes, run_bytes, block_bytes, parts, own});
  return sweep;
}

// One rank's column FFTs: a sweep of whole chunks of columns (the threads split them), and one
// of the narrower last chunk when the width does not divide the columns, each chunk through a
// scratch and scaled there when these are the direction's last FFTs.
template <typename Real>
void BasicSixStep1d<Real>::add_column_sweeps(const SixStepStep& step, bool backward,
                                             PlaneProgram<Real>& program) const {
  const GatheredColumns<Real>& columns = *columns_[backward ? 1 : 0];
  const Direction direction = backward ? Direction::backward : Direction::forward;
  const double scale =
      step.scaled ? scale_factor(options_.scaling, direction, geometry_.length()) : 1.0;
  const std::size_t column_bytes = step.rows * sizeof(Complex);  // a column's N1 points
  const auto chunks = [&](std::size_t first, std::size_t count, std::size_t width) {
    const ColumnChunk<Real> op{&columns, array_of(step.from),  array_of(step.to),
                               first,    width * column_bytes, static_cast<Real>(scale)};
    program.emplace_back(Sweep<Real>{count, 1, false, {op}});
  };
  chunks(0, columns.whole_chunks(), columns.width());
  if (columns.tail_width() != 0) chunks(columns.whole_chunks(), 1, columns.tail_width());
}

template <typename Real>
ProgramArrays BasicSixStep1d<Real>::arrays(const Complex* in, Complex* out) const {
  const auto bytes = [](const Complex* array) {
    return reinterpret_cast<std::byte*>(const_cast<Complex*>(array));  // the input is only read
  };
  return {bytes(in), bytes(out), bytes(work_.data()), bytes(send_.data()), bytes(recv_.data()),
          nullptr,   nullptr};
}

template <typename Real>
void BasicSixStep1d<Real>::forward(const Complex* in, Complex* out) {
  check_fftw_alignment(in, "forward's input");
  check_fftw_alignment(out, "forward's output");
  run_program(forward_, arrays(in, out), timer_, counter_, threads_);
}

// Backward retraces forward's steps with inverse FFTs and conjugate twiddles.
template <typename Real>
void BasicSixStep1d<Real>::backward(const Complex* in, Complex* out) {
  check_fftw_alignment(in, "backward's input");
  check_fftw_alignment(out, "backward's output");
  run_program(backward_, arrays(in, out), timer_, counter_, threads_);
}

template <typename Real>
TransformTraffic BasicSixStep1d<Real>::traffic(bool backward) const {
  const std::size_t element_bytes = options_.batch * sizeof(Complex);
  const TrafficCounter counted = program_traffic(backward ? backward_ : forward_);
  TransformTraffic traffic;
  traffic.bytes_moved = counted.bytes_moved();
  traffic.exchanged_bytes = counted.bytes_exchanged();
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
         (geometry_.scrambled_output() ? ",scrambled" : "") + "): " +
         // One rank runs no exchange (its own schedule), so names none: "-", as Fft3d does.
         (geometry_.ranks() == 1 ? std::string("-") : exchange_->describe());
}

template class BasicSixStep1d<double>;
template class BasicSixStep1d<float>;

}  // namespace a2afft::detail::fft
