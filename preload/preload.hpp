// Internals of liba2afft_mpi.so, the drop-in MPI_Alltoall / MPI_Alltoallv / MPI_Ialltoall
// (docs/user-guide.md, "Drop-in"). The C entry points are in a2afft_mpi.cpp and nonblocking.cpp,
// the Fortran ones in fortran.cpp; all reach alltoall(), alltoallv() and ialltoall() with C
// handles, so every binding routes the same way.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstddef>
#include <list>
#include <map>
#include <memory>
#include <string>
#include <vector>

// Plans are built through make_exchange.hpp, the documented interface for code outside the
// backend table (it brings the Topology each communicator's plans are built on).
#include "make_exchange.hpp"

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
  /// When a counted call starts (PMPI_Wtime), 0 when nothing is counted: the clock costs 20 to
  /// 25 ns on the development VM, a third of a routed 64 B call on one rank.
  double call_start() const { return counting() ? PMPI_Wtime() : 0.0; }
};

/// The setup once made, nullptr before: setup()'s fast path, a load instead of a call and a
/// static's guard on every routed call.
extern std::atomic<const Setup*> made_setup;
/// Reads the environment once (collective-free); a bad value is one line and MPI_Abort.
const Setup& make_setup(MPI_Comm comm);

/// The setup; a bad value is one line on stderr and MPI_Abort on `comm`.
inline const Setup& setup(MPI_Comm comm) {
  const Setup* made = made_setup.load(std::memory_order_acquire);
  return made != nullptr ? *made : make_setup(comm);
}

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

/// MPI_Alltoallv plans by pattern (alltoallv.cpp).
struct PatternCache {
  std::map<std::vector<std::size_t>, long> ids;  // this rank's pattern -> plan id
  std::list<PatternPlan> plans;                  // most recently used first
  long next_id = 0;
};

/// Contiguous copies of one call's send and receive blocks, for a rank whose datatypes have holes
/// or whose buffers are MPI_BOTTOM (alltoall.cpp). Kept between calls: they only grow.
struct Staging {
  std::vector<std::byte> send, recv;
};

/// One side of an MPI_Alltoall: its buffer, count per block and datatype.
struct Side {
  const void* buffer;
  int count;
  MPI_Datatype type;
};

/// The bytes a plan runs on for one MPI_Alltoall: the caller's buffers where its datatypes are
/// contiguous, else `staging`'s, packed at construction; finish() unpacks what was received.
class StagedBlocks {
 public:
  StagedBlocks(const Side& send, const Side& recv, int ranks, MPI_Comm comm, Staging& staging);
  const std::byte* send() const { return send_; }
  std::byte* recv() const { return recv_; }
  void finish() const;

 private:
  Side recv_side_;
  int ranks_;
  MPI_Comm comm_;
  Staging* staging_;
  const std::byte* send_;
  std::byte* recv_;
};

struct CommCache;
/// Why no rank can route this MPI_Alltoall (the same answer on every rank: alltoall.cpp), or
/// "" when every rank routes it. Aborts on an erroneous call whose send and receive blocks
/// differ in size on this rank.
std::string alltoall_obstacle(const Side& send, const Side& recv, const CommCache& cache,
                              MPI_Comm comm, std::size_t* block_bytes);

/// The plan of A2AFFT_ALLTOALL for `block_bytes` in `plans` (made at the first call, logged
/// under the name of `call`), or nullptr when the backend refuses the layout (`why` says why).
/// Collective at the first call.
detail::ExchangePlan* alltoall_plan(
    MPI_Comm comm, const Setup& s, CommCache& cache,
    std::map<std::size_t, std::unique_ptr<detail::ExchangePlan>>& plans, std::size_t block_bytes,
    const char* call, std::string* why);

