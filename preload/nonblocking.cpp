// MPI_Ialltoall and the persistent MPI_Alltoall_init through a backend's split phase
// (ExchangePlan::start / test / finish), and the persistent MPI_Alltoallv_init through the
// variable-size backend of A2AFFT_ALLTOALLV (planned at init as MPI_Alltoallv is, with its
// agreement, in alltoallv.cpp; that family has no split phase, so MPI_Start runs the plan whole
// and returns once every rank has started), completed through the application's own MPI_Wait and
// MPI_Test family, which the drop-in catches: the C bindings here, the Fortran ones (which call
// PMPI_Wait & co. directly in Open MPI and in MPICH's mpi_f08) in fortran.cpp, through progress().
//
// What routes: what MPI_Alltoall routes (alltoall.cpp: the same rule, no agreement), and only
// backends whose start() returns with messages in flight (overlaps(): nonblocking, mpi, or auto
// that chose one); for the others start() would do the whole exchange, so the call goes to the
// library, with that reason. Plans are kept per communicator and block size apart from the
// blocking calls' plans.
//
// Handles. MPI_Ialltoall returns a generalized request (MPI_Grequest_start), so that every MPI
// call that takes a request accepts it; it is completed (MPI_Grequest_complete) once finish() ran
// inside the application's MPI_Wait/Test. MPI_Alltoall_init returns the library's own persistent
// request, made with the same arguments but never started: MPI_Start starts our plan instead, and
// MPI_Wait/Test on the inactive request return at once after our finish(). MPI_Request_free ends
// it.
//
// Progress: between start and completion the backend's next messages go out inside the
// application's MPI_Test/Wait calls on these requests (nonblocking posts its next batch when the
// last arrived), not inside unrelated MPI calls as the library's own MPI_Ialltoall may.
//
// Order: a plan carries one exchange at a time. When an MPI_Ialltoall or MPI_Start finds its
// plan still busy with an earlier call of the same communicator and block size, it completes
// that one first (blocking: the earlier call was started on every rank, in the same collective
// order, so its peers complete it too). Planning is collective and happens at the first
// MPI_Ialltoall of a communicator and block size, or at MPI_Alltoall_init.
// Threads: as the rest of the drop-in, one thread calls MPI at a time.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "error.hpp"
#include "preload.hpp"

namespace a2afft::preload {
namespace {

// One nonblocking or persistent MPI_Alltoall, or persistent MPI_Alltoallv, the drop-in routes.
struct SplitCall {
  detail::ExchangePlan* plan = nullptr;
  // MPI_Alltoallv_init's plan instead: the variable-size family has no split phase, so MPI_Start
  // runs it whole (every rank's MPI_Start returns once all have started) and leaves it finished.
  detail::VariableExchangePlan* variable = nullptr;
  double bytes = 0;  // received by this rank per call (the report's)
  Side send{}, recv{};
  MPI_Comm comm = MPI_COMM_NULL;
  CommCache* cache = nullptr;
  const char* kind = "";
  bool persistent = false;
  MPI_Request request = MPI_REQUEST_NULL;  // the application's handle
  Staging staging;
  std::optional<StagedBlocks> blocks;  // while started and not complete
  // Complete, and not yet reported so by the application's wait or test: progress() (Fortran's
  // waits) finishes calls that the library's call, or ours, reports afterwards.
  bool finished = false;

