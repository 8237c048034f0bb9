#pragma once

// The plain rows every command hands to its reporters (console, JSON, CSV): values only, no
// plans, so a reporter never depends on how a row was measured.

#include <nlohmann/json.hpp>

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "report/context.hpp"
#include "report/stats.hpp"

namespace a2afft::report {

/// What is printed once before the rows (Google Benchmark's context) and stored beside them.
struct Header {
  RunContext context;
  std::string summary;             // the console's `# ...` line: the settings in words
  nlohmann::json settings;         // the JSON's "settings"
  std::string roofline_summary{};  // --roofline: the console's `# roofline: ...` line, else empty
  nlohmann::json roofline{};       // --roofline: the JSON's "roofline", else null
};

/// A row's place under the roofline (--roofline), for a plan that counts its traffic: the max
/// over ranks of what one forward transform moves and computes per rank, and the bound.
struct RooflineCells {
  double memory_passes = 0;  // bytes_moved / the array's bytes per rank
  double bytes_moved = 0;    // per rank, read + written
  double flops = 0;          // per rank
  double bound_seconds = 0;  // max(bytes / bandwidth, flops / FFTW's rate)
};

/// An exchange's copy bound (`a2afft alltoall --roofline`): every one of the P blocks, our own
/// included (run() must place it too), has to be read once from where it was sent and written
/// once into the receive buffer, so no exchange on one node beats memcpy of those bytes at the
/// rate of all cores copying at once (single-copy transports, such as CMA, reach it; between
/// nodes the network adds its own). The rate is given for what comes from other ranks.
struct CopyBoundCells {
  std::size_t off_rank_bytes = 0;  // per rank: (P - 1) blocks, for GB/s off-rank
  double bound_seconds = 0;        // 2 x P blocks / memcpy's all-cores bytes per second
};

/// What building a plan cost (`a2afft alltoall --plan-time`).
struct PlanCostCells {
  double seconds = 0;  // max over ranks
  // The heap (glibc malloc's bytes in use) the built plan holds, per rank: schedules,
  // communicators, scratch that is not folded. Max over ranks, or, where all ranks share one
  // process (the simulated build), the process's growth divided by P.
  double heap_bytes_per_rank = 0;
};

/// One exchange at one block size (`a2afft alltoall`). A run's time is the max over ranks; the
/// seconds are the median, min and max over the timed runs. A plan-only row (--plan-only) was
/// built and measured but never run: it has `plan` and no times, and reporters leave them out.
struct AlltoallRow {
  std::size_t block_bytes = 0;
  std::string spec;      // as given
  std::string exchange;  // describe()
  double median_seconds = 0, min_seconds = 0, max_seconds = 0;
  std::string check;                                   // PASS, FAIL, or "-" without --validate
  std::string failure;                                 // what failed, on rank 0
  std::map<std::string, double> phase_median_seconds;  // --phases: per run the max over ranks
  std::optional<CopyBoundCells> copy_bound{};          // --roofline, where P > 1
  std::optional<PlanCostCells> plan{};                 // --plan-time
  bool plan_only = false;                              // --plan-only: built, never run
  std::optional<OsuSummary> osu{};                     // --stats osu: osu_alltoall -f's figures
  // --stats osu: osu_ialltoall's figures for a row whose plan has a split phase, or why the
  // row has none (no split phase, or one the platform refuses).
  std::optional<OsuOverlap> osu_overlap{};
  std::string osu_overlap_none{};
};

/// One engine and plan of an FFT benchmark (`a2afft fft3d`, `fft1d`).
struct FftRow {
  std::string engine;
  std::string exchange;  // the plan's describe()
  Summary total, transpose, compute;
  bool has_split = false;  // transpose and compute were recorded (forward only)
  // Reshaping between the application's boxes and the plan's (--in-grid, --out-grid), when the
  // plan has them.
  std::optional<Summary> reshape;
  std::optional<Summary> backward_total;
  // Bytes a rank's exchanges send to others in forward + backward (the busiest rank's): shown
  // for padded transforms, which exchange only the modes.
  std::optional<double> exchanged_bytes;
  double gflops = 0;
  double round_trip_error = 0;           // max |IFFT(FFT(x))/N - x| / max |x|
  double round_trip_absolute_error = 0;  // max |IFFT(FFT(x))/N - x|: HPCC's maxErr
  std::optional<double> fftw_mpi_error;
  bool passed = true;
  bool roofline = false;               // the run measured a roofline (columns shown)
  std::optional<RooflineCells> bound;  // this row's, when its plan counts its traffic
  // "2 ranks x 2 threads": the row's split of the cores, when the run asked for threads (--threads
  // above 1); empty otherwise, and the files keep their columns.
  std::string ranks_x_threads;
};

/// The phases any row recorded: the node-aware family's in [node-aware-2025]'s order, then the
/// rest by name. Every reporter gives them in this order.
std::vector<std::string> phase_names(const std::vector<AlltoallRow>& rows);

/// Whether any row has a copy bound (alltoall --roofline): then every reporter adds its columns.
bool any_copy_bound(const std::vector<AlltoallRow>& rows);

/// Whether any row has a plan time (alltoall --plan-time): then every reporter adds its column.
bool any_plan_time(const std::vector<AlltoallRow>& rows);

/// Whether any row has OSU's figures (alltoall --stats osu): then every reporter adds them.
bool any_osu(const std::vector<AlltoallRow>& rows);

/// Whether any row has osu_ialltoall's figures or says why it has none (alltoall --stats osu on
/// a run): then every reporter adds their columns.
bool any_osu_overlap(const std::vector<AlltoallRow>& rows);

/// Whether any row is plan only (alltoall --plan-only): then the files say so on every row.
bool any_plan_only(const std::vector<AlltoallRow>& rows);

/// Whether any row was run and timed: the console's time columns only then.
bool any_timed(const std::vector<AlltoallRow>& rows);

/// The median of `mpi` at `block_bytes`, for the ratio column; 0 when it was not run.
double vendor_median_seconds(const std::vector<AlltoallRow>& rows, std::size_t block_bytes);

}  // namespace a2afft::report
