// Internals of liba2afft_mpi.so, the drop-in MPI_Alltoall / MPI_Alltoallv (docs/user-guide.md,
// "Drop-in"). The C entry points are in a2afft_mpi.cpp, the Fortran ones in fortran.cpp; both
// reach alltoall() and alltoallv() with C handles, so every binding routes the same way.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <list>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "registry.hpp"
#include "topology/topology.hpp"

namespace a2afft::preload {

/// The environment, read and checked once at the first intercepted call.
struct Setup {
  bool alltoall = false;  // A2AFFT_ALLTOALL is set
  std::string alltoall_text;
  detail::Spec alltoall_spec;
  bool alltoallv = false;  // A2AFFT_ALLTOALLV is set
  std::string alltoallv_text;
  detail::Spec alltoallv_spec;
  bool log = false;                // A2AFFT_ALLTOALL_LOG=1
  std::string report_path;         // A2AFFT_REPORT, "" for none
  std::size_t pattern_cache = 16;  // A2AFFT_ALLTOALLV_CACHE: plans kept per communicator
  int cache_key = MPI_KEYVAL_INVALID;
  /// Whether calls must be counted: a report is asked for, or the log while something is
  /// routed (without a spec and a report the drop-in stays out of the way, log or not).
  bool counting() const { return !report_path.empty() || (log && (alltoall || alltoallv)); }
};

/// The setup; a bad value is one line on stderr and MPI_Abort on `comm`.
const Setup& setup(MPI_Comm comm);

/// One line on stderr (rank 0 of `comm` prints it), then MPI_Abort: never returns.
[[noreturn]] void fail(MPI_Comm comm, const std::string& message);

/// What the report keeps per communicator and call kind, on one rank.
struct CallStats {
  long calls = 0;
  long routed = 0;
  long plans = 0;      // plans made (refusals included): each count pattern or block size once
  double bytes = 0;    // received by this rank (summed over ranks: what all ranks sent)
  double seconds = 0;  // inside the intercepted call, this rank
  std::map<std::string, long> backends;   // the plan's describe() -> routed calls
  std::map<std::string, long> fallbacks;  // reason -> calls
};

/// One communicator's counts, kept after the communicator is freed (for the report).
struct CommRecord {
  std::string label;  // "MPI_COMM_WORLD", "world ranks 0,2", ... (report.cpp)
  int size = 0;
  std::map<std::string, CallStats> kinds;  // "MPI_Alltoall (C)", ...
};

/// One MPI_Alltoallv plan, for one combination of every rank's counts and displacements.
struct PatternPlan {
  long id = 0;  // the same on every rank: plans are made collectively, in the same order
  std::unique_ptr<detail::VariableExchangePlan> plan;  // nullptr: refused, see `refusal`
  std::string refusal;
};

/// What one communicator has cached (an attribute of it).
struct CommCache {
  std::unique_ptr<detail::Topology> topology;  // made at the first plan (collective)
  std::map<std::size_t, std::unique_ptr<detail::ExchangePlan>> plans;  // by block bytes
  std::map<std::size_t, std::string> refusals;           // block sizes the backend refused
  std::map<std::vector<std::size_t>, long> pattern_ids;  // this rank's pattern -> plan id
  std::list<PatternPlan> patterns;  // most recently used first, at most Setup::pattern_cache
  long next_pattern_id = 0;
  std::map<std::string, bool> logged;  // log lines already printed (each once)
  CommRecord* record = nullptr;        // owned by the report's table (report.cpp)

  const detail::Topology& topo(MPI_Comm comm);
};

/// The cache of `comm`, made at its first use (local: no MPI communication).
CommCache& cache_of(MPI_Comm comm, const Setup& s);

/// Prints "a2afft: <line>" on rank 0 of `comm` the first time (per communicator) it is asked.
void log_once(MPI_Comm comm, CommCache& cache, const std::string& line);

/// Why a datatype cannot be routed ("" when it is contiguous: extent = size, no holes, lb 0);
/// its size in `size`.
std::string contiguity(MPI_Datatype type, const char* side, MPI_Count* size);

/// Backends may call MPI_Alltoall(v) themselves (`mpi`, inner=mpi): those go to the library.
extern thread_local bool inside_a2afft;

/// MPI_Alltoall / MPI_Alltoallv, routed or not; `kind` names the call and binding in logs and
/// the report ("MPI_Alltoall (C)", "MPI_Alltoall (Fortran)").
int alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
             int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const char* kind);
int alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
              MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
              MPI_Datatype recvtype, MPI_Comm comm, const char* kind);

/// The report's record for a new communicator's cache (report.cpp).
CommRecord* new_record(MPI_Comm comm);
/// Counts one call in `cache`'s record: `backend` when routed, else `fallback` (its reason);
/// `planned` when the call made a plan (or found a refusal) for a pattern or block size.
void count_call(CommCache& cache, const char* kind, double bytes, double seconds,
                const std::string& backend, const std::string& fallback, bool planned);
/// At MPI_Finalize (collective over MPI_COMM_WORLD): the report file and the summary on rank 0,
/// when asked for. Before PMPI_Finalize, while the caches still exist.
void finish_report();

}  // namespace a2afft::preload
