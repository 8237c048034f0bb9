// liba2afft_mpi.so: MPI_Alltoall through the MPI profiling interface, so that an unmodified
// MPI program (LD_PRELOAD=liba2afft_mpi.so) runs its all-to-alls on an a2afft backend.
//
// A2AFFT_ALLTOALL=<spec> picks the backend (any `a2afft list` spec); unset, every call goes
// straight to PMPI_Alltoall. A call is routed when, on every rank, it is not in place, the
// communicator is an intracommunicator, and both datatypes are contiguous (extent = size, no
// holes) with sendcount * size(sendtype) = recvcount * size(recvtype) > 0. The ranks agree on
// that with one small PMPI_Allreduce per call, because a datatype can be contiguous on one rank
// and not on another. Anything else, or a layout the backend refuses, goes to PMPI_Alltoall.
// Plans are cached per communicator (an attribute, freed by its delete callback when the
// communicator is freed; MPI_COMM_SELF's callback frees the rest at MPI_Finalize) and block
// size. A2AFFT_ALLTOALL_LOG=1 prints on rank 0 which backend ran, once per communicator and
// block size, and every fallback with its reason. A bad spec or value is an error at the first
// call: one line on stderr and MPI_Abort, never a silent fallback. Virtual layouts
// (A2AFFT_RANKS_PER_NODE, ...) apply to every communicator.

#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "error.hpp"
#include "registry.hpp"
#include "topology/topology.hpp"

namespace {

using a2afft::detail::ExchangePlan;
using a2afft::detail::ExchangeProblem;
using a2afft::detail::Spec;
using a2afft::detail::Topology;

// What one communicator has cached.
struct CommCache {
  std::unique_ptr<Topology> topology;
  std::map<std::size_t, std::unique_ptr<ExchangePlan>> plans;  // by block bytes
  std::map<std::size_t, std::string> refusals;                 // block sizes the backend refused
};

// Caches in creation order, so MPI_Finalize frees them in the same order on every rank (plan
// destructors free communicators and shared windows, which is collective).
std::vector<std::unique_ptr<CommCache>>& live_caches() {
  static std::vector<std::unique_ptr<CommCache>> caches;
  return caches;
}

void release(CommCache* cache) {
  auto& caches = live_caches();
  std::erase_if(caches,
                [&](const std::unique_ptr<CommCache>& owned) { return owned.get() == cache; });
}

int delete_cache(MPI_Comm, int, void* attribute, void*) {
  release(static_cast<CommCache*>(attribute));
  return MPI_SUCCESS;
}

int delete_all_at_finalize(MPI_Comm, int, void*, void*) {
  live_caches().clear();
  return MPI_SUCCESS;
}

// Set up once, at the first call: the spec, checked, and the attribute keys.
struct Setup {
  bool enabled = false;
  bool log = false;
  std::string text;
  Spec spec;
  int cache_key = MPI_KEYVAL_INVALID;
};

[[noreturn]] void fail(MPI_Comm comm, const std::string& message) {
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  if (rank == 0) std::fprintf(stderr, "a2afft: error: %s\n", message.c_str());
  std::fflush(stderr);
  PMPI_Abort(comm, 2);
  std::abort();
}

const Setup& setup(MPI_Comm comm) {
  static Setup instance = [&] {
    Setup s;
    const char* text = std::getenv("A2AFFT_ALLTOALL");
    const char* log = std::getenv("A2AFFT_ALLTOALL_LOG");
    s.log = log != nullptr && std::string(log) == "1";
    if (text == nullptr || *text == '\0') return s;
    s.enabled = true;
    s.text = text;
    try {
      s.spec = a2afft::detail::parse_spec(s.text);
      a2afft::detail::check_spec(s.spec);
    } catch (const a2afft::UsageError& error) {
      fail(comm, "A2AFFT_ALLTOALL=" + s.text + ": " + error.what());
    }
    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_cache, &s.cache_key, nullptr);
    int self_key = MPI_KEYVAL_INVALID;
    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_all_at_finalize, &self_key, nullptr);
    PMPI_Comm_set_attr(MPI_COMM_SELF, self_key, nullptr);
    return s;
  }();
  return instance;
}

