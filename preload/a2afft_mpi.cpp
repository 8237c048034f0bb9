// liba2afft_mpi.so: MPI_Alltoall and MPI_Alltoallv through the MPI profiling interface, so that
// an unmodified MPI program (LD_PRELOAD=liba2afft_mpi.so), C or Fortran, runs its all-to-alls
// on an a2afft backend.
//
// A2AFFT_ALLTOALL=<spec> picks the backend of MPI_Alltoall (any `a2afft list` spec) and
// A2AFFT_ALLTOALLV=<variable spec> the one of MPI_Alltoallv; unset, those calls go straight to
// the library. What is routed and why not is in alltoall.cpp and alltoallv.cpp; MPI_Ialltoall,
// MPI_Alltoall_init and the MPI_Wait/Test family that completes them in nonblocking.cpp; the
// Fortran entry points in fortran.cpp; the report (A2AFFT_REPORT, and the summary at MPI_Finalize)
// in report.cpp. Plans are cached per communicator (an attribute, freed by its delete callback when
// the communicator is freed; MPI_COMM_SELF's callback frees the rest at MPI_Finalize).
// A2AFFT_ALLTOALL_LOG=1 prints on rank 0 which backend ran, once per communicator and plan,
// and each fallback reason once per communicator. A bad spec or value is an error at the first
// call: one line on stderr and MPI_Abort, never a silent fallback. Virtual layouts
// (A2AFFT_RANKS_PER_NODE, ...) apply to every communicator.

#include <mpi.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "error.hpp"
#include "preload.hpp"

namespace a2afft::preload {

constinit thread_local bool inside_a2afft __attribute__((tls_model("initial-exec"))) = false;

LastLookup last_lookup;
std::atomic<const Setup*> made_setup{nullptr};

namespace {

// Caches in creation order, so MPI_Finalize frees them in the same order on every rank (plan
// destructors free communicators and shared windows, which is collective).
std::vector<std::unique_ptr<CommCache>>& live_caches() {
  static std::vector<std::unique_ptr<CommCache>> caches;
  return caches;
}

int delete_cache(MPI_Comm, int, void* attribute, void*) {
  auto* cache = static_cast<CommCache*>(attribute);
  if (last_lookup.cache == cache) last_lookup = {};
  std::erase_if(live_caches(),
                [&](const std::unique_ptr<CommCache>& owned) { return owned.get() == cache; });
  return MPI_SUCCESS;
}

int delete_all_at_finalize(MPI_Comm, int, void*, void*) {
  last_lookup = {};
  live_caches().clear();
  return MPI_SUCCESS;
}

// A spec variable: unset or empty leaves that call to the library; a bad spec is fatal.
void read_spec(MPI_Comm comm, const char* variable, bool* set, std::string* text,
               detail::Spec* spec, bool variable_size) {
  const char* value = std::getenv(variable);
  if (value == nullptr || *value == '\0') return;
  *set = true;
  *text = value;
  try {
    *spec = detail::parse_spec(*text);
    variable_size ? detail::check_variable_spec(*spec) : detail::check_spec(*spec);
  } catch (const UsageError& error) {
    fail(comm, std::string(variable) + "=" + *text + ": " + error.what());
  }
}

// The other variables: values outside what is documented are errors, not ignored.
void read_options(MPI_Comm comm, Setup& s) {
  if (const char* log = std::getenv("A2AFFT_ALLTOALL_LOG"); log != nullptr && *log != '\0') {
    if (std::strcmp(log, "0") != 0 && std::strcmp(log, "1") != 0) {
      fail(comm, std::string("A2AFFT_ALLTOALL_LOG=") + log + ": valid values are 0 and 1");
    }
    s.log = *log == '1';
  }
  if (const char* bound = std::getenv("A2AFFT_ALLTOALLV_CACHE"); bound != nullptr) {
    char* end = nullptr;
    errno = 0;
    const long value = std::strtol(bound, &end, 10);
    if (errno != 0 || end == bound || *end != '\0' || value < 1 || value > 4096) {
      fail(comm, std::string("A2AFFT_ALLTOALLV_CACHE=") + bound +
                     ": valid values are whole numbers from 1 to 4096 (plans per communicator)");
    }
    s.pattern_cache = static_cast<std::size_t>(value);
  }
  if (const char* path = std::getenv("A2AFFT_REPORT"); path != nullptr) {
    s.report_path = path;
    int world_rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    // Only world rank 0 writes it, at MPI_Finalize: find out now that it cannot.
    FILE* file = world_rank == 0 ? std::fopen(path, "w") : nullptr;
    if (world_rank == 0 && file == nullptr) {
      fail(MPI_COMM_SELF, std::string("A2AFFT_REPORT=") + path + ": cannot write it: " +
                              std::strerror(errno) + " (a file path is valid)");
    }
    if (file != nullptr) std::fclose(file);
  }
}

}  // namespace

[[noreturn]] void fail(MPI_Comm comm, const std::string& message) {
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  // The other ranks (which usually fail alike) leave the abort to rank 0: under MPICH an
  // earlier abort from them killed rank 0 before its line was out. Should rank 0 not fail
  // (an error on some ranks only), they say it themselves after a while: never a hang.
  if (rank != 0) {
    std::this_thread::sleep_for(std::chrono::seconds(5));
    std::fprintf(stderr, "a2afft: error: on rank %d: %s\n", rank, message.c_str());
  } else {
    std::fprintf(stderr, "a2afft: error: %s\n", message.c_str());
  }
  std::fflush(stderr);
  // MPICH's launcher dropped the line when the abort came right after it: give it time.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  PMPI_Abort(comm, 2);
  std::abort();
}

const Setup& make_setup(MPI_Comm comm) {
  static const Setup instance = [&] {
    Setup s;
    read_spec(comm, "A2AFFT_ALLTOALL", &s.alltoall, &s.alltoall_text, &s.alltoall_spec, false);
    read_spec(comm, "A2AFFT_ALLTOALLV", &s.alltoallv, &s.alltoallv_text, &s.alltoallv_spec, true);
    read_options(comm, s);
    if (!s.alltoall && !s.alltoallv && !s.counting()) return s;
    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_cache, &s.cache_key, nullptr);
    int self_key = MPI_KEYVAL_INVALID;
    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_all_at_finalize, &self_key, nullptr);
    PMPI_Comm_set_attr(MPI_COMM_SELF, self_key, nullptr);
    return s;
  }();
  made_setup.store(&instance, std::memory_order_release);
  return instance;
}

