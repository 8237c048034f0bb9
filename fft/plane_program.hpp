#pragma once

#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <variant>
#include <vector>

#include "exchange.hpp"
#include "padding.hpp"
#include "plane_fft.hpp"
#include "six_step_geometry.hpp"
#include "timing/phase_timer.hpp"
#include "transpose_step.hpp"

// The engines' step program (issue 44; docs/new-transform-step.md): a plan compiles each direction
// into sweeps of typed plane operations with exchanges between them, and one small executor runs
// it, for the pencil engine (3D and 2D) and the six-step 1D FFT alike. Every operation works on
// one whole plane (a pencil stage's leading plane, a six-step row) or a chunk of them, so the
// executor dispatches once per plane and operation, never per element. What a transform
// reads and writes in memory (traffic()) is a fold over the same operations, and a counter the
// executor can be handed (tests) adds up the bytes the operations report as they run.
namespace a2afft::detail::fft {

/// The arrays a program's operations name: the caller's input and output, the plan's work array,
/// the exchange's send and receive buffers, and two scratches of one plane each.
enum class ProgramArray : std::uint8_t {
  input,
  output,
  work,
  send,
  recv,
  plane_scratch,
  real_plane
};
inline constexpr std::size_t kProgramArrays = 7;
/// Where each ProgramArray starts, for one call.
using ProgramArrays = std::array<std::byte*, kProgramArrays>;

/// The timed phase an operation's seconds go to (fft_phases.hpp).
enum class Phase : std::uint8_t { compute, transpose };

/// The planes of one array: plane p starts p * plane_bytes after the array (0: every plane in
/// the same place, a scratch of one plane).
struct Planes {
  ProgramArray array = ProgramArray::work;
  std::size_t plane_bytes = 0;
};

/// What one operation reads (from one array) and writes (to one array, maybe the same) of one
/// plane, in bytes.
struct Touch {
  ProgramArray read = ProgramArray::work;
  std::size_t read_bytes = 0;
  ProgramArray written = ProgramArray::work;
  std::size_t written_bytes = 0;
};

/// The received blocks' parts of a plane into that plane of `to` (TransposeStep::unpack).
struct Unpack {
  const TransposeStep* transpose = nullptr;
  ProgramArray to = ProgramArray::work;
  std::size_t element_bytes = 0;
  std::size_t plane_bytes = 0;  // what one plane of `to` holds
};

/// A plane of `from` into its parts of the send blocks (TransposeStep::pack); our own block into
/// the receive buffer when `own_rank` (our rank in the exchange) is not -1.
struct Pack {
  const TransposeStep* transpose = nullptr;
  ProgramArray from = ProgramArray::work;
  std::size_t element_bytes = 0;
  int own_rank = -1;
  std::size_t plane_bytes = 0;  // what one plane of `from` holds
};

/// `runs` runs of `run_bytes` from a plane of `from` (runs `from_run_stride` bytes apart) to one
/// of `to` (`to_run_stride` apart): a copy in or out, a plane into or out of a scratch, or the
/// gather and scatter of a local transpose, whose strides differ.
struct MoveRuns {
  Phase phase = Phase::compute;
  Planes from;
  std::size_t from_run_stride = 0;
  Planes to;
  std::size_t to_run_stride = 0;
  std::size_t runs = 0;
  std::size_t run_bytes = 0;
};

/// One FFT step of a plane (an FFTW plan, or GatheredColumns), in place.
template <typename Real>
struct InPlaceFft {
  const PlaneFft<Real>* plan = nullptr;
  Planes at;
  std::size_t plane_bytes = 0;
};

/// The r2c step of a plane: reals of `from` into complex numbers of `to`; or the c2r step back.
template <typename Real>
struct RealToComplex {
  const PlaneFft<Real>* plan = nullptr;
  Planes from;
  Planes to;
  std::size_t real_bytes = 0;
  std::size_t complex_bytes = 0;
};
template <typename Real>
struct ComplexToReal {
  const PlaneFft<Real>* plan = nullptr;
  Planes from;
  Planes to;
  std::size_t complex_bytes = 0;
  std::size_t real_bytes = 0;
};

/// Multiplies `runs` runs of `run_reals` reals (`run_stride` bytes apart) of a plane by `factor`.
template <typename Real>
struct Scale {
  Planes at;
  std::size_t runs = 0;
  std::size_t run_stride = 0;
  std::size_t run_reals = 0;
  Real factor = 1;
};

/// A padded plane of `padded` to its modes in `modes` (truncate_plane), or the modes of `modes`
/// into a padded plane of `padded` (pad_plane). Planes of each array as `resize` lays them out.
struct Truncate {
  const PlaneResize* resize = nullptr;
  ProgramArray padded = ProgramArray::work;
  ProgramArray modes = ProgramArray::work;
  std::size_t padded_bytes = 0;
  std::size_t modes_bytes = 0;
};
struct Pad {
  const PlaneResize* resize = nullptr;
  ProgramArray modes = ProgramArray::work;
  ProgramArray padded = ProgramArray::work;
  std::size_t modes_bytes = 0;
  std::size_t padded_bytes = 0;
};

/// Six-step rows between `rows` and the exchange buffers, a chunk at a time (a chunk operation):
/// row i is `parts` runs of `run_bytes`, run b at b * block_bytes + i * run_bytes in the buffer.
/// UnpackRows reads them from the receive buffer; PackRows writes them to the send buffer, our
/// own (`own_rank`, or -1) straight into the receive buffer where the exchange leaves it there.
struct UnpackRows {
  ProgramArray rows = ProgramArray::work;
  std::size_t row_bytes = 0;
  std::size_t run_bytes = 0;
  std::size_t block_bytes = 0;
  std::size_t parts = 1;
};
struct PackRows {
  ProgramArray rows = ProgramArray::work;
  std::size_t row_bytes = 0;
  std::size_t run_bytes = 0;
  std::size_t block_bytes = 0;
  std::size_t parts = 1;
  int own_rank = -1;
};

/// Six-step twiddles of row `plane`, `length` points of `batch` fields: point k times
/// W_N^(k n2) (conjugated backward, before the FFT), n2 = first_row + plane, from the double
/// table for either precision (rounded once, where a float table would round three times).
template <typename Real>
struct Twiddle {
  const TwiddleTable* table = nullptr;
  Planes at;
  std::size_t length = 0;
  std::size_t batch = 1;
  std::size_t first_row = 0;
  bool conjugate = false;
};

/// A whole local transpose (an FFTW rank-0 plan) of `from` into `to`, `bytes` each: a sweep of
/// one plane.
template <typename Real>
struct LocalTranspose {
  const FftwPlan<Real>* plan = nullptr;
  ProgramArray from = ProgramArray::work;
  ProgramArray to = ProgramArray::work;
  std::size_t bytes = 0;
};

/// The six-step FFT's column FFTs on one rank: plane p is chunk `first_chunk` + p of `columns`,
/// from its columns of `from` into the same columns of `to` (GatheredColumns::execute_chunk),
/// times `factor`; `chunk_bytes` read and as many written. The chunks of a sweep have one width
/// (the narrower last one is a sweep of its own), so each plane moves the same bytes.
template <typename Real>
struct ColumnChunk {
  const GatheredColumns<Real>* columns = nullptr;
  ProgramArray from = ProgramArray::work;
  ProgramArray to = ProgramArray::work;
  std::size_t first_chunk = 0;
  std::size_t chunk_bytes = 0;
  Real factor = 1;
};

template <typename Real>
using PlaneOp = std::variant<Unpack, Pack, MoveRuns, InPlaceFft<Real>, RealToComplex<Real>,
                             ComplexToReal<Real>, Scale<Real>, Truncate, Pad, UnpackRows, PackRows,
                             Twiddle<Real>, LocalTranspose<Real>, ColumnChunk<Real>>;

/// One pass over `planes` planes in chunks of `chunk_planes` (in decreasing order when `reverse`:
/// padding in place, where a padded plane fills more than its modes did). In each chunk the
/// operations run in order: a chunk operation (UnpackRows, PackRows) once over the chunk's
/// planes, and each run of consecutive plane operations plane by plane, every plane through all
/// of them while it is in cache.
template <typename Real>
struct Sweep {
  std::size_t planes = 0;
  std::size_t chunk_planes = 1;
  bool reverse = false;
  std::vector<PlaneOp<Real>> ops;
};

/// Whether a sweep's chunks can run on different threads (run_program): more than one chunk, no
/// operation on the whole array at once (LocalTranspose), none padding or truncating in place.
template <typename Real>
inline bool independent_planes(const Sweep<Real>& sweep) {
  if (sweep.planes <= sweep.chunk_planes) return false;
  for (const PlaneOp<Real>& op : sweep.ops) {
    if (std::holds_alternative<LocalTranspose<Real>>(op)) return false;
    if (const auto* truncate = std::get_if<Truncate>(&op)) {
      if (truncate->padded == truncate->modes) return false;
    }
    if (const auto* pad = std::get_if<Pad>(&op)) {
      if (pad->padded == pad->modes) return false;
    }
  }
  return true;
}

/// send -> recv through `exchange` (Exchange::run, or run_others when the last sweep's pack left
/// our own block in recv): `parts` blocks of `block_bytes`.
struct ExchangeRun {
  ExchangePlan* exchange = nullptr;
  bool own_in_place = false;
  std::size_t block_bytes = 0;
  std::size_t parts = 1;
};

template <typename Real>
using ProgramStep = std::variant<Sweep<Real>, ExchangeRun>;
/// One direction of a plan, in order.
template <typename Real>
using PlaneProgram = std::vector<ProgramStep<Real>>;

/// Bytes read and written in memory, by the rules of a2afft::TransformTraffic. Within one chunk
/// of planes an array already touched is in cache: a chunk's bytes count where an operation
/// first reads them from an array and where the last write to an array leaves them (the work
/// array's write-back under later reads is not counted). An exchange reads each block it sends and
/// writes each it receives (one copy per block on one node), our own block not when it stayed.
class TrafficCounter {
 public:
  void begin_chunk();
  void add(const Touch& touch);
  void end_chunk();
  void add_exchange(const ExchangeRun& run);
  /// Everything counted so far.
  std::size_t bytes_moved() const { return bytes_moved_; }
  /// Bytes sent to other ranks (our own block never), the padding of uneven splits included.
  std::size_t bytes_exchanged() const { return bytes_exchanged_; }
  void clear() { bytes_moved_ = bytes_exchanged_ = 0; }

