#pragma once

// Memory estimates made before anything large is allocated: a run that cannot fit is refused
// with what it needs and what the machine has, instead of being killed by the kernel halfway.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <a2afft/tools/topology.hpp>

#include "run_order.hpp"

namespace a2afft::cli {

/// One thing a command will hold, in bytes: exactly, or at most (`bound`: the exchanges'
/// scratch, which depends on choices the plans make later).
struct MemoryItem {
  std::string what;
  double bytes = 0;
  bool bound = false;
};

/// What a command will hold at its peak: `per_rank` on every rank, and `on_rank0` besides on
/// rank 0 (the checks gather global arrays there).
struct MemoryEstimate {
  std::vector<MemoryItem> per_rank;
  std::vector<MemoryItem> on_rank0;
  /// With the bounds, or only what is certain.
  double per_rank_bytes(bool with_bounds = true) const;
  double on_rank0_bytes(bool with_bounds = true) const;
};

/// Scratch of a plan of `spec` on `ranks` ranks (largest node `largest_node`) with blocks of
/// `block_bytes`: the registry's bound, for auto and every other backend.
double exchange_scratch_bytes(const std::string& spec, int ranks, int largest_node,
                              std::size_t block_bytes);

/// The peak memory of an FFT benchmark of `points` complex doubles: per a2afft plan five local
/// arrays (its input, data, work array, send, receive) and its exchanges' scratch
/// (`scratch_per_plan`, one entry per a2afft plan), FFTW-MPI's four; every plan at once when
/// interleaved.
/// Rank 0 also holds the gathered output and FFTW-MPI's reference for the checks.
MemoryEstimate fft_memory_estimate(double points, const RankMap& ranks, Order order, bool fftw_mpi,
                                   const std::vector<double>& scratch_per_plan);

/// MemAvailable from the text of /proc/meminfo, in bytes.
std::optional<double> parse_meminfo_available(std::string_view meminfo);
/// The room a cgroup v2 limit leaves: memory.max minus memory.current; nullopt for "max".
std::optional<double> parse_cgroup_room(std::string_view max, std::string_view current);

/// Bytes this host can still give: MemAvailable, capped by the cgroup's limit when it has one;
/// `source` says which.
double available_memory_bytes(std::string* source = nullptr);

/// "1.5 GiB", "512.0 MiB", "3.0 TiB".
std::string format_bytes(double bytes);

/// Throws UsageError on every rank when the busiest host (its ranks' per-rank need, plus rank
/// 0's extra where rank 0 lives) certainly needs more than it has available; when only the
/// bounds go beyond, rank 0 prints a warning and the run goes on. In simulation (SMPI) the host
/// is this machine, which holds every simulated rank. `what` names the request,
/// e.g. `fft3d --size=4096x4096x4096 on a 1x2 grid`. Collective over MPI_COMM_WORLD, whose
/// ranks `ranks` maps. A2AFFT_SKIP_MEMORY_CHECK=1 turns the check off.
void check_memory_fits(const MemoryEstimate& estimate, const RankMap& ranks, std::string_view what);

}  // namespace a2afft::cli
