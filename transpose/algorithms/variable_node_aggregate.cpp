// node-aggregate (variable size): bytes for other nodes travel through the node leaders, one
// aggregated message per pair of nodes; bytes within a node go straight to their rank.
//
// Source: the hierarchical (leader-based) all-to-all of [node-aware-2025] §3.1, Algorithm 3,
// for variable counts: a reshape's bricks on one node mostly go to the same few nodes, so
// aggregating per destination node turns many small inter-node messages into one.
// Steps, with the node leader the node's lowest rank:
//   0. construction: each leader gathers its ranks' send and receive counts (MPI_Gather over the
//      node) and lays out a staging buffer per direction, one block per other node
//      (schedule/variable.hpp: outgoing_layout, incoming_layout; the sending leader's block for
//      node M and M's leader's block from it are segment for segment the same); every segment
//      list becomes one derived datatype, so each message below is count 1;
//   1. intra: each rank sends its bytes for ranks of its own node straight to them (and copies
//      its own segment);
//   2. gather: each rank sends its bytes for other nodes to its leader as one message, which
//      lands in the leader's outgoing blocks;
//   3. inter: each leader sends each other node's block to that node's leader and receives the
//      block from it (nodes that exchange no bytes exchange no message);
//   4. scatter: each leader sends each of its ranks, as one message, the segments addressed to
//      it; they land at their receive offsets.
// Cost, for a node of Q ranks that exchanges with n other nodes: 2 (alpha + (node's off-node
//   bytes) beta) inside the node for gather and scatter, plus n (alpha) + (node's off-node
//   bytes) beta between nodes, instead of up to Q x (ranks on those nodes) messages.
// Parameters: none.

#include <algorithm>
#include <cstdint>
#include <deque>

#include "algorithms/variable_plan.hpp"
#include "mpi/comm.hpp"
#include "mpi/datatype.hpp"
#include "mpi/requests.hpp"
#include "schedule/variable.hpp"

namespace a2afft::detail::algorithms {
namespace {

enum Tag : int { kDirect = 1, kGather = 2, kInter = 3, kScatter = 4 };

// One message: a peer, where in the buffer it starts, and its (type, count).
struct Message {
  int peer;
  std::size_t offset;
  MPI_Datatype type;
  int count;
};

// `segments` of one message as a derived type owned by `owned`; nullopt-like count 0 if empty.
Message segments_message(int peer, const std::vector<mpi::ByteSegment>& segments,
                         std::vector<mpi::Datatype>& owned) {
  const bool any = std::any_of(segments.begin(), segments.end(),
                               [](const mpi::ByteSegment& s) { return s.bytes > 0; });
  if (!any) return {peer, 0, MPI_BYTE, 0};
  owned.push_back(mpi::make_segments_type(segments));
  return {peer, 0, owned.back().get(), 1};
}

// Every rank's `values` (P counts) gathered on the node's leader, [local index][rank].
std::vector<std::vector<std::size_t>> gather_counts(const std::vector<std::size_t>& values,
                                                    MPI_Comm node) {
  int local = 0, ranks = 0;
  MPI_Comm_rank(node, &local);
  MPI_Comm_size(node, &ranks);
  const std::vector<std::uint64_t> mine(values.begin(), values.end());
  std::vector<std::uint64_t> all(local == 0 ? mine.size() * static_cast<std::size_t>(ranks) : 0);
  mpi::check(MPI_Gather(mine.data(), static_cast<int>(mine.size()), MPI_UINT64_T, all.data(),
                        static_cast<int>(mine.size()), MPI_UINT64_T, 0, node),
             "MPI_Gather(counts)");
  std::vector<std::vector<std::size_t>> rows;
  for (std::size_t q = 0; local == 0 && q < static_cast<std::size_t>(ranks); ++q) {
    const auto first = all.begin() + static_cast<std::ptrdiff_t>(q * mine.size());
    rows.emplace_back(first, first + static_cast<std::ptrdiff_t>(mine.size()));
  }
  return rows;
}

class VariableNodeAggregateExchange final : public VariableExchangePlan {
 public:
  explicit VariableNodeAggregateExchange(const VariableProblem& problem)
      : own_(problem), comm_(mpi::Comm::duplicate(problem.topology.comm())) {
    const Topology& topology = problem.topology;
    const int rank = topology.rank();
    node_ = topology.node();
    leader_ = topology.leader_of(node_);
    std::vector<int> node_of_rank;
    for (int r = 0; r < topology.size(); ++r)
      node_of_rank.push_back(topology.node_of(r));
    ranks_of_node_ = schedule::ranks_of_nodes(node_of_rank);
    const std::vector<int> off_node = schedule::off_node_ranks(ranks_of_node_, node_);
    plan_direct(problem, rank);
    std::vector<mpi::ByteSegment> outgoing, incoming;
    for (const int r : off_node) {
      const auto j = static_cast<std::size_t>(r);
      outgoing.push_back({problem.send.offsets[j], problem.send.bytes[j]});
      incoming.push_back({problem.recv.offsets[j], problem.recv.bytes[j]});
    }
    to_leader_ = segments_message(leader_, outgoing, types_);
    from_leader_ = segments_message(leader_, incoming, types_);
    const auto send_rows = gather_counts(problem.send.bytes, topology.node_comm());
    const auto recv_rows = gather_counts(problem.recv.bytes, topology.node_comm());
    if (rank == leader_) plan_leader(send_rows, recv_rows, off_node);
    requests_ = mpi::RequestSet(direct_.size() + direct_recvs_.size() + 2);
    leader_requests_ = mpi::RequestSet(
        std::max({gathers_.size(), scatters_.size(), inter_sends_.size() + inter_recvs_.size()}));
  }