  bool active() const { return blocks.has_value() || finished; }
};

// The calls by their handle; a persistent one stays until MPI_Request_free.
std::map<MPI_Request, std::unique_ptr<SplitCall>>& calls() {
  static std::map<MPI_Request, std::unique_ptr<SplitCall>> table;
  return table;
}

// The call each plan carries now.
std::map<const detail::ExchangePlan*, SplitCall*>& busy_plans() {
  static std::map<const detail::ExchangePlan*, SplitCall*> table;
  return table;
}

SplitCall* find_call(MPI_Request request) {
  if (request == MPI_REQUEST_NULL) return nullptr;
  const auto found = calls().find(request);
  return found == calls().end() ? nullptr : found->second.get();
}

// Moves `call` on (blocking: to its end); true when it is complete (or was not started).
bool advance(SplitCall& call, bool block) {
  if (!call.blocks) return true;
  inside_a2afft = true;
  try {
    if (!block && !call.plan->test()) {
      inside_a2afft = false;
      return false;
    }
    call.plan->finish();
    call.blocks->finish();
  } catch (const std::exception& error) {
    inside_a2afft = false;
    fail(call.comm, std::string(call.kind) + " through " + setup(call.comm).alltoall_text + ": " +
                        error.what());
  }
  inside_a2afft = false;
  call.blocks.reset();
  call.finished = true;
  busy_plans().erase(call.plan);
  if (!call.persistent) PMPI_Grequest_complete(call.request);
  return true;
}

// Starts `call`'s exchange, completing first an earlier call its plan still carries.
void start_call(SplitCall& call) {
  if (const auto earlier = busy_plans().find(call.plan); earlier != busy_plans().end()) {
    advance(*earlier->second, true);
  }
  inside_a2afft = true;
  try {
    call.blocks.emplace(call.send, call.recv, call.cache->ranks, call.comm, call.staging);
    call.plan->start(call.blocks->send(), call.blocks->recv());
  } catch (const std::exception& error) {
    inside_a2afft = false;
    fail(call.comm, std::string(call.kind) + " through " + setup(call.comm).alltoall_text + ": " +
                        error.what());
  }
  inside_a2afft = false;
  busy_plans()[call.plan] = &call;
}

// The generalized request's callbacks: an MPI_Alltoall's status is empty; its record is
// dropped when the application's Wait/Test frees the request.
int query_status(void*, MPI_Status* status) {
  PMPI_Status_set_elements(status, MPI_BYTE, 0);
  PMPI_Status_set_cancelled(status, 0);
  status->MPI_SOURCE = MPI_UNDEFINED;
  status->MPI_TAG = MPI_UNDEFINED;
  return MPI_SUCCESS;
}
int free_call(void* state) {
  auto* call = static_cast<SplitCall*>(state);
  calls().erase(call->request);
  return MPI_SUCCESS;
}
int refuse_cancel(void*, int) {
  return MPI_SUCCESS;
}  // collectives cannot be cancelled

// The split-phase plan for this `call`, or nullptr with `why`.
detail::ExchangePlan* split_plan(const Side& send, const Side& recv, MPI_Comm comm, const Setup& s,
                                 CommCache& cache, const char* call, std::string* why) {
  if (!s.alltoall) {
    *why = "A2AFFT_ALLTOALL is not set";
    return nullptr;
  }
  std::size_t block_bytes = 0;
  *why = alltoall_obstacle(send, recv, cache, comm, &block_bytes);
  if (!why->empty()) return nullptr;
  inside_a2afft = true;
  detail::ExchangePlan* plan =
      alltoall_plan(comm, s, cache, cache.split_plans, block_bytes, call, why);
  inside_a2afft = false;
  if (plan != nullptr && !plan->overlaps()) {
    *why = cache.descriptions[plan] + " has no split phase (its start() would run it whole)";
    return nullptr;
  }
  return plan;
}

// Counts the starting call in the report (seconds: inside the starting call).
void count_start(CommCache& cache, const char* kind, double bytes, MPI_Comm comm, double start,
                 const detail::DescribedPlan* plan, const std::string& why, bool planned) {
  if (!setup(comm).counting()) return;
  count_call(cache, kind, bytes, PMPI_Wtime() - start, plan ? cache.descriptions[plan] : kNotRouted,
             why, planned);
}

// What one MPI_Alltoall receives on this rank.
double uniform_bytes(const Side& recv, int ranks) {
  int type_bytes = 0;
  PMPI_Type_size(recv.type, &type_bytes);
  return static_cast<double>(type_bytes) * recv.count * ranks;
}

// A routed call on `plan`, kept under the application's handle `request`.
SplitCall& keep_call(std::unique_ptr<SplitCall> call, MPI_Request request) {
  call->request = request;
  SplitCall& kept = *call;
  calls()[request] = std::move(call);
  return kept;
}

std::unique_ptr<SplitCall> new_call(detail::ExchangePlan* plan, const Side& send, const Side& recv,
                                    MPI_Comm comm, CommCache& cache, const char* kind,
                                    bool persistent) {
  auto call = std::make_unique<SplitCall>();
  call->plan = plan;
  call->send = send;
  call->recv = recv;
  call->comm = comm;
  call->cache = &cache;
  call->kind = kind;
  call->persistent = persistent;
  if (setup(comm).counting()) call->bytes = uniform_bytes(recv, cache.ranks);
  return call;
}

}  // namespace

namespace {

// Plans a nonblocking or persistent MPI_Alltoall (`call`): when the backend takes it, `keep`
// gets the new call; otherwise the reason is logged once (after `fallback`). Counted either way.
// Returns whether it was routed.
template <class Keep>
bool route_split(const Side& send, const Side& recv, MPI_Comm comm, const char* call,
                 const char* kind, bool persistent, const char* fallback, Keep keep) {
  const Setup& s = setup(comm);
  const double start = s.call_start();
  CommCache& cache = cache_of(comm, s);
  const std::size_t known = cache.split_plans.size() + cache.refusals.size();
  std::string why;
  detail::ExchangePlan* plan = split_plan(send, recv, comm, s, cache, call, &why);
  if (plan != nullptr) {
    keep(new_call(plan, send, recv, comm, cache, kind, persistent));
  } else if (s.alltoall) {
    log_once(comm, cache, std::string(kind) + ": " + fallback + ": " + why);
  }
  if (s.counting()) {
    count_start(cache, kind, uniform_bytes(recv, cache.ranks), comm, start, plan, why,
                cache.split_plans.size() + cache.refusals.size() != known);
  }
  return plan != nullptr;
}

}  // namespace

int ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
              int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request,
              const char* kind) {
  const auto vendor = [&] {
    return PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                          request);
  };
  if (inside_a2afft) return vendor();
  const Setup& s = setup(comm);
  if (!s.alltoall && !s.counting()) return vendor();
  const bool routed = route_split(
      {sendbuf, sendcount, sendtype}, {recvbuf, recvcount, recvtype}, comm, "MPI_Ialltoall", kind,
      false, "fallback to PMPI_Ialltoall", [&](std::unique_ptr<SplitCall> call) {
        PMPI_Grequest_start(query_status, free_call, refuse_cancel, call.get(), request);
        start_call(keep_call(std::move(call), *request));
      });
  return routed ? MPI_SUCCESS : vendor();
}