const detail::Topology& CommCache::topo(MPI_Comm comm) {
  if (!topology) {
    topology = std::make_unique<detail::Topology>(comm, LayoutRequest::from_environment());
  }
  return *topology;
}

CommCache& find_cache(MPI_Comm comm, const Setup& s) {
  void* attribute = nullptr;
  int found = 0;
  PMPI_Comm_get_attr(comm, s.cache_key, &attribute, &found);
  if (found) {
    last_lookup = {comm, static_cast<CommCache*>(attribute)};
    return *last_lookup.cache;
  }
  auto cache = std::make_unique<CommCache>();
  PMPI_Comm_size(comm, &cache->ranks);
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  cache->inter = inter != 0;
  cache->record = new_record(comm);
  CommCache* raw = cache.get();
  live_caches().push_back(std::move(cache));
  PMPI_Comm_set_attr(comm, s.cache_key, raw);
  last_lookup = {comm, raw};
  return *raw;
}

void log_once(MPI_Comm comm, CommCache& cache, const std::string& line) {
  if (!setup(comm).log || cache.logged[line]) return;
  cache.logged[line] = true;
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  if (rank == 0) std::fprintf(stderr, "a2afft: %s\n", line.c_str());
}

std::string contiguity(MPI_Datatype type, const char* side, MPI_Count* size) {
  MPI_Count lb = 0, extent = 0, true_lb = 0, true_extent = 0;
  PMPI_Type_size_x(type, size);
  PMPI_Type_get_extent_x(type, &lb, &extent);
  PMPI_Type_get_true_extent_x(type, &true_lb, &true_extent);
  if (lb != 0 || true_lb != 0 || extent != *size || true_extent != *size) {
    return std::string(side) + " is not contiguous";
  }
  return "";
}

}  // namespace a2afft::preload

extern "C" int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return a2afft::preload::alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                   "MPI_Alltoall (C)");
}

extern "C" int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  return a2afft::preload::alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                    rdispls, recvtype, comm, "MPI_Alltoallv (C)");
}

// The report is written before the library finalizes (it needs MPI_COMM_WORLD).
extern "C" int MPI_Finalize() {
  a2afft::preload::finish_report();
  return PMPI_Finalize();
}