  std::string describe() const override { return "node-aggregate"; }

  void run(const std::byte* send, std::byte* recv) override {
    {
      const auto timed = phase("copy");
      own_.copy(send, recv);
    }
    {
      const auto timed = phase("intra");
      for (const Message& m : direct_recvs_)
        post_recv(recv, m, kDirect, requests_);
      for (const Message& m : direct_)
        post_send(send, m, kDirect, requests_);
      if (from_leader_.count > 0) post_recv(recv, from_leader_, kScatter, requests_);
      if (to_leader_.count > 0) post_send(send, to_leader_, kGather, requests_);
    }
    if (leads_) run_leader();
    const auto timed = phase("intra");
    requests_.wait_all();
  }

 private:
  void plan_direct(const VariableProblem& problem, int rank) {
    for (const int peer : ranks_of_node_[static_cast<std::size_t>(node_)]) {
      const auto j = static_cast<std::size_t>(peer);
      if (peer == rank) continue;
      if (problem.send.bytes[j] > 0) direct_.push_back(contiguous(peer, problem.send, j));
      if (problem.recv.bytes[j] > 0) direct_recvs_.push_back(contiguous(peer, problem.recv, j));
    }
  }

  Message contiguous(int peer, const PeerBytes& side, std::size_t j) {
    const mpi::ContiguousBytes& bytes = blocks_.emplace_back(side.bytes[j]);
    return {peer, side.offsets[j], bytes.type(), bytes.count()};
  }