#if A2AFFT_HAVE_ALLTOALL_INIT
int alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                  MPI_Request* request, const char* kind) {
  // The library's own request, made in every case: routed, it is the handle, never started.
  const int rc = PMPI_Alltoall_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                    comm, info, request);
  if (inside_a2afft || rc != MPI_SUCCESS) return rc;
  const Setup& s = setup(comm);
  if (!s.alltoall && !s.counting()) return rc;
  route_split({sendbuf, sendcount, sendtype}, {recvbuf, recvcount, recvtype}, comm,
              "MPI_Alltoall_init", kind, true, "left to the library",
              [&](std::unique_ptr<SplitCall> call) { keep_call(std::move(call), *request); });
  return rc;
}
#endif

#if A2AFFT_HAVE_ALLTOALLV_INIT
int alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                   MPI_Request* request, const char* kind) {
  // The library's own request, made in every case: routed, it is the handle, never started.
  const int rc = PMPI_Alltoallv_init(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                     rdispls, recvtype, comm, info, request);
  if (inside_a2afft || rc != MPI_SUCCESS) return rc;
  const Setup& s = setup(comm);
  if (!s.alltoallv && !s.counting()) return rc;
  const double start = s.call_start();
  CommCache& cache = cache_of(comm, s);
  const long known = cache.persistent_patterns.next_id;
  std::string why = "A2AFFT_ALLTOALLV is not set";
  detail::VariableExchangePlan* plan =
      s.alltoallv ? persistent_alltoallv_plan(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                              recvcounts, rdispls, recvtype, comm, cache, &why)
                  : nullptr;
  const double bytes = received_bytes(recvcounts, recvtype, comm);
  if (plan != nullptr) {
    auto call =
        new_call(nullptr, {sendbuf, 0, sendtype}, {recvbuf, 0, recvtype}, comm, cache, kind, true);
    call->variable = plan;
    call->bytes = bytes;
    keep_call(std::move(call), *request);
  } else if (s.alltoallv) {
    log_once(comm, cache, std::string(kind) + ": left to the library: " + why);
  }
  count_start(cache, kind, bytes, comm, start, plan, why,
              cache.persistent_patterns.next_id != known);
  return rc;
}
#endif

