// MPI_Alltoallv through the variable-size backend of A2AFFT_ALLTOALLV (VariableExchangePlan).
// A call is routed when, on every rank, it is not in place, the communicator is an
// intracommunicator, both datatypes are contiguous and no count or displacement is negative;
// anything else, or counts the backend refuses, goes to PMPI_Alltoallv.
//
// MPI_Alltoallv_init plans the same way, once, into a cache of its own that is never evicted
// (persistent_alltoallv_plan(); nonblocking.cpp runs the plan at each MPI_Start).
//
// Applications repeat one count/displacement pattern every step, so plans are cached per
// communicator and pattern. A plan is collective, made for the patterns of all ranks together,
// so the ranks must agree on which plan runs: each rank looks its own pattern up (a plan id, or
// -1), and the one PMPI_Allreduce that agrees on routing also gives the lowest and highest id.
// Equal: that plan runs everywhere. Otherwise every rank makes a new plan (ids count up the
// same on every rank). Every call uses one plan on all ranks, so the least recently used order
// is the same everywhere, and eviction (beyond A2AFFT_ALLTOALLV_CACHE plans, default 16) frees
// the same plan on every rank at the same call, as its collective destructor needs.

#include <algorithm>
#include <string>

#include "error.hpp"
#include "preload.hpp"

namespace a2afft::preload {
namespace {

struct Layout {
  detail::PeerBytes send;
  detail::PeerBytes recv;
};

// One side's counts and displacements in bytes; empty peers get offset 0 (their displacement
// means nothing, and must not make two equal patterns differ).
detail::PeerBytes side_bytes(const int counts[], const int displs[], MPI_Count size, int ranks) {
  detail::PeerBytes side;
  side.bytes.resize(ranks);
  side.offsets.resize(ranks);
  for (int j = 0; j < ranks; ++j) {
    side.bytes[j] = static_cast<std::size_t>(counts[j]) * static_cast<std::size_t>(size);
    side.offsets[j] = side.bytes[j] == 0 ? 0 : static_cast<std::size_t>(displs[j]) * size;
  }
  return side;
}

// Why this rank cannot route the call, or "" when it can; the byte layout on success.
std::string local_obstacle(const void* sendbuf, const int sendcounts[], const int sdispls[],
                           MPI_Datatype sendtype, const void* recvbuf, const int recvcounts[],
                           const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                           Layout* layout) {
  if (sendbuf == MPI_IN_PLACE) return "MPI_IN_PLACE";
  int inter = 0, ranks = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter) return "an intercommunicator";
  MPI_Count send_size = 0, recv_size = 0;
  if (auto why = contiguity(sendtype, "sendtype", &send_size); !why.empty()) return why;
  if (auto why = contiguity(recvtype, "recvtype", &recv_size); !why.empty()) return why;
  PMPI_Comm_size(comm, &ranks);
  for (int j = 0; j < ranks; ++j) {
    if (sendcounts[j] < 0 || recvcounts[j] < 0 || sdispls[j] < 0 || rdispls[j] < 0) {
      return "a negative count or displacement";
    }
  }
  layout->send = side_bytes(sendcounts, sdispls, send_size, ranks);
  layout->recv = side_bytes(recvcounts, rdispls, recv_size, ranks);
  // A null buffer is MPI_BOTTOM (absolute addresses), unless its side moves no byte: programs
  // pass NULL on a rank that sends or receives nothing, and such calls route.
  if ((sendbuf == MPI_BOTTOM && layout->send.total() > 0) ||
      (recvbuf == MPI_BOTTOM && layout->recv.total() > 0)) {
    return "MPI_BOTTOM (absolute addresses)";
  }
  return "";
}

std::vector<std::size_t> pattern_key(const Layout& layout) {
  std::vector<std::size_t> key;
  for (const auto* part :
       {&layout.send.bytes, &layout.send.offsets, &layout.recv.bytes, &layout.recv.offsets}) {
    key.insert(key.end(), part->begin(), part->end());
  }
  return key;
}

// The cached plan `id`, moved to the front (most recently used).
PatternPlan& touch(PatternCache& patterns, long id) {
  auto found = std::find_if(patterns.plans.begin(), patterns.plans.end(),
                            [&](const PatternPlan& p) { return p.id == id; });
  patterns.plans.splice(patterns.plans.begin(), patterns.plans, found);
  return patterns.plans.front();
}

// A new plan for every rank's current pattern (collective), cached in `patterns` under this
// rank's key; the least recently used plans beyond `bound` are freed.
PatternPlan& make_pattern(MPI_Comm comm, const Setup& s, CommCache& cache, PatternCache& patterns,
                          std::size_t bound, const Layout& layout, std::vector<std::size_t> key) {
  const detail::VariableProblem problem{cache.topo(comm), layout.send, layout.recv};
  try {
    detail::check_variable_problem(problem);
  } catch (const UsageError& error) {
    fail(comm, std::string("MPI_Alltoallv: the counts do not match: ") + error.what());
  }
  PatternPlan entry;
  entry.id = patterns.next_id++;
  try {
    entry.refusal = detail::variable_exchange_refusal(s.alltoallv_spec, problem);
    if (entry.refusal.empty()) {
      entry.plan = detail::make_variable_exchange(s.alltoallv_spec, problem);
      cache.descriptions[entry.plan.get()] = entry.plan->describe();
    }
  } catch (const UsageError& error) {
    fail(comm, "A2AFFT_ALLTOALLV=" + s.alltoallv_text + ": " + error.what());
  }
  patterns.plans.push_front(std::move(entry));
  patterns.ids[std::move(key)] = patterns.plans.front().id;
  while (patterns.plans.size() > bound) {
    const long evicted = patterns.plans.back().id;
    std::erase_if(patterns.ids, [&](const auto& known) { return known.second == evicted; });
    cache.descriptions.erase(patterns.plans.back().plan.get());
    patterns.plans.pop_back();
  }
  return patterns.plans.front();
}

// Every rank's vote: routable, and the lowest and highest plan id (as -(-id)) it would run.
struct Vote {
  std::string why;  // "" when routable
  long plan = -1;   // -1: this rank has no plan for its pattern
};

Vote agree(MPI_Comm comm, std::string why, long plan) {
  long mine[3] = {why.empty() ? 1 : 0, plan, -plan}, all[3] = {0, 0, 0};
  PMPI_Allreduce(mine, all, 3, MPI_LONG, MPI_MIN, comm);
  if (!all[0]) return {why.empty() ? "another rank cannot route this call" : why, -1};
  return {"", all[1] >= 0 && all[1] == -all[2] ? all[1] : -1};
}

}  // namespace

