#include "plane_program.hpp"

#include <omp.h>

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <type_traits>

#include "copy_bytes.hpp"

namespace a2afft::detail::fft {
namespace {

std::size_t index(ProgramArray array) {
  return static_cast<std::size_t>(array);
}

std::byte* plane_of(const ProgramArrays& arrays, const Planes& planes, std::size_t plane) {
  return arrays[index(planes.array)] + plane * planes.plane_bytes;
}

template <typename Real>
std::complex<Real>* complex_array(const ProgramArrays& arrays, ProgramArray array) {
  return reinterpret_cast<std::complex<Real>*>(arrays[index(array)]);
}

// Each operation on one plane, returning the bytes it moved; `declared` says the same without
// running it. Copies report what they copied; FFTs, scaling and resizing their plane.
Touch declared(const Unpack& op) {
  return {ProgramArray::recv, op.plane_bytes, op.to, op.plane_bytes};
}
Touch declared(const Pack& op) {
  return {op.from, op.plane_bytes, ProgramArray::send, op.plane_bytes};
}
Touch declared(const MoveRuns& op) {
  return {op.from.array, op.runs * op.run_bytes, op.to.array, op.runs * op.run_bytes};
}
template <typename Real>
Touch declared(const InPlaceFft<Real>& op) {
  return {op.at.array, op.plane_bytes, op.at.array, op.plane_bytes};
}
template <typename Real>
Touch declared(const RealToComplex<Real>& op) {
  return {op.from.array, op.real_bytes, op.to.array, op.complex_bytes};
}
template <typename Real>
Touch declared(const ComplexToReal<Real>& op) {
  return {op.from.array, op.complex_bytes, op.to.array, op.real_bytes};
}
template <typename Real>
Touch declared(const Scale<Real>& op) {
  const std::size_t bytes = op.runs * op.run_reals * sizeof(Real);
  return {op.at.array, bytes, op.at.array, bytes};
}
Touch declared(const Truncate& op) {
  return {op.padded, op.padded_bytes, op.modes, op.modes_bytes};
}
Touch declared(const Pad& op) {
  return {op.modes, op.modes_bytes, op.padded, op.padded_bytes};
}

template <typename Real>
Touch run_op(const Unpack& op, const ProgramArrays& arrays, std::size_t plane) {
  const std::size_t bytes = op.transpose->unpack(arrays[index(ProgramArray::recv)],
                                                 arrays[index(op.to)], plane, op.element_bytes);
  return {ProgramArray::recv, bytes, op.to, bytes};
}

template <typename Real>
Touch run_op(const Pack& op, const ProgramArrays& arrays, std::size_t plane) {
  const std::size_t bytes =
      op.transpose->pack(arrays[index(op.from)], arrays[index(ProgramArray::send)], plane,
                         op.element_bytes, op.own_rank, arrays[index(ProgramArray::recv)]);
  return {op.from, bytes, ProgramArray::send, bytes};
}

template <typename Real>
Touch run_op(const MoveRuns& op, const ProgramArrays& arrays, std::size_t plane) {
  const std::byte* from = plane_of(arrays, op.from, plane);
  std::byte* to = plane_of(arrays, op.to, plane);
  for (std::size_t i = 0; i < op.runs; ++i)
    copy_bytes(to + i * op.to_run_stride, from + i * op.from_run_stride, op.run_bytes);
  return {op.from.array, op.runs * op.run_bytes, op.to.array, op.runs * op.run_bytes};
}

template <typename Real>
Touch run_op(const InPlaceFft<Real>& op, const ProgramArrays& arrays, std::size_t plane) {
  op.plan->execute_in_place(plane_of(arrays, op.at, plane));
  return declared(op);
}

template <typename Real>
Touch run_op(const RealToComplex<Real>& op, const ProgramArrays& arrays, std::size_t plane) {
  op.plan->execute(reinterpret_cast<const Real*>(plane_of(arrays, op.from, plane)),
                   reinterpret_cast<std::complex<Real>*>(plane_of(arrays, op.to, plane)));
  return declared(op);
}

template <typename Real>
Touch run_op(const ComplexToReal<Real>& op, const ProgramArrays& arrays, std::size_t plane) {
  op.plan->execute(reinterpret_cast<std::complex<Real>*>(plane_of(arrays, op.from, plane)),
                   reinterpret_cast<Real*>(plane_of(arrays, op.to, plane)));
  return declared(op);
}

template <typename Real>
Touch run_op(const Scale<Real>& op, const ProgramArrays& arrays, std::size_t plane) {
  std::byte* start = plane_of(arrays, op.at, plane);
  for (std::size_t i = 0; i < op.runs; ++i) {
    Real* run = reinterpret_cast<Real*>(start + i * op.run_stride);
    for (std::size_t j = 0; j < op.run_reals; ++j)
      run[j] *= op.factor;
  }
  return declared(op);
}

template <typename Real>
Touch run_op(const Truncate& op, const ProgramArrays& arrays, std::size_t plane) {
  truncate_plane(complex_array<Real>(arrays, op.padded), complex_array<Real>(arrays, op.modes),
                 *op.resize, plane);
  return declared(op);
}

template <typename Real>
Touch run_op(const Pad& op, const ProgramArrays& arrays, std::size_t plane) {
  pad_plane<Real>(complex_array<Real>(arrays, op.modes), complex_array<Real>(arrays, op.padded),
                  *op.resize, plane);
  return declared(op);
}

template <typename Real>
Touch declared(const Twiddle<Real>& op) {
  const std::size_t bytes = op.length * op.batch * sizeof(std::complex<Real>);
  return {op.at.array, bytes, op.at.array, bytes};
}
template <typename Real>
Touch declared(const LocalTranspose<Real>& op) {
  return {op.from, op.bytes, op.to, op.bytes};
}
template <typename Real>
Touch declared(const ColumnChunk<Real>& op) {
  return {op.from, op.chunk_bytes, op.to, op.chunk_bytes};
}
// A chunk operation's bytes for `rows` rows.
Touch declared(const UnpackRows& op, std::size_t rows) {
  return {ProgramArray::recv, rows * op.row_bytes, op.rows, rows * op.row_bytes};
}
Touch declared(const PackRows& op, std::size_t rows) {
  return {op.rows, rows * op.row_bytes, ProgramArray::send, rows * op.row_bytes};
}

template <typename Real>
Touch run_op(const Twiddle<Real>& op, const ProgramArrays& arrays, std::size_t plane) {
  auto* row = reinterpret_cast<std::complex<Real>*>(plane_of(arrays, op.at, plane));
  // Row n2's twiddle exponents n2 k stay below N.
  const std::size_t n2 = op.first_row + plane;
  for (std::size_t k = 0, m = 0; k < op.length; ++k, m += n2) {
    const std::complex<Real> w((*op.table)(m));
    for (std::size_t f = 0; f < op.batch; ++f)
      row[k * op.batch + f] = multiply(row[k * op.batch + f], w, op.conjugate);
  }
  return declared(op);
}

template <typename Real>
Touch run_op(const LocalTranspose<Real>& op, const ProgramArrays& arrays, std::size_t) {
  op.plan->execute(complex_array<Real>(arrays, op.from), complex_array<Real>(arrays, op.to));
  return declared(op);
}

template <typename Real>
Touch run_op(const ColumnChunk<Real>& op, const ProgramArrays& arrays, std::size_t plane) {
  op.columns->execute_chunk(op.first_chunk + plane, complex_array<Real>(arrays, op.from),
                            complex_array<Real>(arrays, op.to), op.factor);
  return declared(op);
}

Touch run_chunk(const UnpackRows& op, const ProgramArrays& arrays, std::size_t first,
                std::size_t last) {
  const std::byte* recv = arrays[index(ProgramArray::recv)];
  std::byte* rows = arrays[index(op.rows)];
  for (std::size_t i = first; i < last; ++i) {
    for (std::size_t b = 0; b < op.parts; ++b) {
      copy_bytes(rows + i * op.row_bytes + b * op.run_bytes,
                 recv + b * op.block_bytes + i * op.run_bytes, op.run_bytes);
    }
  }
  return declared(op, last - first);
}

// Our own block goes straight to where the exchange would have put it. In a sweep that also
// unpacks, the chunk's rows were just read from the same places (one run length per sweep), so
// nothing still unread is overwritten.
Touch run_chunk(const PackRows& op, const ProgramArrays& arrays, std::size_t first,
                std::size_t last) {
  const std::byte* rows = arrays[index(op.rows)];
  std::byte* send = arrays[index(ProgramArray::send)];
  std::byte* recv = arrays[index(ProgramArray::recv)];
  for (std::size_t i = first; i < last; ++i) {
    for (std::size_t b = 0; b < op.parts; ++b) {
      std::byte* blocks = static_cast<int>(b) == op.own_rank ? recv : send;
      copy_bytes(blocks + b * op.block_bytes + i * op.run_bytes,
                 rows + i * op.row_bytes + b * op.run_bytes, op.run_bytes);
    }
  }
  return declared(op, last - first);
}

template <typename Op>
constexpr bool kChunkOp = std::is_same_v<Op, UnpackRows> || std::is_same_v<Op, PackRows>;

Phase phase_of(const Unpack&) {
  return Phase::transpose;
}
Phase phase_of(const Pack&) {
  return Phase::transpose;
}
Phase phase_of(const UnpackRows&) {
  return Phase::transpose;
}
Phase phase_of(const PackRows&) {
  return Phase::transpose;
}
template <typename Real>
Phase phase_of(const LocalTranspose<Real>&) {
  return Phase::transpose;
}
Phase phase_of(const MoveRuns& op) {
  return op.phase;
}
template <typename Op>
Phase phase_of(const Op&) {
  return Phase::compute;
}

// The timed phase of the operations running now: consecutive operations of one phase are timed
// as one, from the first's start to the last's end.
class PhaseSwitch {
 public:
  explicit PhaseSwitch(PhaseTimer* timer) : timer_(timer) {}
  void enter(Phase phase) {
    if (timer_ == nullptr || open_ == phase) return;
    timed_.reset();
    timed_.emplace(timer_, phase == Phase::compute ? "compute" : "transpose");
    open_ = phase;
  }