namespace {

// Runs an MPI_Alltoallv_init's plan whole (MPI_Start).
void run_whole(SplitCall& call) {
  inside_a2afft = true;
  try {
    call.variable->run(static_cast<const std::byte*>(call.send.buffer),
                       static_cast<std::byte*>(const_cast<void*>(call.recv.buffer)));
  } catch (const std::exception& error) {
    inside_a2afft = false;
    fail(call.comm, std::string(call.kind) + " through " + setup(call.comm).alltoallv_text + ": " +
                        error.what());
  }
  inside_a2afft = false;
  call.finished = true;
}

// Starts one persistent request: ours by our plan, the others by the library.
int start_one(MPI_Request* request) {
  SplitCall* call = find_call(*request);
  if (call == nullptr || !call->persistent) return PMPI_Start(request);
  const double start = setup(call->comm).call_start();
  if (call->variable != nullptr) {
    run_whole(*call);
    count_start(*call->cache, "MPI_Start (C)", call->bytes, call->comm, start, call->variable, "",
                false);
  } else {
    start_call(*call);
    count_start(*call->cache, "MPI_Start (C)", call->bytes, call->comm, start, call->plan, "",
                false);
  }
  return MPI_SUCCESS;
}

// The status to write for element `i` of `statuses` (which may be MPI_STATUSES_IGNORE).
MPI_Status* status_at(MPI_Status statuses[], int i) {
  return statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
}

// The application's view of a finished call of ours: a generalized request is completed and
// freed by the library's own PMPI_Test; a persistent one stays, inactive, with an empty status
// (the library is never asked: MPICH 4.0's PMPI_Wait blocks on a persistent collective request
// that was never started).
int complete_finished(SplitCall& call, MPI_Request* request, MPI_Status* status) {
  call.finished = false;
  if (!call.persistent) {
    int flag = 0;
    return PMPI_Test(request, &flag, status);
  }
  if (status != MPI_STATUS_IGNORE) {
    PMPI_Status_set_elements(status, MPI_BYTE, 0);
    PMPI_Status_set_cancelled(status, 0);
    status->MPI_SOURCE = MPI_ANY_SOURCE;
    status->MPI_TAG = MPI_ANY_TAG;
    status->MPI_ERROR = MPI_SUCCESS;
  }
  return MPI_SUCCESS;
}

// `requests` with our persistent ones replaced by MPI_REQUEST_NULL, for the library's calls
// (it would see them as never started); copy_back() returns its changes to the others.
std::vector<MPI_Request> library_view(int count, const MPI_Request requests[]) {
  std::vector<MPI_Request> view(requests, requests + count);
  for (MPI_Request& request : view) {
    if (const SplitCall* call = find_call(request); call != nullptr && call->persistent) {
      request = MPI_REQUEST_NULL;
    }
  }
  return view;
}
void copy_back(const std::vector<MPI_Request>& view, MPI_Request requests[]) {
  for (std::size_t i = 0; i < view.size(); ++i) {
    const SplitCall* call = find_call(requests[i]);
    if (call == nullptr || !call->persistent) requests[i] = view[i];
  }
}

// One pass over `requests` with some of ours among them: ours are moved on (finished when done
// and then freed or left inactive through PMPI_Test), the library's tested in one PMPI_Testsome.
// The completed ones' indices go to `done` (and their statuses), as MPI_Testsome gives them;
// `active` says whether anything was still active.
int test_some_mixed(int count, MPI_Request requests[], std::vector<int>& done,
                    MPI_Status statuses[], bool* active) {
  std::vector<int> theirs;
  std::vector<MPI_Request> their_requests;
  *active = false;
  for (int i = 0; i < count; ++i) {
    SplitCall* call = find_call(requests[i]);
    if (call == nullptr) {
      theirs.push_back(i);
      their_requests.push_back(requests[i]);
      continue;
    }
    if (!call->active()) continue;  // an inactive persistent request of ours
    *active = true;
    if (!advance(*call, false)) continue;
    complete_finished(*call, &requests[i], status_at(statuses, i));
    done.push_back(i);
  }
  std::vector<int> indices(theirs.size());
  std::vector<MPI_Status> their_statuses(theirs.size());
  int completed = 0;
  const int rc = PMPI_Testsome(static_cast<int>(theirs.size()), their_requests.data(), &completed,
                               indices.data(), their_statuses.data());
  for (std::size_t k = 0; k < theirs.size(); ++k)
    requests[theirs[k]] = their_requests[k];
  if (completed == MPI_UNDEFINED) return rc;
  *active = true;
  for (int k = 0; k < completed; ++k) {
    const int i = theirs[indices[k]];
    if (statuses != MPI_STATUSES_IGNORE) statuses[i] = their_statuses[k];
    done.push_back(i);
  }
  return rc;
}

// MPI_Waitsome/Testsome (and, taking the first, Waitany/Testany) over a mix of ours and the
// library's requests: polls until something completes, or once when not `block`.
int some_mixed(int count, MPI_Request requests[], int* outcount, int indices[],
               MPI_Status statuses[], bool block) {
  std::vector<MPI_Status> scratch(statuses == MPI_STATUSES_IGNORE ? 0 : count);
  for (;;) {
    std::vector<int> done;
    bool active = false;
    const int rc =
        test_some_mixed(count, requests, done,
                        statuses == MPI_STATUSES_IGNORE ? statuses : scratch.data(), &active);
    if (rc != MPI_SUCCESS) return rc;
    if (!active) {
      *outcount = MPI_UNDEFINED;
      return MPI_SUCCESS;
    }
    if (!done.empty() || !block) {
      *outcount = static_cast<int>(done.size());
      for (std::size_t k = 0; k < done.size(); ++k) {
        indices[k] = done[k];
        if (statuses != MPI_STATUSES_IGNORE) statuses[k] = scratch[done[k]];
      }
      return MPI_SUCCESS;
    }
  }
}

// One pass of MPI_Waitany/Testany over a mix of ours and the library's requests: completes at
// most one (ours first, then one PMPI_Testany over the library's). `*index` is MPI_UNDEFINED
// with `*flag` set when nothing at all is active.
int any_pass(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  std::vector<int> theirs;
  std::vector<MPI_Request> their_requests;
  bool ours_active = false;
  for (int i = 0; i < count; ++i) {
    SplitCall* call = find_call(requests[i]);
    if (call == nullptr) {
      theirs.push_back(i);
      their_requests.push_back(requests[i]);
    } else if (call->active()) {
      ours_active = true;
      if (advance(*call, false)) {
        *index = i;
        *flag = 1;
        return complete_finished(*call, &requests[i], status);
      }
    }
  }
  int their_index = MPI_UNDEFINED;
  const int rc = PMPI_Testany(static_cast<int>(theirs.size()), their_requests.data(), &their_index,
                              flag, status);
  for (std::size_t k = 0; k < theirs.size(); ++k)
    requests[theirs[k]] = their_requests[k];
  *index = their_index == MPI_UNDEFINED ? MPI_UNDEFINED : theirs[their_index];
  if (*flag && their_index == MPI_UNDEFINED && ours_active) *flag = 0;  // ours still to come
  return rc;
}

}  // namespace

