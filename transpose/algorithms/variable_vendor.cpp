// mpi and neighbor (variable size): the MPI library's own MPI_Alltoallv, the reference every
// other variable backend is checked against, and MPI_Neighbor_alltoallv on a graph of the real
// partners.
//
// Source: the MPI standard (MPI-3.1 §5.8 MPI_Alltoallv/w, §7.6 neighborhood collectives on
// MPI_Dist_graph_create_adjacent); heFFTe's reshapes use both ([heffte-2020]).
// Steps (mpi): one MPI_Alltoallv on bytes. Open MPI 4.1 and SimGrid SMPI 3.32 are MPI-3 (int
//   counts and displacements, no MPI_Alltoallv_c; MPICH 4.0 has it), so when any count or
//   offset on any rank passes max_message_count() every rank instead calls MPI_Alltoallw with
//   one derived datatype per peer that carries its byte offset (MPI_Aint) inside, count 1 and
//   displacement 0: one path for every MPI. The choice is agreed at construction, since all
//   ranks must call the same collective.
// Steps (neighbor): refused under SimGrid SMPI 3.32, which aborts in the graph call; at
//   construction, MPI_Dist_graph_create_adjacent with the ranks we receive
//   from as sources and those we send to as destinations (0-byte peers and ourselves left
//   out); run() copies our own segment and calls MPI_Neighbor_alltoallv, or with offsets or
//   counts beyond int MPI_Neighbor_alltoallw, whose displacements are MPI_Aint.
// Cost: the library's; at best (k)(alpha) + (bytes sent) beta for k real partners
//   (neighbor), while MPI_Alltoallv may still visit all P-1 peers.
// Parameters: none.

#include <algorithm>
#include <climits>
#include <optional>
#include <vector>

#include "algorithms/variable_plan.hpp"
#include "mpi/comm.hpp"
#include "mpi/datatype.hpp"
#include "simulator/smpi_rules.hpp"

namespace a2afft::detail::algorithms {
namespace {

// Whether every count and offset of both sides fits an int MPI count on every rank.
bool fits_int_everywhere(const VariableProblem& problem) {
  const auto limit = static_cast<std::size_t>(mpi::max_message_count());
  int fits = 1;
  for (const PeerBytes* side : {&problem.send, &problem.recv}) {
    for (std::size_t j = 0; j < side->bytes.size(); ++j) {
      if (side->bytes[j] > limit || side->offsets[j] > limit) fits = 0;
    }
  }
  mpi::check(MPI_Allreduce(MPI_IN_PLACE, &fits, 1, MPI_INT, MPI_LAND, problem.topology.comm()),
             "MPI_Allreduce(fits int)");
  return fits != 0;
}

std::vector<int> as_ints(const std::vector<std::size_t>& values) {
  return {values.begin(), values.end()};
}

// One peer's segment as a derived type that holds its offset; MPI_BYTE (count 0) when empty.
struct PeerTypes {
  std::vector<mpi::Datatype> owned;
  std::vector<MPI_Datatype> types;
  std::vector<int> counts;
};

PeerTypes peer_types(const PeerBytes& side) {
  PeerTypes peers;
  for (std::size_t j = 0; j < side.bytes.size(); ++j) {
    if (side.bytes[j] == 0) {
      peers.types.push_back(MPI_BYTE);
      peers.counts.push_back(0);
      continue;
    }
    const mpi::ByteSegment segment{side.offsets[j], side.bytes[j]};
    peers.owned.push_back(mpi::make_segments_type({&segment, 1}));
    peers.types.push_back(peers.owned.back().get());
    peers.counts.push_back(1);
  }
  return peers;
}

class VariableVendorExchange final : public VariableExchangePlan {
 public:
  explicit VariableVendorExchange(const VariableProblem& problem)
      : comm_(mpi::Comm::duplicate(problem.topology.comm())),
        fits_int_(fits_int_everywhere(problem)) {
    if (fits_int_) {
      send_counts_ = as_ints(problem.send.bytes);
      send_offsets_ = as_ints(problem.send.offsets);
      recv_counts_ = as_ints(problem.recv.bytes);
      recv_offsets_ = as_ints(problem.recv.offsets);
    } else {
      send_types_ = peer_types(problem.send);
      recv_types_ = peer_types(problem.recv);
      zeros_.assign(problem.send.bytes.size(), 0);
    }
  }

  std::string describe() const override { return "mpi"; }

  void run(const std::byte* send, std::byte* recv) override {
    const auto timed = phase("alltoallv");
    if (fits_int_) {
      mpi::check(MPI_Alltoallv(send, send_counts_.data(), send_offsets_.data(), MPI_BYTE, recv,
                               recv_counts_.data(), recv_offsets_.data(), MPI_BYTE, comm_.get()),
                 "MPI_Alltoallv");
      return;
    }
    mpi::check(MPI_Alltoallw(send, send_types_.counts.data(), zeros_.data(),
                             send_types_.types.data(), recv, recv_types_.counts.data(),
                             zeros_.data(), recv_types_.types.data(), comm_.get()),
               "MPI_Alltoallw");
  }