  // The leader's gather and scatter types per local rank and its messages per other node.
  void plan_leader(const std::vector<std::vector<std::size_t>>& send_rows,
                   const std::vector<std::vector<std::size_t>>& recv_rows,
                   const std::vector<int>& off_node) {
    leads_ = true;
    const std::vector<int>& local = ranks_of_node_[static_cast<std::size_t>(node_)];
    const schedule::AggregateLayout out =
        schedule::outgoing_layout(ranks_of_node_, node_, send_rows);
    const schedule::AggregateLayout in =
        schedule::incoming_layout(ranks_of_node_, node_, recv_rows);
    outgoing_ = allocate_aligned(std::max<std::size_t>(out.total, 1));
    incoming_ = allocate_aligned(std::max<std::size_t>(in.total, 1));
    for (std::size_t q = 0; q < local.size(); ++q) {
      std::vector<mpi::ByteSegment> gathered, scattered;
      for (const int r : off_node) {
        const auto j = static_cast<std::size_t>(r);
        gathered.push_back({out.segment_offset[q][j], send_rows[q][j]});
        scattered.push_back({in.segment_offset[q][j], recv_rows[q][j]});
      }
      const Message gather = segments_message(local[q], gathered, types_);
      if (gather.count > 0) gathers_.push_back(gather);
      const Message scatter = segments_message(local[q], scattered, types_);
      if (scatter.count > 0) scatters_.push_back(scatter);
    }
    for (std::size_t node = 0; node < ranks_of_node_.size(); ++node) {
      const int peer = ranks_of_node_[node].front();  // that node's leader
      if (out.node_bytes[node] > 0) {
        const mpi::ContiguousBytes& bytes = blocks_.emplace_back(out.node_bytes[node]);
        inter_sends_.push_back({peer, out.node_offset[node], bytes.type(), bytes.count()});
      }
      if (in.node_bytes[node] > 0) {
        const mpi::ContiguousBytes& bytes = blocks_.emplace_back(in.node_bytes[node]);
        inter_recvs_.push_back({peer, in.node_offset[node], bytes.type(), bytes.count()});
      }
    }
  }

  void run_leader() {
    {
      const auto timed = phase("gather");
      for (const Message& m : gathers_)
        post_recv(outgoing_.data(), m, kGather, leader_requests_);
      leader_requests_.wait_all();
    }
    {
      const auto timed = phase("inter");
      for (const Message& m : inter_recvs_) {
        post_recv(incoming_.data(), m, kInter, leader_requests_);
      }
      for (const Message& m : inter_sends_) {
        post_send(outgoing_.data(), m, kInter, leader_requests_);
      }
      leader_requests_.wait_all();
    }
    const auto timed = phase("scatter");
    for (const Message& m : scatters_)
      post_send(incoming_.data(), m, kScatter, leader_requests_);
    leader_requests_.wait_all();
  }

  void post_recv(std::byte* base, const Message& m, Tag tag, mpi::RequestSet& requests) {
    mpi::check(
        MPI_Irecv(base + m.offset, m.count, m.type, m.peer, tag, comm_.get(), requests.next()),
        "MPI_Irecv", {.from = m.peer});
  }
  void post_send(const std::byte* base, const Message& m, Tag tag, mpi::RequestSet& requests) {
    mpi::check(
        MPI_Isend(base + m.offset, m.count, m.type, m.peer, tag, comm_.get(), requests.next()),
        "MPI_Isend", {.to = m.peer});
  }

  OwnSegment own_;
  mpi::Comm comm_;
  int node_ = 0;
  int leader_ = 0;
  bool leads_ = false;
  std::vector<std::vector<int>> ranks_of_node_;
  std::deque<mpi::ContiguousBytes> blocks_;  // stable addresses: messages hold their types
  std::vector<mpi::Datatype> types_;         // the segment lists' types
  std::vector<Message> direct_, direct_recvs_;
  Message to_leader_{}, from_leader_{};
  // The leader's: gathers from and scatters to its ranks, messages to and from other leaders.
  std::vector<Message> gathers_, scatters_, inter_sends_, inter_recvs_;
  ExchangeBuffer outgoing_, incoming_;
  mpi::RequestSet requests_, leader_requests_;
};

std::vector<Spec> aggregate_candidates(const RankLayout& layout) {
  if (layout.node_count() < 2) return {};  // one node: sparse with a detour
  return {Spec{"node-aggregate", {}}};
}

constexpr std::string_view kExamples[] = {"node-aggregate"};

}  // namespace

extern const VariableExchangeInfo kVariableNodeAggregateExchange = {
    .name = "node-aggregate",
    .summary =
        "within a node direct; across nodes gather to the leader, one message per node "
        "pair, scatter",
    .source = "[node-aware-2025] §3.1, Algorithm 3, with variable counts",
    .layouts = "any (one node: every message direct)",
    .params = {},
    .examples = kExamples,
    .validate = nullptr,
    .make = make_variable_plan<VariableNodeAggregateExchange>,
    .auto_candidates = aggregate_candidates,
};

}  // namespace a2afft::detail::algorithms