/// What one communicator has cached (an attribute of it).
struct CommCache {
  int ranks = 0;  // its size and kind, fixed for its life: asked once, not per call
  bool inter = false;
  std::unique_ptr<detail::Topology> topology;  // made at the first plan (collective)
  std::map<std::size_t, std::unique_ptr<detail::ExchangePlan>> plans;  // by block bytes
  // MPI_Ialltoall's and MPI_Alltoall_init's plans, apart from the blocking calls' (nonblocking.cpp)
  std::map<std::size_t, std::unique_ptr<detail::ExchangePlan>> split_plans;
  std::map<std::size_t, std::string> refusals;  // block sizes the backend refused
  PatternCache patterns;  // MPI_Alltoallv's: at most Setup::pattern_cache plans
  // MPI_Alltoallv_init's: none is evicted (a persistent request may start its plan at any later
  // MPI_Start); they go with the communicator.
  PatternCache persistent_patterns;
  std::map<std::string, bool> logged;  // log lines already printed (each once)
  // Each plan's describe(), made once: the report names the backend of every call.
  std::map<const detail::DescribedPlan*, std::string> descriptions;
  Staging staging;                               // the blocking MPI_Alltoall's (alltoall.cpp)
  CommRecord* record = nullptr;                  // owned by the report's table (report.cpp)
  std::map<const char*, CallStats*> kind_stats;  // `record`'s rows by the kind's literal
  // The last MPI_Alltoall routed with predefined datatypes and no staging: a call with the same
  // counts and types routes on the same plan without asking anything (alltoall.cpp).
  struct RoutedCall {
    int send_count = -1, recv_count = -1;
    MPI_Datatype send_type = MPI_DATATYPE_NULL, recv_type = MPI_DATATYPE_NULL;
    detail::ExchangePlan* plan = nullptr;
  } last_routed;

  const detail::Topology& topo(MPI_Comm comm);
};

/// The last communicator looked up and its cache: applications call on one communicator many
/// times in a row, and PMPI_Comm_get_attr is a hash lookup. Forgotten when that cache is freed
/// (a new communicator may get the freed one's handle).
struct LastLookup {
  MPI_Comm comm = MPI_COMM_NULL;
  CommCache* cache = nullptr;
};
extern LastLookup last_lookup;

/// cache_of's slow path: the attribute lookup, or a new cache.
CommCache& find_cache(MPI_Comm comm, const Setup& s);

/// The cache of `comm`, made at its first use (local: no MPI communication).
inline CommCache& cache_of(MPI_Comm comm, const Setup& s) {
  if (comm == last_lookup.comm && last_lookup.cache != nullptr) return *last_lookup.cache;
  return find_cache(comm, s);
}

/// Prints "a2afft: <line>" on rank 0 of `comm` the first time (per communicator) it is asked.
void log_once(MPI_Comm comm, CommCache& cache, const std::string& line);

/// Why a datatype cannot be routed ("" when it is contiguous: extent = size, no holes, lb 0);
/// its size in `size`.
std::string contiguity(MPI_Datatype type, const char* side, MPI_Count* size);

/// Backends may call MPI_Alltoall(v) themselves (`mpi`, inner=mpi): those go to the library.
// Initial-exec: the drop-in is loaded at start (LD_PRELOAD), so its thread-local sits in the
// static TLS block and each test of it is one load, not a __tls_get_addr call.
extern constinit thread_local bool inside_a2afft __attribute__((tls_model("initial-exec")));

/// MPI_Alltoall / MPI_Alltoallv, routed or not; `kind` names the call and binding in logs and
/// the report ("MPI_Alltoall (C)", "MPI_Alltoall (Fortran)").
int alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
             int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const char* kind);
int alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
              MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
              MPI_Datatype recvtype, MPI_Comm comm, const char* kind);

/// MPI_Ialltoall and, where the MPI library has it (A2AFFT_HAVE_ALLTOALL_INIT), MPI_Alltoall_init:
/// through the backend's split phase, or the library's call (nonblocking.cpp). `kind` as above
/// ("MPI_Ialltoall (Fortran)").
int ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
              int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request,
              const char* kind);