namespace {

// The plan every rank agreed on for this call (-1: make a new one), from this rank's pattern
// (left in `key`); `why` becomes the reason to fall back when some rank cannot route.
long agreed_plan(MPI_Comm comm, const PatternCache& patterns, const Layout& layout,
                 std::string* why, std::vector<std::size_t>* key) {
  long mine = -1;
  if (why->empty()) {
    *key = pattern_key(layout);
    if (auto known = patterns.ids.find(*key); known != patterns.ids.end()) {
      mine = known->second;
    }
  }
  const Vote vote = agree(comm, *why, mine);
  *why = vote.why;
  return vote.plan;
}

// The routed run of a call all ranks can route: the agreed plan, or a new one. Returns the
// plan that ran, or nullptr with `why` (the backend's refusal) when the library must.
detail::VariableExchangePlan* run_routed(MPI_Comm comm, const Setup& s, CommCache& cache,
                                         const Layout& layout, std::vector<std::size_t> key,
                                         long agreed, const void* sendbuf, void* recvbuf,
                                         std::string* why) {
  const bool made = agreed < 0;
  PatternPlan& entry =
      made ? make_pattern(comm, s, cache, cache.patterns, s.pattern_cache, layout, std::move(key))
           : touch(cache.patterns, agreed);
  const std::string where = "MPI_Alltoallv on " + cache.topo(comm).describe_layout() +
                            ", pattern " + std::to_string(entry.id);
  if (entry.plan == nullptr) {
    *why = entry.refusal;
    return nullptr;
  }
  if (made) log_once(comm, cache, where + ": " + cache.descriptions[entry.plan.get()]);
  entry.plan->run(static_cast<const std::byte*>(sendbuf), static_cast<std::byte*>(recvbuf));
  return entry.plan.get();
}

}  // namespace

int alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
              MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
              MPI_Datatype recvtype, MPI_Comm comm, const char* kind) {
  const auto vendor = [&] {
    return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                          recvtype, comm);
  };
  if (inside_a2afft) return vendor();
  const Setup& s = setup(comm);
  if (!s.alltoallv && !s.counting()) return vendor();
  const double start = s.call_start();
  CommCache& cache = cache_of(comm, s);
  Layout layout;
  std::string why = s.alltoallv ? local_obstacle(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                                 recvcounts, rdispls, recvtype, comm, &layout)
                                : "A2AFFT_ALLTOALLV is not set";
  std::vector<std::size_t> key;
  const long agreed = s.alltoallv ? agreed_plan(comm, cache.patterns, layout, &why, &key) : -1;
  detail::VariableExchangePlan* plan = nullptr;
  const long made = cache.patterns.next_id;
  int rc = MPI_SUCCESS;
  inside_a2afft = true;
  try {
    if (why.empty()) {
      plan = run_routed(comm, s, cache, layout, std::move(key), agreed, sendbuf, recvbuf, &why);
    }
    if (plan == nullptr) rc = vendor();
  } catch (const std::exception& error) {
    inside_a2afft = false;
    fail(comm, std::string(kind) + " through " + s.alltoallv_text + ": " + error.what());
  }
  inside_a2afft = false;
  if (plan == nullptr && s.alltoallv) {
    log_once(comm, cache, std::string(kind) + ": fallback to PMPI_Alltoallv: " + why);
  }
  if (s.counting()) {
    count_call(cache, kind, received_bytes(recvcounts, recvtype, comm), PMPI_Wtime() - start,
               plan ? cache.descriptions[plan] : kNotRouted, why, cache.patterns.next_id != made);
  }
  return rc;
}

double received_bytes(const int recvcounts[], MPI_Datatype recvtype, MPI_Comm comm) {
  int size = 0, ranks = 0;
  PMPI_Type_size(recvtype, &size);
  PMPI_Comm_size(comm, &ranks);
  double bytes = 0;
  for (int j = 0; j < ranks; ++j)
    bytes += static_cast<double>(size) * recvcounts[j];
  return bytes;
}

detail::VariableExchangePlan* persistent_alltoallv_plan(const void* sendbuf, const int sendcounts[],
                                                        const int sdispls[], MPI_Datatype sendtype,
                                                        const void* recvbuf, const int recvcounts[],
                                                        const int rdispls[], MPI_Datatype recvtype,
                                                        MPI_Comm comm, CommCache& cache,
                                                        std::string* why) {
  const Setup& s = setup(comm);
  Layout layout;
  *why = local_obstacle(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                        recvtype, comm, &layout);
  std::vector<std::size_t> key;
  const long agreed = agreed_plan(comm, cache.persistent_patterns, layout, why, &key);
  if (!why->empty()) return nullptr;
  PatternPlan* entry = nullptr;
  inside_a2afft = true;
  try {
    entry = agreed >= 0 ? &touch(cache.persistent_patterns, agreed)
                        : &make_pattern(comm, s, cache, cache.persistent_patterns,
                                        static_cast<std::size_t>(-1), layout, std::move(key));
  } catch (const std::exception& error) {
    inside_a2afft = false;
    fail(comm, "MPI_Alltoallv_init through " + s.alltoallv_text + ": " + error.what());
  }
  inside_a2afft = false;
  if (entry->plan == nullptr) {
    *why = entry->refusal;
    return nullptr;
  }
  if (agreed < 0) {
    log_once(comm, cache,
             "MPI_Alltoallv_init on " + cache.topo(comm).describe_layout() + ", pattern " +
                 std::to_string(entry->id) + ": " + cache.descriptions[entry->plan.get()] +
                 " (whole at each MPI_Start: no split phase)");
  }
  return entry->plan.get();
}

}  // namespace a2afft::preload