bool requests_in_flight() {
  return !inside_a2afft && !calls().empty();
}

bool any_ours(int count, const MPI_Request requests[]) {
  if (!requests_in_flight()) return false;
  for (int i = 0; i < count; ++i)
    if (find_call(requests[i]) != nullptr) return true;
  return false;
}

bool any_persistent(int count, const MPI_Request requests[]) {
  if (!requests_in_flight()) return false;
  for (int i = 0; i < count; ++i) {
    if (const SplitCall* call = find_call(requests[i]); call != nullptr && call->persistent) {
      return true;
    }
  }
  return false;
}

void progress(int count, const MPI_Request requests[], bool block) {
  for (int i = 0; i < count; ++i) {
    if (SplitCall* call = find_call(requests[i])) advance(*call, block);
  }
}

}  // namespace a2afft::preload

namespace a2afft::preload {

// The MPI_Wait/Test family: ours moved on first, then the library's call, which completes
// (generalized requests) or finds inactive (persistent ones) what ours finished.
int wait(MPI_Request* request, MPI_Status* status) {
  if (!any_ours(1, request)) return PMPI_Wait(request, status);
  SplitCall& call = *find_call(*request);
  advance(call, true);
  return call.persistent ? complete_finished(call, request, status) : PMPI_Wait(request, status);
}

int test(MPI_Request* request, int* flag, MPI_Status* status) {
  if (!any_ours(1, request)) return PMPI_Test(request, flag, status);
  SplitCall& call = *find_call(*request);
  *flag = advance(call, false) ? 1 : 0;
  return *flag ? complete_finished(call, request, status) : MPI_SUCCESS;
}

// Waitall/Testall: ours moved on (to the end when `block`); when all of ours are done, the
// library's call over the rest, our finished generalized requests among them.
int all_mixed(int count, MPI_Request requests[], int* flag, MPI_Status statuses[], bool block) {
  bool ours_done = true;
  for (int i = 0; i < count; ++i) {
    if (SplitCall* call = find_call(requests[i])) ours_done = advance(*call, block) && ours_done;
  }
  if (!ours_done) {
    *flag = 0;
    return MPI_SUCCESS;
  }
  std::vector<MPI_Request> view = library_view(count, requests);
  const int rc = block ? PMPI_Waitall(count, view.data(), statuses)
                       : PMPI_Testall(count, view.data(), flag, statuses);
  if (block) *flag = 1;
  copy_back(view, requests);
  for (int i = 0; i < count && *flag; ++i) {  // ours left are persistent: reported now
    if (SplitCall* call = find_call(requests[i])) call->finished = false;
  }
  return rc;
}

int wait_all(int count, MPI_Request requests[], MPI_Status statuses[]) {
  if (!any_ours(count, requests)) return PMPI_Waitall(count, requests, statuses);
  int flag = 0;
  return all_mixed(count, requests, &flag, statuses, true);
}

int test_all(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  if (!any_ours(count, requests)) return PMPI_Testall(count, requests, flag, statuses);
  return all_mixed(count, requests, flag, statuses, false);
}

int wait_any(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  if (!any_ours(count, requests)) return PMPI_Waitany(count, requests, index, status);
  for (int flag = 0;;) {
    const int rc = any_pass(count, requests, index, &flag, status);
    if (rc != MPI_SUCCESS || flag) return rc;
  }
}

int test_any(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  if (!any_ours(count, requests)) return PMPI_Testany(count, requests, index, flag, status);
  return any_pass(count, requests, index, flag, status);
}

int wait_some(int count, MPI_Request requests[], int* outcount, int indices[],
              MPI_Status statuses[]) {
  if (!any_ours(count, requests)) {
    return PMPI_Waitsome(count, requests, outcount, indices, statuses);
  }
  return some_mixed(count, requests, outcount, indices, statuses, true);
}

int test_some(int count, MPI_Request requests[], int* outcount, int indices[],
              MPI_Status statuses[]) {
  if (!any_ours(count, requests)) {
    return PMPI_Testsome(count, requests, outcount, indices, statuses);
  }
  return some_mixed(count, requests, outcount, indices, statuses, false);
}

int start_all(int count, MPI_Request requests[]) {
  if (!any_ours(count, requests)) return PMPI_Startall(count, requests);
  for (int i = 0; i < count; ++i) {
    if (const int rc = start_one(&requests[i]); rc != MPI_SUCCESS) return rc;
  }
  return MPI_SUCCESS;
}

int start(MPI_Request* request) {
  return any_ours(1, request) ? start_one(request) : PMPI_Start(request);
}

// A persistent request of ours is forgotten (finished first if still active: freeing an active
// request lets it complete on its own); the library frees its handle.
int request_free(MPI_Request* request) {
  if (any_ours(1, request)) {
    SplitCall* call = find_call(*request);
    advance(*call, true);
    if (call->persistent) calls().erase(*request);
  }
  return PMPI_Request_free(request);
}

}  // namespace a2afft::preload