 private:
  PhaseTimer* timer_;
  std::optional<Phase> open_;
  std::optional<ScopedPhase> timed_;
};

Touch& operator+=(Touch& sum, const Touch& touch) {
  sum = {touch.read, sum.read_bytes + touch.read_bytes, touch.written,
         sum.written_bytes + touch.written_bytes};
  return sum;
}

// At most this many operations run plane by plane in one group (counting keeps a sum of each).
constexpr std::size_t kMaxGroupOps = 16;

// Planes [first, last) (from the end when `reverse`) through ops [begin, end), all plane
// operations, each plane through all of them before the next. Counting sums each operation's
// bytes over the planes and adds them in the operations' order, as the fold does.
template <typename Real, bool kCounting>
void run_group(const Sweep<Real>& sweep, std::size_t begin, std::size_t end, std::size_t first,
               std::size_t last, const ProgramArrays& arrays, PhaseSwitch& phases,
               TrafficCounter* counter) {
  // Only counting keeps sums.
  [[maybe_unused]] std::conditional_t<kCounting, std::array<Touch, kMaxGroupOps>, std::monostate>
      sums{};
  for (std::size_t i = first; i < last; ++i) {
    const std::size_t plane = sweep.reverse ? first + last - 1 - i : i;
    for (std::size_t k = begin; k < end; ++k) {
      std::visit(
          [&](const auto& op) {
            if constexpr (!kChunkOp<std::decay_t<decltype(op)>>) {
              phases.enter(phase_of(op));
              const Touch touch = run_op<Real>(op, arrays, plane);
              if constexpr (kCounting) sums[k - begin] += touch;
            }
          },
          sweep.ops[k]);
    }
  }
  if constexpr (kCounting) {
    for (std::size_t k = begin; k < end; ++k)
      counter->add(sums[k - begin]);
  }
}

template <typename Real>
bool is_chunk_op(const PlaneOp<Real>& op) {
  return std::visit([](const auto& one) { return kChunkOp<std::decay_t<decltype(one)>>; }, op);
}

// The end of the run of plane operations that starts at `begin`.
template <typename Real>
std::size_t group_end(const Sweep<Real>& sweep, std::size_t begin) {
  std::size_t end = begin;
  while (end < sweep.ops.size() && !is_chunk_op(sweep.ops[end]))
    ++end;
  if (end - begin > kMaxGroupOps) throw std::logic_error("a sweep of too many plane operations");
  return end;
}

template <typename Real, bool kCounting>
void run_chunk_ops(const Sweep<Real>& sweep, std::size_t first, std::size_t last,
                   const ProgramArrays& arrays, PhaseSwitch& phases, TrafficCounter* counter) {
  for (std::size_t k = 0; k < sweep.ops.size();) {
    if (!is_chunk_op(sweep.ops[k])) {
      const std::size_t end = group_end(sweep, k);
      run_group<Real, kCounting>(sweep, k, end, first, last, arrays, phases, counter);
      k = end;
      continue;
    }
    std::visit(
        [&](const auto& op) {
          if constexpr (kChunkOp<std::decay_t<decltype(op)>>) {
            phases.enter(phase_of(op));
            const Touch touch = run_chunk(op, arrays, first, last);
            if constexpr (kCounting) counter->add(touch);
          }
        },
        sweep.ops[k]);
    ++k;
  }
}

template <typename Real, bool kCounting>
void run_sweep(const Sweep<Real>& sweep, const ProgramArrays& arrays, PhaseTimer* timer,
               TrafficCounter* counter) {
  const std::size_t chunk = sweep.chunk_planes;
  const std::size_t chunks = (sweep.planes + chunk - 1) / chunk;
  for (std::size_t c = 0; c < chunks; ++c) {
    const std::size_t chunk_index = sweep.reverse ? chunks - 1 - c : c;
    const std::size_t first = chunk_index * chunk;
    const std::size_t last = std::min(sweep.planes, first + chunk);
    PhaseSwitch phases(timer);
    if constexpr (kCounting) counter->begin_chunk();
    run_chunk_ops<Real, kCounting>(sweep, first, last, arrays, phases, counter);
    if constexpr (kCounting) counter->end_chunk();
  }
}

// Thread `thread`'s view of the arrays: its own slot of each per-thread scratch.
ProgramArrays thread_arrays(const ProgramArrays& arrays, const ProgramThreads& threads,
                            int thread) {
  ProgramArrays mine = arrays;
  for (std::size_t a = 0; a < kProgramArrays; ++a) {
    if (mine[a] != nullptr) mine[a] += threads.slot_bytes[a] * static_cast<std::size_t>(thread);
  }
  return mine;
}

// The sweep's chunks split across the threads. The calling thread (thread 0) times its own.
template <typename Real>
void run_sweep_threaded(const Sweep<Real>& sweep, const ProgramArrays& arrays, PhaseTimer* timer,
                        const ProgramThreads& threads) {
  const std::size_t chunk = sweep.chunk_planes;
  const auto chunks = static_cast<std::ptrdiff_t>((sweep.planes + chunk - 1) / chunk);
#pragma omp parallel num_threads(threads.count)
  {
    const int thread = omp_get_thread_num();
    set_plane_thread(thread);
    const ProgramArrays mine = thread_arrays(arrays, threads, thread);
    PhaseSwitch phases(thread == 0 ? timer : nullptr);
#pragma omp for schedule(static)
    for (std::ptrdiff_t c = 0; c < chunks; ++c) {
      const std::size_t first = static_cast<std::size_t>(c) * chunk;
      const std::size_t last = std::min(sweep.planes, first + chunk);
      run_chunk_ops<Real, false>(sweep, first, last, mine, phases, nullptr);
    }
    set_plane_thread(0);
  }
}

void run_exchange(const ExchangeRun& run, const ProgramArrays& arrays, PhaseTimer* timer) {
  const ScopedPhase timed(timer, "transpose");
  const std::byte* send = arrays[index(ProgramArray::send)];
  std::byte* recv = arrays[index(ProgramArray::recv)];
  if (run.own_in_place) {
    run.exchange->run_others(send, recv);
  } else {
    run.exchange->run(send, recv);
  }
}

template <typename Real, bool kCounting>
void run_steps(const PlaneProgram<Real>& program, const ProgramArrays& arrays, PhaseTimer* timer,
               TrafficCounter* counter, const ProgramThreads& threads) {
  for (const ProgramStep<Real>& step : program) {
    if (const auto* sweep = std::get_if<Sweep<Real>>(&step)) {
      if (!kCounting && threads.count > 1 && independent_planes(*sweep)) {
        run_sweep_threaded(*sweep, arrays, timer, threads);
      } else {
        run_sweep<Real, kCounting>(*sweep, arrays, timer, counter);
      }
    } else {
      const ExchangeRun& run = std::get<ExchangeRun>(step);
      run_exchange(run, arrays, timer);
      if constexpr (kCounting) counter->add_exchange(run);
    }
  }
}

}  // namespace

void TrafficCounter::begin_chunk() {
  touched_.fill(false);
  pending_.fill(0);
}

void TrafficCounter::add(const Touch& touch) {
  const std::size_t read = index(touch.read);
  if (!touched_[read]) bytes_moved_ += touch.read_bytes;
  touched_[read] = true;
  pending_[read] = 0;  // read on in cache: its write-back is not counted
  const std::size_t written = index(touch.written);
  touched_[written] = true;
  pending_[written] = touch.written_bytes;
}

void TrafficCounter::end_chunk() {
  for (const std::size_t bytes : pending_)
    bytes_moved_ += bytes;
}

void TrafficCounter::add_exchange(const ExchangeRun& run) {
  const std::size_t sent = run.parts - (run.own_in_place ? 1 : 0);
  bytes_moved_ += 2 * sent * run.block_bytes;
  bytes_exchanged_ += (run.parts - 1) * run.block_bytes;
}

// Counting runs on one thread: the counter's chunk state is one.
template <typename Real>
void run_program(const PlaneProgram<Real>& program, const ProgramArrays& arrays, PhaseTimer* timer,
                 TrafficCounter* counter, const ProgramThreads& threads) {
  if (counter != nullptr) {
    run_steps<Real, true>(program, arrays, timer, counter, threads);
  } else {
    run_steps<Real, false>(program, arrays, timer, nullptr, threads);
  }
}

void start_threads(int threads) {
  if (threads <= 1) return;
#pragma omp parallel num_threads(threads)
  {
    // Empty: entering the region makes the team.
  }
}

// What one chunk of `planes` planes of `sweep` moves, by what its operations declare.
template <typename Real>
void fold_chunk(const Sweep<Real>& sweep, std::size_t planes, TrafficCounter& counter) {
  counter.begin_chunk();
  for (const PlaneOp<Real>& op : sweep.ops) {
    std::visit(
        [&](const auto& one) {
          if constexpr (kChunkOp<std::decay_t<decltype(one)>>) {
            counter.add(declared(one, planes));
          } else {
            Touch touch = declared(one);
            touch.read_bytes *= planes;
            touch.written_bytes *= planes;
            counter.add(touch);
          }
        },
        op);
  }
  counter.end_chunk();
}

template <typename Real>
TrafficCounter program_traffic(const PlaneProgram<Real>& program) {
  TrafficCounter counter;
  for (const ProgramStep<Real>& step : program) {
    if (const auto* run = std::get_if<ExchangeRun>(&step)) {
      counter.add_exchange(*run);
      continue;
    }
    const Sweep<Real>& sweep = std::get<Sweep<Real>>(step);
    for (std::size_t first = 0; first < sweep.planes; first += sweep.chunk_planes)
      fold_chunk(sweep, std::min(sweep.chunk_planes, sweep.planes - first), counter);
  }
  return counter;
}

template void run_program(const PlaneProgram<double>&, const ProgramArrays&, PhaseTimer*,
                          TrafficCounter*, const ProgramThreads&);
template void run_program(const PlaneProgram<float>&, const ProgramArrays&, PhaseTimer*,
                          TrafficCounter*, const ProgramThreads&);
template TrafficCounter program_traffic(const PlaneProgram<double>&);
template TrafficCounter program_traffic(const PlaneProgram<float>&);

}  // namespace a2afft::detail::fft
