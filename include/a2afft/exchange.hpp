#pragma once

#include <mpi.h>

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include <a2afft/buffer.hpp>
#include <a2afft/error.hpp>
#include <a2afft/layout.hpp>

namespace a2afft {

class Exchange;

/// Plans an all-to-all of `block_bytes`-byte blocks over `comm`; collective over `comm`, with the
/// same arguments on every rank. `spec` is a backend spec as `a2afft list` shows them:
/// `name[:key=value,...]`, e.g. `mpi`, `pairwise`, `tra:radix=4`, `node-aware:inner=pairwise`,
/// `onmpml:leaders=2`, or `auto` (time the candidates now and keep the fastest). The exchange
/// keeps its own duplicate of `comm`; the caller may free `comm` afterwards. Nodes are the real
/// shared-memory nodes unless A2AFFT_RANKS_PER_NODE, A2AFFT_NODE_SIZES or A2AFFT_NUMA_PER_NODE
/// set a virtual layout.
///
/// Throws a2afft::Error, with the same message on every rank, for a null or inter-communicator,
/// block_bytes 0 or different between ranks, an unknown backend, key or bad value (the message
/// lists what is valid), a spec that differs between ranks, or a layout the backend cannot run
/// (with the reason).
std::unique_ptr<Exchange> make_exchange(MPI_Comm comm, std::size_t block_bytes,
                                        std::string_view spec = "auto");

/// make_exchange() on the node layout `layout` asks for, over what the A2AFFT_* variables say
/// (LayoutRequest::from_environment().overridden_by(layout), as Fft3dOptions::layout), so an
/// empty request is the 3-argument call. Lets a study run the node-aware backends on virtual
/// nodes, as the a2afft command's --ranks-per-node does. Throws as above, and UsageError for a
/// layout that does not fit.
std::unique_ptr<Exchange> make_exchange(MPI_Comm comm, std::size_t block_bytes,
                                        std::string_view spec, const LayoutRequest& layout);

/// A planned MPI_Alltoall on bytes, for one communicator and one block size: what a2afft's FFTs
/// run for every global transpose, for codes that only want the all-to-all. Make one with
/// make_exchange(); run it as often as needed. Planning (sub-communicators, shared windows,
/// schedules, scratch, and for `auto` the timing of candidates) happens once, in make_exchange;
/// run() only moves data.
///
///     auto exchange = a2afft::make_exchange(MPI_COMM_WORLD, block_bytes, "tra:radix=4");
///     exchange->run(send, recv);  // like MPI_Alltoall(send, block_bytes, MPI_BYTE,
///                                 //                   recv, block_bytes, MPI_BYTE, comm)
///
/// Not thread-safe: one thread at a time runs a given exchange. Destroy it before MPI_Finalize;
/// destruction is collective over the communicator (it frees communicators and windows), so
/// destroy exchanges in the same order on every rank.
class Exchange {
 public:
  ~Exchange();
  Exchange(const Exchange&) = delete;
  Exchange& operator=(const Exchange&) = delete;

  /// MPI_Alltoall semantics on bytes. `send` holds ranks() blocks of block_bytes(): block j goes
  /// to rank j. Afterwards block j of `recv` holds what rank j sent to this rank. Both hold
  /// buffer_bytes() bytes and must not overlap (no MPI_IN_PLACE). `send` is never written, nor is
  /// anything outside the blocks of `recv`. Collective and blocking: every rank of the
  /// communicator calls it. Any memory works; memory from allocate() saves the shared-memory
  /// backends (mpml, nmpml, onmpml) a copy in and out.
  void run(const void* send, void* recv);

  /// run() in two halves, to overlap the exchange with the caller's own work: start() begins it
  /// and may return with messages in flight; finish() completes it, and `recv` then holds what
  /// run() leaves. In between, compute on other memory: do not write `send`, touch `recv`, or
  /// call anything else on this exchange. Collective: every rank calls both, in the same order.
  /// Backends without a split phase (overlaps() false; `a2afft list` shows which have one) do
  /// all the work in start(). Whether messages progress while the caller computes, without MPI
  /// calls, is up to the MPI library. Throws UsageError for start() twice or finish() alone.
  ///
  ///     exchange->start(send, recv);
  ///     transform_the_next_field();  // overlaps the messages in flight
  ///     exchange->finish();
  /// @{
  void start(const void* send, void* recv);
  void finish();
  /// @}
  /// Between start() and finish(): moves the exchange on without blocking (nonblocking posts
  /// its next batch once the last has arrived) and returns true when it is done, so that
  /// finish() returns at once; finish() must still follow. For callers that poll, as MPI_Test
  /// does; a backend without a split phase is always done.
  bool test();
  /// True when start() returns with messages in flight (mpi, nonblocking, or auto that chose
  /// one of them).
  bool overlaps() const;

  /// Memory for run()'s buffers, `bytes` long (usually buffer_bytes()). The shared-memory
  /// backends hand out a segment of the node's MPI-3 shared window; the others 64-byte aligned
  /// heap memory. Collective over the ranks of a node for the shared-memory backends: call it on
  /// every rank, in the same order. The buffer may outlive the exchange.
  Buffer allocate(std::size_t bytes);

  /// The resolved spec with every parameter's actual value, e.g. `tra(radix=4)` or, for `auto`,
  /// `auto→tra(radix=4)`: which algorithm really runs.
  std::string describe() const;

  /// The bytes every rank sends to every rank, itself included.
  std::size_t block_bytes() const noexcept;
  /// The number of ranks of the communicator.
  int ranks() const noexcept;
  /// ranks() * block_bytes(): the size of each of run()'s buffers.
  std::size_t buffer_bytes() const noexcept;

  /// For studies of where run() spends its time. While on, every run() adds the seconds of each
  /// of its phases on this rank (named by the backend: pack, gather, intra, inter, scatter, ...)
  /// to a tally; off, the default, costs nothing. Not collective.
  void time_phases(bool on);
  /// Collective: each phase's tally since the last call, max over the ranks (a rank that skipped
  /// a phase counts 0 s); then zeroes the tally. Empty when no phase was timed.
  std::map<std::string, double> take_phase_seconds();

 private:
  struct Plan;
  explicit Exchange(std::unique_ptr<Plan> plan);
  friend std::unique_ptr<Exchange> make_exchange(MPI_Comm, std::size_t, std::string_view,
                                                 const LayoutRequest&);

  std::unique_ptr<Plan> plan_;
};

}  // namespace a2afft
