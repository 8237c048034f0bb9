// MPI_Alltoall through the backend of A2AFFT_ALLTOALL, with no communication of its own.
//
// Rule: every rank decides alone, and all decide alike. A call falls back to PMPI_Alltoall only
// for reasons MPI's own rules make the same on every rank of the call:
//  - MPI_IN_PLACE: the standard requires it "at all processes" of an intracommunicator;
//  - an intercommunicator: a property of the communicator;
//  - the block's size, empty or not: type signatures must match between every sender and
//    receiver, so sendcount * size(sendtype) is one number on every rank;
//  - the backend's refusal and the cached plans: functions of the communicator, its topology
//    (made collectively, the same everywhere) and that size.
// What may differ between ranks (a datatype contiguous on one rank and strided on another,
// MPI_BOTTOM with absolute addresses) is made local: that rank packs its send blocks into a
// contiguous staging buffer and unpacks what it receives (PMPI_Pack / PMPI_Unpack), so it routes
// with the others. Hence no per-call agreement (the drop-in's earlier PMPI_Allreduce), and a
// routed call costs the backend plus a cache lookup. Plans are cached per communicator and
// block size.

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>

#include "error.hpp"
#include "mpi/datatype.hpp"
#include "preload.hpp"

namespace a2afft::preload {
namespace {

// An erroneous call whose send and receive blocks differ in size on this rank: the staging
// below would overrun, and the other ranks could not know to fall back.
void check_matching_sides(const Side& send, MPI_Count block_bytes, MPI_Comm comm) {
  int send_type_bytes = 0;
  PMPI_Type_size(send.type, &send_type_bytes);
  const MPI_Count sent = static_cast<MPI_Count>(send_type_bytes) * send.count;
  if (sent != block_bytes) {
    fail(comm, "MPI_Alltoall: this rank sends blocks of " + std::to_string(sent) +
                   " B and receives blocks of " + std::to_string(block_bytes) +
                   " B: both must be the same size (an erroneous call)");
  }
}

// The predefined datatypes programs pass most: contiguous by definition, so a call with them
// asks the library nothing about its types (three queries a side cost more than the rest of a
// routed call).
bool common_predefined(MPI_Datatype type) {
  static const MPI_Datatype kTypes[] = {MPI_BYTE,
                                        MPI_CHAR,
                                        MPI_INT,
                                        MPI_LONG,
                                        MPI_FLOAT,
                                        MPI_DOUBLE,
                                        MPI_INTEGER,
                                        MPI_DOUBLE_PRECISION,
                                        MPI_C_DOUBLE_COMPLEX,
                                        MPI_DOUBLE_COMPLEX,
                                        MPI_C_FLOAT_COMPLEX,
                                        MPI_COMPLEX,
                                        MPI_REAL,
                                        MPI_UNSIGNED_CHAR,
                                        MPI_LONG_LONG};
  return std::find(std::begin(kTypes), std::end(kTypes), type) != std::end(kTypes);
}

// Whether this rank's side must go through the staging buffer: a datatype with holes or
// offsets, or MPI_BOTTOM (absolute addresses).
bool needs_staging(const Side& side) {
  if (side.buffer == MPI_BOTTOM) return true;
  if (common_predefined(side.type)) return false;
  MPI_Count size = 0;
  return !contiguity(side.type, "", &size).empty();
}

// A piece's elements as the (buffer, count, type) that PMPI_Pack and PMPI_Unpack are given.
// MPICH 4.0 refuses both at a null address (pmodels/mpich#6410, fixed in 4.1), which is where an
// MPI_BOTTOM side's first piece lies (its datatype holds absolute addresses): that piece is
// described instead as one struct of its elements placed relative to `anchor`, any valid address,
// which names the same bytes.
struct PackArgument {
  void* buffer;
  int count;
  MPI_Datatype type;
  detail::mpi::Datatype rebased;  // owns `type` when made here
};

PackArgument pack_argument(void* user, int count, MPI_Datatype type, std::byte* anchor) {
  if (user != nullptr) return {user, count, type, {}};
  MPI_Aint anchor_address = 0;
  PMPI_Get_address(anchor, &anchor_address);
  const MPI_Aint displacement = MPI_Aint_diff(MPI_Aint{0}, anchor_address);
  MPI_Datatype made = MPI_DATATYPE_NULL;
  PMPI_Type_create_struct(1, &count, &displacement, &type, &made);
  PMPI_Type_commit(&made);
  return {anchor, 1, made, detail::mpi::Datatype(made)};
}

// Packs (or, with `unpack`, unpacks) `elements` of the side's type at its buffer to or from
// `stage`, in pieces whose packed size fits PMPI_Pack's int sizes.
void stage_elements(const Side& side, MPI_Count elements, std::byte* stage, bool unpack,
                    MPI_Comm comm) {
  MPI_Count element_bytes = 0, lb = 0, extent = 0;
  PMPI_Type_size_x(side.type, &element_bytes);
  PMPI_Type_get_extent_x(side.type, &lb, &extent);
  const MPI_Count per_piece = std::max<MPI_Count>(1, (INT_MAX / 2) / element_bytes);
  const auto base = reinterpret_cast<std::uintptr_t>(side.buffer);
  for (MPI_Count first = 0; first < elements; first += per_piece) {
    const int count = static_cast<int>(std::min(per_piece, elements - first));
    const int piece_bytes = static_cast<int>(count * element_bytes);
    // Integer arithmetic: MPI_BOTTOM is the null address, and the type's displacements are
    // absolute.
    void* user = reinterpret_cast<void*>(base + static_cast<std::uintptr_t>(first * extent));
    std::byte* packed = stage + first * element_bytes;
    const PackArgument at = pack_argument(user, count, side.type, stage);
    int position = 0;
    const int rc =
        unpack ? PMPI_Unpack(packed, piece_bytes, &position, at.buffer, at.count, at.type, comm)
               : PMPI_Pack(at.buffer, at.count, at.type, packed, piece_bytes, &position, comm);
    if (rc != MPI_SUCCESS) throw Error(unpack ? "PMPI_Unpack failed" : "PMPI_Pack failed");
  }
}

// A staging buffer of at least `bytes`.
std::byte* grown(std::vector<std::byte>& buffer, std::size_t bytes) {
  if (buffer.size() < bytes) buffer.resize(bytes);
  return buffer.data();
}

// The plan of the communicator's last routed call when this one repeats it, else nullptr.
// Applications repeat one call every step; a predefined datatype handle always names the same
// type (a derived one may be freed and its handle reused), so equal counts and predefined types
// mean an equal block size, hence the same obstacles (none) and the same plan, and no query of
// the library is needed: it saves about a third of the drop-in's own cost at 64 B blocks.
detail::ExchangePlan* repeated_route(const Side& send, const Side& recv, const CommCache& cache) {
  const CommCache::RoutedCall& last = cache.last_routed;
  if (last.plan == nullptr || send.count != last.send_count || recv.count != last.recv_count ||
      send.type != last.send_type || recv.type != last.recv_type) {
    return nullptr;
  }
  if (send.buffer == MPI_IN_PLACE || send.buffer == MPI_BOTTOM || recv.buffer == MPI_BOTTOM) {
    return nullptr;
  }
  return last.plan;
}

// Remembers a routed call for repeated_route when both sides are predefined types at ordinary
// addresses (so unstaged; asked without querying the library again, as StagedBlocks just did).
void remember_route(const Side& send, const Side& recv, detail::ExchangePlan* plan,
                    CommCache& cache) {
  if (!common_predefined(send.type) || !common_predefined(recv.type) || send.buffer == MPI_BOTTOM ||
      recv.buffer == MPI_BOTTOM) {
    return;
  }
  cache.last_routed = {send.count, recv.count, send.type, recv.type, plan};
}

}  // namespace

StagedBlocks::StagedBlocks(const Side& send, const Side& recv, int ranks, MPI_Comm comm,
                           Staging& staging)
    : recv_side_(recv),
      ranks_(ranks),
      comm_(comm),
      staging_(&staging),
      send_(static_cast<const std::byte*>(send.buffer)),
      recv_(static_cast<std::byte*>(const_cast<void*>(recv.buffer))) {
  const bool stage_send = needs_staging(send), stage_recv = needs_staging(recv);
  if (!stage_send && !stage_recv) return;  // the common case: nothing more to ask
  int type_bytes = 0;
  PMPI_Type_size(recv.type, &type_bytes);
  const std::size_t total_bytes = static_cast<std::size_t>(type_bytes) *
                                  static_cast<std::size_t>(recv.count) *
                                  static_cast<std::size_t>(ranks);
  if (stage_send) {
    std::byte* packed = grown(staging.send, total_bytes);
    stage_elements(send, static_cast<MPI_Count>(send.count) * ranks, packed, false, comm);
    send_ = packed;
  }
  if (stage_recv) recv_ = grown(staging.recv, total_bytes);
}

void StagedBlocks::finish() const {
  if (recv_ == recv_side_.buffer) return;
  stage_elements(recv_side_, static_cast<MPI_Count>(recv_side_.count) * ranks_, recv_, true, comm_);
}

std::string alltoall_obstacle(const Side& send, const Side& recv, const CommCache& cache,
                              MPI_Comm comm, std::size_t* block_bytes) {
  if (send.buffer == MPI_IN_PLACE) return "MPI_IN_PLACE";
  if (cache.inter) return "an intercommunicator";
  int recv_type_bytes = 0;
  PMPI_Type_size(recv.type, &recv_type_bytes);
  const MPI_Count bytes = static_cast<MPI_Count>(recv_type_bytes) * recv.count;
  check_matching_sides(send, bytes, comm);
  if (bytes <= 0) return "empty blocks";
  *block_bytes = static_cast<std::size_t>(bytes);
  return "";
}

detail::ExchangePlan* alltoall_plan(
    MPI_Comm comm, const Setup& s, CommCache& cache,
    std::map<std::size_t, std::unique_ptr<detail::ExchangePlan>>& plans, std::size_t block_bytes,
    const char* call, std::string* why) {
  if (const auto known = plans.find(block_bytes); known != plans.end()) {
    return known->second.get();
  }
  if (const auto refused = cache.refusals.find(block_bytes); refused != cache.refusals.end()) {
    *why = refused->second;
    return nullptr;
  }
  const detail::Topology& topology = cache.topo(comm);
  const std::string where = std::string(call) + " on " + topology.describe_layout() + ", " +
                            std::to_string(block_bytes) + " B blocks";
  const detail::ExchangeProblem problem{topology, block_bytes};
  try {
    *why = detail::exchange_refusal(s.alltoall_spec, problem);
    if (!why->empty()) {
      cache.refusals[block_bytes] = *why;
      return nullptr;
    }
    auto plan = detail::make_exchange(s.alltoall_spec, problem);
    const std::string& described = cache.descriptions[plan.get()] = plan->describe();
    log_once(comm, cache, where + ": " + described);
    return (plans[block_bytes] = std::move(plan)).get();
  } catch (const UsageError& error) {
    fail(comm, "A2AFFT_ALLTOALL=" + s.alltoall_text + ": " + error.what());
  }
}

namespace {

// A repeated call when nothing is counted: the plan runs on the caller's buffers and nothing
// else happens (an application's step loop; about 100 instructions fewer than the general path
// below, which also decides, stages, logs and counts).
void run_repeated(detail::ExchangePlan& plan, const void* sendbuf, void* recvbuf, MPI_Comm comm,
                  const Setup& s, const char* kind) {
  inside_a2afft = true;
  try {
    plan.run(static_cast<const std::byte*>(sendbuf), static_cast<std::byte*>(recvbuf));
  } catch (const std::exception& error) {
    inside_a2afft = false;
    fail(comm, std::string(kind) + " through " + s.alltoall_text + ": " + error.what());
  }
  inside_a2afft = false;
}

// Every call but a repeated one: decides, plans, stages, logs and counts. Not inlined into
// alltoall(), so that the repeated call's path does not pay this one's stack frame.
[[gnu::noinline]] int alltoall_general(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                       void* recvbuf, int recvcount, MPI_Datatype recvtype,
                                       MPI_Comm comm, const char* kind, const Setup& s) {
  const auto vendor = [&] {
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  };
  const double start = s.call_start();
  CommCache& cache = cache_of(comm, s);
  const Side send{sendbuf, sendcount, sendtype}, recv{recvbuf, recvcount, recvtype};
  detail::ExchangePlan* plan = s.alltoall ? repeated_route(send, recv, cache) : nullptr;
  const bool repeated = plan != nullptr;
  std::size_t block_bytes = 0;
  std::string why;
  if (!s.alltoall) {
    why = "A2AFFT_ALLTOALL is not set";
  } else if (!repeated) {
    why = alltoall_obstacle(send, recv, cache, comm, &block_bytes);
  }
  const std::size_t known = cache.plans.size() + cache.refusals.size();
  inside_a2afft = true;
  int rc = MPI_SUCCESS;
  try {
    if (!repeated && why.empty())
      plan = alltoall_plan(comm, s, cache, cache.plans, block_bytes, "MPI_Alltoall", &why);
    if (plan == nullptr) {
      rc = vendor();
    } else if (repeated) {
      plan->run(static_cast<const std::byte*>(sendbuf), static_cast<std::byte*>(recvbuf));
    } else {
      const StagedBlocks blocks(send, recv, cache.ranks, comm, cache.staging);
      plan->run(blocks.send(), blocks.recv());
      blocks.finish();
      remember_route(send, recv, plan, cache);
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
    int recv_type_bytes = 0;
    PMPI_Type_size(recvtype, &recv_type_bytes);
    count_call(cache, kind, static_cast<double>(recv_type_bytes) * recvcount * cache.ranks,
               PMPI_Wtime() - start, plan ? cache.descriptions[plan] : kNotRouted, why,
               cache.plans.size() + cache.refusals.size() != known);
  }
  return rc;
}

}  // namespace

int alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
             int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const char* kind) {
  if (inside_a2afft) {
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  }
  const Setup& s = setup(comm);
  if (s.alltoall && !s.counting()) {
    const Side send{sendbuf, sendcount, sendtype}, recv{recvbuf, recvcount, recvtype};
    if (detail::ExchangePlan* plan = repeated_route(send, recv, cache_of(comm, s))) {
      run_repeated(*plan, sendbuf, recvbuf, comm, s, kind);
      return MPI_SUCCESS;
    }
  } else if (!s.alltoall && !s.counting()) {
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  }
  return alltoall_general(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, kind,
                          s);
}

}  // namespace a2afft::preload
