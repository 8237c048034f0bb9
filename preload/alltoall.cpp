// MPI_Alltoall through the backend of A2AFFT_ALLTOALL. A call is routed when, on every rank, it
// is not in place, the communicator is an intracommunicator, and both datatypes are contiguous
// (extent = size, no holes) with sendcount * size(sendtype) = recvcount * size(recvtype) > 0.
// The ranks agree on that with one small PMPI_Allreduce per call, because a datatype can be
// contiguous on one rank and not on another. Anything else, or a layout the backend refuses,
// goes to PMPI_Alltoall. Plans are cached per communicator and block size.

#include <string>

#include "error.hpp"
#include "preload.hpp"

namespace a2afft::preload {
namespace {

// Why this rank cannot route the call, or "" when it can; `block_bytes` on success.
std::string local_obstacle(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                           const void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                           std::size_t* block_bytes) {
  if (sendbuf == MPI_IN_PLACE) return "MPI_IN_PLACE";
  // MPI_BOTTOM is the null address in Open MPI and MPICH: buffers at absolute addresses.
  if (sendbuf == MPI_BOTTOM || recvbuf == MPI_BOTTOM) return "MPI_BOTTOM (absolute addresses)";
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter) return "an intercommunicator";
  MPI_Count send_size = 0, recv_size = 0;
  if (auto why = contiguity(sendtype, "sendtype", &send_size); !why.empty()) return why;
  if (auto why = contiguity(recvtype, "recvtype", &recv_size); !why.empty()) return why;
  const MPI_Count sent = send_size * sendcount, received = recv_size * recvcount;
  if (sent != received) return "send and receive blocks differ in size";
  if (sent <= 0) return "empty blocks";
  *block_bytes = static_cast<std::size_t>(sent);
  return "";
}

// The plan for this call, or nullptr when the backend refuses the layout (`why` says why).
detail::ExchangePlan* plan_for(MPI_Comm comm, const Setup& s, CommCache& cache,
                               std::size_t block_bytes, std::string* why) {
  if (const auto known = cache.plans.find(block_bytes); known != cache.plans.end()) {
    return known->second.get();
  }
  if (const auto refused = cache.refusals.find(block_bytes); refused != cache.refusals.end()) {
    *why = refused->second;
    return nullptr;
  }
  const detail::Topology& topology = cache.topo(comm);
  const std::string where = "MPI_Alltoall on " + topology.describe_layout() + ", " +
                            std::to_string(block_bytes) + " B blocks";
  const detail::ExchangeProblem problem{topology, block_bytes};
  try {
    *why = detail::exchange_refusal(s.alltoall_spec, problem);
    if (!why->empty()) {
      cache.refusals[block_bytes] = *why;
      return nullptr;
    }
    auto plan = detail::make_exchange(s.alltoall_spec, problem);
    log_once(comm, cache, where + ": " + plan->describe());
    return (cache.plans[block_bytes] = std::move(plan)).get();
  } catch (const UsageError& error) {
    fail(comm, "A2AFFT_ALLTOALL=" + s.alltoall_text + ": " + error.what());
  }
}

}  // namespace

int alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
             int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const char* kind) {
  const auto vendor = [&] {
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  };
  if (inside_a2afft) return vendor();
  const Setup& s = setup(comm);
  if (!s.alltoall && !s.counting()) return vendor();
  const double start = PMPI_Wtime();
  CommCache& cache = cache_of(comm, s);
  std::size_t block_bytes = 0;
  std::string why = s.alltoall ? local_obstacle(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                                recvtype, comm, &block_bytes)
                               : "A2AFFT_ALLTOALL is not set";
  if (s.alltoall) {
    int mine = why.empty() ? 1 : 0, all = 0;
    PMPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm);
    if (!all && why.empty()) why = "another rank cannot route this call";
  }
  detail::ExchangePlan* plan = nullptr;
  const std::size_t known = cache.plans.size() + cache.refusals.size();
  inside_a2afft = true;
  int rc = MPI_SUCCESS;
  try {
    if (why.empty()) plan = plan_for(comm, s, cache, block_bytes, &why);
    if (plan == nullptr) {
      rc = vendor();
    } else {
      plan->run(static_cast<const std::byte*>(sendbuf), static_cast<std::byte*>(recvbuf));
    }
  } catch (const std::exception& error) {
    inside_a2afft = false;
    fail(comm, std::string(kind) + " through " + s.alltoall_text + ": " + error.what());
  }
  inside_a2afft = false;
  if (plan == nullptr && s.alltoall) {
    log_once(comm, cache, std::string(kind) + ": fallback to PMPI_Alltoall: " + why);
  }
  if (s.counting()) {
    int size = 0, ranks = 1;
    PMPI_Type_size(recvtype, &size);
    PMPI_Comm_size(comm, &ranks);
    count_call(cache, kind, static_cast<double>(size) * recvcount * ranks, PMPI_Wtime() - start,
               plan ? plan->describe() : "", why,
               cache.plans.size() + cache.refusals.size() != known);
  }
  return rc;
}

}  // namespace a2afft::preload
