#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "a2afft/buffer.hpp"
#include "mpi/error_scope.hpp"
#include "timing/phase_timer.hpp"

namespace a2afft::detail {

class Topology;

/// Times one phase of a run (when a timer is attached) and records where the exchange is
/// (mpi::ErrorScope), so that an MPI error inside names the backend, the phase, the round and the
/// peer. Scopes nest: a hierarchical plan's inner exchange runs inside the outer plan's phase.
class PhaseScope {
 public:
  PhaseScope(const DescribedPlan* exchange, PhaseTimer* timer, std::string_view phase, long round)
      : timed_(timer, phase), where_(exchange, phase, round) {}

 private:
  ScopedPhase timed_;
  mpi::ErrorScope where_;
};

/// What an exchange plan is built for: the communicator and node layout of `topology`, and the
/// size of one block. Every rank sends one block to every rank, itself included.
struct ExchangeProblem {
  const Topology& topology;
  std::size_t block_bytes;
  // The caller puts its own block into `recv` itself and calls run_others() on plans that
  // can_leave_own_block() (the FFTs' packs do): auto then times its candidates that way, since
  // run()'s copy of the own block is work the caller never asks of them.
  bool own_block_left = false;
};

/// Memory from ExchangePlan::allocate(): the public a2afft::Buffer, handed to callers as it is.
using ExchangeBuffer = Buffer;

/// The buffer's bytes as a span.
inline std::span<std::byte> bytes_of(const Buffer& buffer) {
  return {buffer.data(), buffer.size()};
}

/// 64-byte aligned heap memory: what ExchangePlan::allocate() gives unless a plan has better,
/// and what plans take their scratch from. Folded memory instead while a FoldedMemoryScope
/// lives on this rank (folded_memory.hpp; simulated build only).
ExchangeBuffer allocate_aligned(std::size_t bytes);

/// A plan for MPI_Alltoall on bytes, built collectively for one communicator and block size.
/// Construction does the expensive work (communicators, schedules, scratch); run() only moves
/// data. Make plans with make_exchange() in registry.hpp.
class ExchangePlan : public DescribedPlan {
 public:
  ExchangePlan(const ExchangePlan&) = delete;
  ExchangePlan& operator=(const ExchangePlan&) = delete;

  /// MPI_Alltoall semantics: block j of `send` goes to rank j; afterwards block j of `recv` holds
  /// what rank j sent here. Each buffer holds P * block_bytes; they must not overlap. `send` is
  /// never written, and nothing outside the P blocks of `recv` is written. Collective, blocking.
  virtual void run(const std::byte* send, std::byte* recv) = 0;

  /// Whether run_others() is available: a direct exchange can leave our own block to a caller
  /// that produces it in place (an FFT packing straight into `recv`), saving one copy of it.
  virtual bool can_leave_own_block() const { return false; }
  /// run() except for our own block: block `rank` of `send` is not read and block `rank` of
  /// `recv` not written. Only when can_leave_own_block(); otherwise throws std::logic_error.
  virtual void run_others(const std::byte* send, std::byte* recv);

  /// Split-phase run(): start() begins the exchange and may return before it is done; finish()
  /// completes it, and `recv` then holds what run() leaves. Between the two the caller may
  /// compute (that is the point: overlap), but must not write `send`, touch `recv`, or call
  /// anything else on this plan. Collective: every rank starts and finishes its plans in the same
  /// order. A plan whose overlaps() is false does all of its work in start() and nothing in
  /// finish(): correct everywhere, overlapping nothing. Throws UsageError for a start() while
  /// one is in flight or a finish() without a start(), on the rank that made the mistake.
  void start(const std::byte* send, std::byte* recv);
  void finish();
  /// Between start() and finish(): moves the exchange on without blocking (the next batch of
  /// messages once the last arrived) and says whether it is done, so that finish() would return
  /// at once. finish() must still follow. For a caller that polls, as MPI_Test does.
  bool test();
  /// Whether start() returns with messages still in flight (mpi through MPI_Ialltoall,
  /// nonblocking with its first batch posted), so that work between start() and finish() can
  /// overlap them. Whether they then progress without MPI calls is the MPI library's affair.
  virtual bool overlaps() const { return false; }

  /// Memory for run()'s send and receive buffers. Plans that share buffers through node shared
  /// memory (mpml, nmpml, onmpml) hand out a segment of an MPI-3 shared window, so run() on it
  /// needs no copy into and out of their own shared staging; the others give 64-byte aligned
  /// heap memory. Call it, and free what it gave, on every rank of the plan in the same order:
  /// for the shared-memory plans both are collective over the node. A buffer may outlive the
  /// plan.
  virtual ExchangeBuffer allocate(std::size_t bytes);

  /// Phase timings (`copy`, `intra`, `inter`, ...) accumulate into `timer` from now on;
  /// nullptr detaches. The timer must outlive the runs that write to it.
  virtual void attach_timer(PhaseTimer* timer) { timer_ = timer; }

 protected:
  ExchangePlan() = default;
  /// Times phase `name` and records it (and `round`, counted from 1) for error messages.
  PhaseScope phase(std::string_view name, long round = -1) const {
    return PhaseScope(this, timer_, name, round);
  }
  /// start() and finish() of a plan that overlaps(); by default all of run() in the first.
  virtual void start_exchange(const std::byte* send, std::byte* recv) { run(send, recv); }
  virtual void finish_exchange() {}
  virtual bool test_exchange() { return true; }

 private:
  PhaseTimer* timer_ = nullptr;
  bool in_flight_ = false;
};

}  // namespace a2afft::detail