 private:
  std::array<bool, kProgramArrays> touched_{};
  std::array<std::size_t, kProgramArrays> pending_{};  // each array's last write of the chunk
  std::size_t bytes_moved_ = 0;
  std::size_t bytes_exchanged_ = 0;
};

/// The threads a program runs its sweeps on (PlanOptions::threads), and the arrays each thread
/// has a slot of its own in: thread t uses `slot_bytes[a]` * t bytes past array a's start (0: the
/// array is shared, every thread touches its own planes of it). The scratches are per thread.
struct ProgramThreads {
  int count = 1;
  std::array<std::size_t, kProgramArrays> slot_bytes{};
};

/// Runs `program` on `arrays`: each operation's seconds into `timer` (nullptr: none) under its
/// phase, and, when `counter` is given, the bytes each operation reports moving into it.
/// With `threads.count` > 1 (and no counter), a sweep whose planes (or chunks) are independent
/// runs them split across that many OpenMP threads, static schedule, each plane through all its
/// operations on one thread, so every plane is computed as with one thread (the same FFTW plans
/// on the same data: the same bits). Independent: no operation touches the whole array at once
/// (LocalTranspose) and none pads or truncates in place (a plane lands where the one before it
/// was). Other sweeps run on the calling thread, as with one. Timing is the calling thread's:
/// its planes' phases, with its wait for the others in the sweep's last phase. With one thread
/// no OpenMP region is entered. Only the calling thread calls MPI (the exchanges).
template <typename Real>
void run_program(const PlaneProgram<Real>& program, const ProgramArrays& arrays, PhaseTimer* timer,
                 TrafficCounter* counter = nullptr, const ProgramThreads& threads = {});

/// Starts OpenMP's team of `threads` threads now (a plan's constructor), so that the first
/// forward() or backward() creates no threads. Nothing for one thread.
void start_threads(int threads);

/// The fold of TrafficCounter's rules over `program`, from what each operation declares it
/// moves: what run_program() counts, without running it.
template <typename Real>
TrafficCounter program_traffic(const PlaneProgram<Real>& program);

}  // namespace a2afft::detail::fft
