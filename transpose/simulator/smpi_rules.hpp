#pragma once

#include <string_view>

// What the simulated build (SimGrid SMPI 3.32 in place of an MPI; cmake/a2afft_smpi.cmake,
// docs/simulation.md) must do differently, in one place: the limits measured on the simulator,
// the refusals it needs and the MPI calls it lacks or answers wrongly. Pure, no MPI. The rest of
// the library asks here (or calls smpi.hpp's functions, whose bodies need SimGrid) rather than
// test A2AFFT_SMPI itself: in the library (transpose/, fft/, src/, preload/) this directory is
// the only code that reads the build flavour (transpose/CMakeLists.txt picks ControlVariable's
// file by it).
namespace a2afft::detail::simulator {

/// True in the simulated build.
inline constexpr bool kSimulated = A2AFFT_SMPI;

/// nonblocking's default batch under simulation. SimGrid's flow solver (lmm::MaxMin::do_solve)
/// crashed (SIGSEGV) at P = 256 with 16, 32 and all 255 exchanges per rank in flight; 4 and 8
/// ran there (one run and its check: 34 s and 86 s of wall time), and the cost grows faster
/// than the batch: 4 keeps P = 1,024 affordable (docs/simulation.md).
inline constexpr int kNonblockingBatch = 4;
/// Where SMPI 3.32 was measured to crash: on 256 ranks with batches of 16, 32 and all 255 (64
/// did not finish in 6 minutes). An explicit batch of kCrashBatch or more is refused on
/// kCrashRanks ranks or more; that it crashes above 256 too is an extrapolation.
inline constexpr int kCrashRanks = 256;
inline constexpr int kCrashBatch = 16;

/// Whether putting every message of a rank in flight at once is refused on `ranks` ranks:
/// under simulation from kCrashRanks on, where SMPI 3.32's flow solver crashed on it
/// (MPI_Ialltoall alone, `auto` measuring its candidates, nonblocking at its full batch).
inline bool all_at_once_crashes(int ranks, bool simulated = kSimulated) {
  return simulated && ranks >= kCrashRanks;
}

/// Whether a batch of `batch` exchanges in flight per rank on `ranks` ranks is one SMPI 3.32
/// crashed on.
inline bool batch_crashes(int ranks, int batch, bool simulated = kSimulated) {
  return simulated && ranks >= kCrashRanks && batch >= kCrashBatch;
}

/// Whether MPI_Win_shared_query answers the caller's own segment for every peer, as SMPI 3.32's
/// does (it gives every rank a segment of its own; checked: every cross-rank read came back
/// wrong). mpi::SharedWindow then asks the node's ranks where their segments lie instead.
inline constexpr bool kSharedQueryAnswersOwnSegment = kSimulated;

/// Whether MPI_Win_sync is missing, as in SMPI 3.32 (it warns "Not yet implemented" and
/// returns). mpi::SharedWindow::sync() then fences instead.
inline constexpr bool kWinSyncMissing = kSimulated;

/// Why the `neighbor` variable backend is refused under simulation, "" natively.
inline std::string_view neighbor_refusal(bool simulated = kSimulated) {
  return simulated ? "SimGrid SMPI 3.32 does not implement MPI_Dist_graph_create_adjacent (it "
                     "aborts); sparse talks to the same partners"
                   : "";
}

}  // namespace a2afft::detail::simulator
