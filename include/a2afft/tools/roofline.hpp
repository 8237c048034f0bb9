#pragma once

// A roofline for the distributed FFTs: what this machine's memory and FFTW's arithmetic allow,
// measured, and the lower bound on a transform's time they give with its TransformTraffic.
//
//     const a2afft::CopyBandwidth memory = a2afft::measure_copy_bandwidth(MPI_COMM_WORLD);
//     const double roof = a2afft::measure_fft_compute_roof(MPI_COMM_WORLD);
//     const double seconds = a2afft::roofline_seconds(fft.traffic(), memory, roof);

#include <mpi.h>

#include <cstddef>

#include <a2afft/fft.hpp>

namespace a2afft {

/// memcpy's bandwidth on the ranks of one node, in bytes per second counted as bytes read plus
/// bytes written: a memcpy of B bytes moves 2B (the convention of TransformTraffic::bytes_moved,
/// and of STREAM's "Copy" row). Each figure is the median of several timed copies after one
/// that faults the pages in.
struct CopyBandwidth {
  /// The buffer each rank copied from (and the one it copied into): bytes, not both.
  std::size_t bytes = 0;
  /// One rank (the node's first) copying while the node's others wait at a barrier.
  double one_core_bytes_per_second = 0;
  /// Every rank of the node copying at once, per rank: 2 bytes / the slowest rank's time, each
  /// round. What each rank of a transform that runs on all of them can count on.
  double all_cores_bytes_per_second = 0;
  /// Ranks on the node, which copied at once.
  int node_ranks = 1;
};

/// The last-level cache hwloc reports (the largest cache of the machine, e.g. the L3), in bytes;
/// 0 when it reports none.
std::size_t last_level_cache_bytes();

/// Times memcpy of `bytes` on the ranks of each node of `comm` (MPI_COMM_TYPE_SHARED), alone
/// and all at once. `bytes` = 0 takes 4 times the last-level cache, or 256 MiB when hwloc
/// reports no cache, so that the copies stream from memory. Collective over `comm`; every rank
/// returns the values of its node (the same everywhere on one node). Allocates two buffers of
/// `bytes` on every rank for the duration of the call; a buffer smaller than 64 MiB is copied
/// several times per timed round, so that the rounds last long enough to time (and a small one
/// measures the caches' bandwidth, not memory's).
CopyBandwidth measure_copy_bandwidth(MPI_Comm comm, std::size_t bytes = 0);

/// FFTW's achieved flop rate, by fft_flops(), on one core: a batch of 16 c2c double transforms
/// of 1024 points (256 KiB in, 256 KiB out, out of place, so it stays in the core's cache and
/// never grows), planned with FFTW_MEASURE on every rank, timed on the node's first rank alone.
/// An FFT has no vendor peak worth comparing to; this is what the local FFTs of a transform can
/// reach when memory is not in the way. In flops per second; collective over `comm`.
double measure_fft_compute_roof(MPI_Comm comm);

/// The roofline's lower bound on one transform's time on a rank:
/// max(bytes_moved / all_cores_bytes_per_second, flops / flops_per_second). The max, not the
/// sum: a core that overlapped its copies and its arithmetic perfectly would reach it, so no
/// run can be faster; the sum (no overlap at all) would be an estimate, not a bound, since
/// out-of-order cores and prefetchers do overlap them in part.
double roofline_seconds(const TransformTraffic& traffic, const CopyBandwidth& memory,
                        double flops_per_second);

}  // namespace a2afft