 private:
  mpi::Comm comm_;
  bool fits_int_;
  std::vector<int> send_counts_, send_offsets_, recv_counts_, recv_offsets_;
  PeerTypes send_types_, recv_types_;
  std::vector<int> zeros_;
};

// The real partners of one side, in rank order, without ourselves.
std::vector<int> partners(const PeerBytes& side, int rank) {
  std::vector<int> peers;
  for (std::size_t j = 0; j < side.bytes.size(); ++j) {
    if (side.bytes[j] > 0 && static_cast<int>(j) != rank) peers.push_back(static_cast<int>(j));
  }
  return peers;
}

// A distributed graph communicator: edges from `sources` to us and from us to `destinations`.
mpi::Comm partner_graph(MPI_Comm parent, const std::vector<int>& sources,
                        const std::vector<int>& destinations) {
  // Some MPI libraries reject a null array even with degree 0.
  const int none = 0;
  MPI_Comm graph = MPI_COMM_NULL;
  mpi::check(MPI_Dist_graph_create_adjacent(parent, static_cast<int>(sources.size()),
                                            sources.empty() ? &none : sources.data(),
                                            MPI_UNWEIGHTED, static_cast<int>(destinations.size()),
                                            destinations.empty() ? &none : destinations.data(),
                                            MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &graph),
             "MPI_Dist_graph_create_adjacent");
  return mpi::Comm::adopt(graph);
}

// One side's counts in neighbour order: int counts and displacements, or (beyond int) a
// contiguous type per neighbour with its MPI_Aint byte displacement.
struct NeighborSide {
  std::vector<int> counts, offsets;
  std::vector<mpi::ContiguousBytes> blocks;
  std::vector<MPI_Datatype> types;
  std::vector<MPI_Aint> byte_offsets;
  std::vector<int> block_counts;

  NeighborSide(const PeerBytes& side, const std::vector<int>& peers) {
    for (const int peer : peers) {
      const auto j = static_cast<std::size_t>(peer);
      counts.push_back(static_cast<int>(std::min<std::size_t>(side.bytes[j], INT_MAX)));
      offsets.push_back(static_cast<int>(std::min<std::size_t>(side.offsets[j], INT_MAX)));
      blocks.emplace_back(side.bytes[j]);
      byte_offsets.push_back(static_cast<MPI_Aint>(side.offsets[j]));
    }
    for (const mpi::ContiguousBytes& block : blocks) {
      types.push_back(block.type());
      block_counts.push_back(block.count());
    }
    // Never a null array, even for no neighbours.
    for (auto* values : {&counts, &offsets, &block_counts})
      values->reserve(1);
    types.reserve(1);
    byte_offsets.reserve(1);
  }
};

class VariableNeighborExchange final : public VariableExchangePlan {
 public:
  explicit VariableNeighborExchange(const VariableProblem& problem)
      : own_(problem), fits_int_(fits_int_everywhere(problem)) {
    const int rank = problem.topology.rank();
    const std::vector<int> sources = partners(problem.recv, rank);
    const std::vector<int> destinations = partners(problem.send, rank);
    graph_ = partner_graph(problem.topology.comm(), sources, destinations);
    send_.emplace(problem.send, destinations);
    recv_.emplace(problem.recv, sources);
  }

  std::string describe() const override { return "neighbor"; }

  void run(const std::byte* send, std::byte* recv) override {
    {
      const auto timed = phase("copy");
      own_.copy(send, recv);
    }
    const auto timed = phase("neighbor_alltoallv");
    if (fits_int_) {
      mpi::check(MPI_Neighbor_alltoallv(send, send_->counts.data(), send_->offsets.data(), MPI_BYTE,
                                        recv, recv_->counts.data(), recv_->offsets.data(), MPI_BYTE,
                                        graph_.get()),
                 "MPI_Neighbor_alltoallv");
      return;
    }
    mpi::check(
        MPI_Neighbor_alltoallw(send, send_->block_counts.data(), send_->byte_offsets.data(),
                               send_->types.data(), recv, recv_->block_counts.data(),
                               recv_->byte_offsets.data(), recv_->types.data(), graph_.get()),
        "MPI_Neighbor_alltoallw");
  }

 private:
  OwnSegment own_;
  bool fits_int_;
  mpi::Comm graph_;
  std::optional<NeighborSide> send_, recv_;
};

// SimGrid SMPI 3.32 aborts the simulation in MPI_Dist_graph_create_adjacent ("Not yet
// implemented"), so the simulated build refuses neighbor rather than crash.
std::string neighbor_refusal(const RankLayout&, const Params&) {
  return std::string(simulator::neighbor_refusal());
}

constexpr std::string_view kMpi = "mpi";
constexpr std::string_view kNeighbor = "neighbor";
constexpr std::string_view kMpiExamples[] = {"mpi"};
constexpr std::string_view kNeighborExamples[] = {"neighbor"};

}  // namespace

extern const VariableExchangeInfo kVariableVendorExchange = {
    .name = kMpi,
    .summary = "the MPI library's own MPI_Alltoallv (the reference; MPI_Alltoallw past int)",
    .source = "vendor",
    .layouts = "any",
    .params = {},
    .examples = kMpiExamples,
    .validate = nullptr,
    .make = make_variable_plan<VariableVendorExchange>,
    .auto_candidates = variable_defaults_only<kMpi>,
};

extern const VariableExchangeInfo kVariableNeighborExchange = {
    .name = kNeighbor,
    .summary = "MPI_Neighbor_alltoallv on a distributed graph of the real partners",
    .source = "vendor (MPI-3 neighborhood collectives)",
    .layouts = "any (not under SimGrid SMPI 3.32: no distributed graphs)",
    .params = {},
    .examples = kNeighborExamples,
    .validate = neighbor_refusal,
    .make = make_variable_plan<VariableNeighborExchange>,
    .auto_candidates = variable_defaults_only<kNeighbor>,
};

}  // namespace a2afft::detail::algorithms