#if A2AFFT_HAVE_ALLTOALL_INIT
int alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                  MPI_Request* request, const char* kind);
#endif
#if A2AFFT_HAVE_ALLTOALLV_INIT
/// MPI_Alltoallv_init: planned now through A2AFFT_ALLTOALLV, run at MPI_Start (nonblocking.cpp).
int alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                   MPI_Request* request, const char* kind);
#endif

/// The plan of A2AFFT_ALLTOALLV for one MPI_Alltoallv_init (alltoallv.cpp): collective, agreed
/// among the ranks as MPI_Alltoallv's are, kept in `cache.persistent_patterns`; nullptr, with
/// `why`, when some rank cannot route the call or the backend refuses it.
detail::VariableExchangePlan* persistent_alltoallv_plan(const void* sendbuf, const int sendcounts[],
                                                        const int sdispls[], MPI_Datatype sendtype,
                                                        const void* recvbuf, const int recvcounts[],
                                                        const int rdispls[], MPI_Datatype recvtype,
                                                        MPI_Comm comm, CommCache& cache,
                                                        std::string* why);
/// What this rank receives in one MPI_Alltoallv (the report's bytes).
double received_bytes(const int recvcounts[], MPI_Datatype recvtype, MPI_Comm comm);

/// Whether the drop-in has MPI_Ialltoall or persistent requests of its own alive (none: every
/// request is the library's, and a wait or test may go straight to it).
bool requests_in_flight();
/// Whether any of `requests` is one of the drop-in's (nonblocking.cpp).
bool any_ours(int count, const MPI_Request requests[]);
/// Moves the drop-in's requests among `requests` on: each to its end when `block`, else as far as
/// it goes without blocking. One that reaches its end has its generalized request completed, so
/// that the library's own wait or test then completes and frees it (as Fortran's MPI_WAIT and
/// MPI_TEST family do, which call the library directly: fortran.cpp). The others are left alone.
void progress(int count, const MPI_Request requests[], bool block);

/// Whether any of `requests` is a persistent request of the drop-in's (MPI_Alltoall(v)_init).
bool any_persistent(int count, const MPI_Request requests[]);

/// The C MPI_Wait/Test family, MPI_Start(all) and MPI_Request_free over C handles, the drop-in's
/// requests among them or not (nonblocking.cpp): what the C entry points run, and the Fortran ones
/// that cannot leave a call to the library (fortran.cpp).
int wait(MPI_Request* request, MPI_Status* status);
int test(MPI_Request* request, int* flag, MPI_Status* status);
int wait_all(int count, MPI_Request requests[], MPI_Status statuses[]);
int test_all(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]);
int wait_any(int count, MPI_Request requests[], int* index, MPI_Status* status);
int test_any(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status);
int wait_some(int count, MPI_Request requests[], int* outcount, int indices[],
              MPI_Status statuses[]);
int test_some(int count, MPI_Request requests[], int* outcount, int indices[],
              MPI_Status statuses[]);
int start(MPI_Request* request);
int start_all(int count, MPI_Request requests[]);
int request_free(MPI_Request* request);

/// The report's record for a new communicator's cache (report.cpp).
CommRecord* new_record(MPI_Comm comm);
/// Counts one call in `cache`'s record: `backend` when routed, else `fallback` (its reason);
/// `planned` when the call made a plan (or found a refusal) for a pattern or block size.
void count_call(CommCache& cache, const char* kind, double bytes, double seconds,
                const std::string& backend, const std::string& fallback, bool planned);
/// count_call()'s `backend` for a call that was not routed.
inline const std::string kNotRouted;
/// At MPI_Finalize (collective over MPI_COMM_WORLD): the report file and the summary on rank 0,
/// when asked for. Before PMPI_Finalize, while the caches still exist.
void finish_report();

}  // namespace a2afft::preload