// Why this rank cannot route the call, or "" when it can; `block_bytes` on success.
std::string local_obstacle(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm, std::size_t* block_bytes) {
  if (sendbuf == MPI_IN_PLACE) return "MPI_IN_PLACE";
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter) return "an intercommunicator";
  MPI_Count sizes[2] = {0, 0};
  for (int side = 0; side < 2; ++side) {
    MPI_Datatype type = side == 0 ? sendtype : recvtype;
    MPI_Count size = 0, lb = 0, extent = 0, true_lb = 0, true_extent = 0;
    PMPI_Type_size_x(type, &size);
    PMPI_Type_get_extent_x(type, &lb, &extent);
    PMPI_Type_get_true_extent_x(type, &true_lb, &true_extent);
    if (lb != 0 || true_lb != 0 || extent != size || true_extent != size) {
      return std::string(side == 0 ? "sendtype" : "recvtype") + " is not contiguous";
    }
    sizes[side] = size * (side == 0 ? sendcount : recvcount);
  }
  if (sizes[0] != sizes[1]) return "send and receive blocks differ in size";
  if (sizes[0] <= 0) return "empty blocks";
  *block_bytes = static_cast<std::size_t>(sizes[0]);
  return "";
}

CommCache& cache_of(MPI_Comm comm, const Setup& s) {
  void* attribute = nullptr;
  int found = 0;
  PMPI_Comm_get_attr(comm, s.cache_key, &attribute, &found);
  if (found) return *static_cast<CommCache*>(attribute);
  auto cache = std::make_unique<CommCache>();
  cache->topology = std::make_unique<Topology>(comm, a2afft::LayoutRequest::from_environment());
  CommCache* raw = cache.get();
  live_caches().push_back(std::move(cache));
  PMPI_Comm_set_attr(comm, s.cache_key, raw);
  return *raw;
}

void log_line(const Topology& topology, const std::string& line) {
  if (topology.rank() == 0) std::fprintf(stderr, "a2afft: %s\n", line.c_str());
}

// The plan for this call, or nullptr when the backend refuses the layout (logged once).
ExchangePlan* plan_for(MPI_Comm comm, const Setup& s, std::size_t block_bytes) {
  CommCache& cache = cache_of(comm, s);
  if (const auto known = cache.plans.find(block_bytes); known != cache.plans.end()) {
    return known->second.get();
  }
  const Topology& topology = *cache.topology;
  const std::string where = "MPI_Alltoall on " + topology.describe_layout() + ", " +
                            std::to_string(block_bytes) + " B blocks";
  if (const auto refused = cache.refusals.find(block_bytes); refused != cache.refusals.end()) {
    if (s.log) log_line(topology, where + ": fallback to PMPI_Alltoall: " + refused->second);
    return nullptr;
  }
  const ExchangeProblem problem{topology, block_bytes};
  try {
    const std::string why = a2afft::detail::exchange_refusal(s.spec, problem);
    if (!why.empty()) {
      cache.refusals[block_bytes] = why;
      if (s.log) log_line(topology, where + ": fallback to PMPI_Alltoall: " + why);
      return nullptr;
    }
    auto plan = a2afft::detail::make_exchange(s.spec, problem);
    if (s.log) log_line(topology, where + ": " + plan->describe());
    return (cache.plans[block_bytes] = std::move(plan)).get();
  } catch (const a2afft::UsageError& error) {
    fail(comm, "A2AFFT_ALLTOALL=" + s.text + ": " + error.what());
  }
}

// Backends may call MPI_Alltoall themselves (`mpi`, inner=mpi): those go to the library.
thread_local bool inside_a2afft = false;

}  // namespace

extern "C" int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  const auto vendor = [&] {
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  };
  if (inside_a2afft) return vendor();
  const Setup& s = setup(comm);
  if (!s.enabled) return vendor();
  std::size_t block_bytes = 0;
  const std::string obstacle =
      local_obstacle(sendbuf, sendcount, sendtype, recvcount, recvtype, comm, &block_bytes);
  int mine = obstacle.empty() ? 1 : 0, all = 0;
  PMPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm);
  if (!all) {
    int rank = 0;
    PMPI_Comm_rank(comm, &rank);
    if (s.log && rank == 0) {
      std::fprintf(stderr, "a2afft: MPI_Alltoall: fallback to PMPI_Alltoall: %s\n",
                   obstacle.empty() ? "another rank cannot route this call" : obstacle.c_str());
    }
    return vendor();
  }
  inside_a2afft = true;
  int rc = MPI_SUCCESS;
  try {
    ExchangePlan* plan = plan_for(comm, s, block_bytes);
    if (plan == nullptr) {
      rc = vendor();
    } else {
      plan->run(static_cast<const std::byte*>(sendbuf), static_cast<std::byte*>(recvbuf));
    }
  } catch (const std::exception& error) {
    inside_a2afft = false;
    fail(comm, std::string("MPI_Alltoall through ") + s.text + ": " + error.what());
  }
  inside_a2afft = false;
  return rc;
}