using namespace a2afft::preload;

extern "C" {
int MPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request,
                   "MPI_Ialltoall (C)");
}
#if A2AFFT_HAVE_ALLTOALLV_INIT
int MPI_Alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                       MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                       const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                       MPI_Request* request) {
  return alltoallv_init(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                        recvtype, comm, info, request, "MPI_Alltoallv_init (C)");
}
#endif
#if A2AFFT_HAVE_ALLTOALL_INIT
int MPI_Alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                      MPI_Request* request) {
  return alltoall_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info,
                       request, "MPI_Alltoall_init (C)");
}
#endif
int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  return wait(request, status);
}
int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  return test(request, flag, status);
}
int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  return wait_all(count, requests, statuses);
}
int MPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  return test_all(count, requests, flag, statuses);
}
int MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  return wait_any(count, requests, index, status);
}
int MPI_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  return test_any(count, requests, index, flag, status);
}
int MPI_Waitsome(int count, MPI_Request requests[], int* outcount, int indices[],
                 MPI_Status statuses[]) {
  return wait_some(count, requests, outcount, indices, statuses);
}
int MPI_Testsome(int count, MPI_Request requests[], int* outcount, int indices[],
                 MPI_Status statuses[]) {
  return test_some(count, requests, outcount, indices, statuses);
}
int MPI_Start(MPI_Request* request) {
  return start(request);
}
int MPI_Startall(int count, MPI_Request requests[]) {
  return start_all(count, requests);
}
int MPI_Request_free(MPI_Request* request) {
  return request_free(request);
}
}
