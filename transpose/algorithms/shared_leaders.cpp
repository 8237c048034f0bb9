// mpml, nmpml and onmpml: leaders read their node's send buffers straight from node shared
// memory and send one aggregated message per pair of nodes.
//
// Source: [onmpml-glex] §5 (Algorithms 2-5) and §7, on standard MPI: MPI-3 shared
// windows are the shared heap (the paper's glex-malloc; ExchangePlan::allocate() hands out their
// segments) and MPI Isend/Irecv between leaders replaces GLEX RDMA.
// Steps, on node n of M nodes with Q_n ranks and L leaders each:
//   0. every rank publishes where its send and receive buffers lie: in a window this plan
//      allocated, or else in the plan's own staging segment after one copy in. MPI_Win_sync,
//      node barrier, MPI_Win_sync;
//   1. intra: every rank pulls its own node's blocks for itself from its peers' send buffers
//      (offset 0, the node itself, needs no leader and no message);
//   2. gather: leader Lid serves node offsets i = Lid, Lid+L, ... < M. For target node n+i it
//      reads the blocks each peer sends there into one [source local][target local] message;
//   3. inter: one message to leader Lid of node n+i and one from leader Lid of node n-i;
//   4. scatter: each received message goes block by block straight into the receive buffers
//      of the node's ranks. Sync, node barrier, sync; ranks on staging copy their remote
//      blocks out.
//   mpml and nmpml run 2, 3 and 4 one after the other ([onmpml-glex] Algorithm 3); onmpml posts
//   every receive first, sends each message as soon as it is gathered, pulls its intra blocks while
//   the messages fly, and scatters each message as soon as it arrives (Algorithm 5).
// Cost per leader, Q ranks per node, b the block: gather and scatter (M-1)/L Q^2 b beta_shm
//   each, inter (M-1)/L (alpha + Q^2 b beta), every rank's intra Q b beta_shm, plus two node
//   barriers; onmpml hides all but the first gather and the last scatter ([onmpml-glex] §6.6).
// `a2afft model` and auto:mode=estimate price this cost (schedule::model_shared_leaders); the
//   model knows no NUMA domains, so it prices leaders=L, by default 1, and says so.
// Parameters: leaders = L per node, 1..the smallest node (default: NUMA domains per node).
//   mpml leads with local ranks 0..L-1 (Algorithm 2); nmpml and onmpml spread the leaders over
//   the node's NUMA domains (Algorithm 4).

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>

#include "algorithms/algorithms.hpp"
#include "algorithms/block_transfer.hpp"
#include "error.hpp"
#include "mpi/requests.hpp"
#include "mpi/shared_window.hpp"
#include "schedule/cost_model.hpp"
#include "schedule/shared_leaders.hpp"
#include "topology/topology.hpp"

namespace a2afft::detail::algorithms {
namespace {

using schedule::RankRun;

enum class Placement { first, numa_spread };

struct SharedLeaderSettings {
  std::string_view name;
  Placement placement;
  bool overlap;
  int leaders;
};

// A window that allocate() made; the plan numbers them in allocation order, the same on every
// rank of a node, so a rank can name its buffer to its peers by (window id, offset).
struct SharedAllocation {
  std::int64_t id;
  mpi::SharedWindow window;
};

// Where a rank's buffer lies, as its peers find it. Window 0 is the plan's staging window.
struct BufferPlace {
  std::int64_t window;
  std::uint64_t offset;
};

// What each rank publishes in its segment of the plan's `published_` window for one run.
struct Published {
  BufferPlace send;
  BufferPlace recv;
};

// One aggregated message a leader sends and one it receives, for one node offset.
struct LeaderMessage {
  int target_node;  // n + offset
  int source_node;  // n - offset
  int to_rank;      // leader of the same id on the target node
  int from_rank;    // leader of the same id on the source node
  std::size_t out_offset, out_blocks;
  std::size_t in_offset, in_blocks;
};

class SharedLeaderExchange final : public ExchangePlan {
 public:
  SharedLeaderExchange(const ExchangeProblem& problem, SharedLeaderSettings settings)
      : settings_(settings),
        block_bytes_(problem.block_bytes),
        node_comm_(mpi::Comm::duplicate(problem.topology.node_comm())),
        transfer_(problem.topology.comm(), problem.block_bytes) {
    const Topology& topology = problem.topology;
    ranks_ = topology.size();
    rank_ = topology.rank();
    node_ = topology.node();
    local_ = topology.local_rank();
    const int nodes = topology.node_count();
    members_.resize(static_cast<std::size_t>(nodes));
    for (int rank = 0; rank < ranks_; ++rank) {
      members_[static_cast<std::size_t>(topology.node_of(rank))].push_back(rank);
    }
    for (const std::vector<int>& members : members_)
      runs_.push_back(schedule::consecutive_runs(members));
    std::vector<int> remote;
    for (int rank = 0; rank < ranks_; ++rank) {
      if (topology.node_of(rank) != node_) remote.push_back(rank);
    }
    remote_runs_ = schedule::consecutive_runs(remote);

    std::vector<std::vector<int>> leaders(members_.size());
    for (std::size_t node = 0; node < members_.size(); ++node) {
      std::vector<int> numa;
      for (int rank : members_[node])
        numa.push_back(topology.numa_of(rank));
      leaders[node] = settings_.placement == Placement::first
                          ? schedule::first_leaders(settings_.leaders)
                          : schedule::numa_spread_leaders(numa, settings_.leaders);
    }
    const std::vector<int>& ours = leaders[static_cast<std::size_t>(node_)];
    const auto found = std::find(ours.begin(), ours.end(), local_);
    leader_id_ = found == ours.end() ? -1 : static_cast<int>(found - ours.begin());
    if (leader_id_ >= 0) plan_messages(leaders);

    const std::size_t total = total_bytes();
    staging_recv_offset_ = total;
    // Remote blocks land in staging only when there are other nodes. The staged blocks may be
    // folded in a timing-only simulation (--fold-memory: 2 x P x block per rank, 32 GiB at
    // P = 4,096 and 1 KiB); where each rank's buffers lie is read back, so it never is.
    staging_ = mpi::SharedWindow(node_comm_.get(),
                                 staging_recv_offset_ + (nodes > 1 ? total : std::size_t{0}),
                                 mpi::SharedWindow::Folding::when_memory_folded);
    published_ = mpi::SharedWindow(node_comm_.get(), sizeof(Published));
    peer_send_.resize(members_[static_cast<std::size_t>(node_)].size());
    peer_recv_.resize(peer_send_.size());
  }

  std::string describe() const override {
    return std::string(settings_.name) + "(leaders=" + std::to_string(settings_.leaders) + ")";
  }

  ExchangeBuffer allocate(std::size_t bytes) override {
    std::erase_if(allocations_, [](const auto& weak) { return weak.expired(); });
    auto allocation = std::make_shared<SharedAllocation>(SharedAllocation{
        next_allocation_id_++, mpi::SharedWindow(node_comm_.get(), bytes,
                                                 mpi::SharedWindow::Folding::when_memory_folded)});
    allocations_.push_back(allocation);
    std::byte* data = allocation->window.segment(node_comm_.rank());
    return ExchangeBuffer(std::move(allocation), data, bytes);
  }

  // Our own block only goes from our send to our recv (pull_intra()); a caller that packs it
  // straight into recv, as the FFTs do, saves that copy, as with the direct exchanges.
  bool can_leave_own_block() const override { return true; }

  void run(const std::byte* send, std::byte* recv) override { exchange(send, recv, true); }
  void run_others(const std::byte* send, std::byte* recv) override { exchange(send, recv, false); }

 private:
  // run(), or run_others() without `own`: our own block of send is then never read, nor our
  // own block of recv written.
  void exchange(const std::byte* send, std::byte* recv, bool own) {
    const std::size_t total = total_bytes();
    const Published mine{place_of(send, total, 0), place_of(recv, total, staging_recv_offset_)};
    std::byte* own_segment = staging_.segment(node_comm_.rank());
    if (mine.send.window == 0) stage_send(send, own);
    std::memcpy(published_.segment(node_comm_.rank()), &mine, sizeof(mine));
    node_sync();
    for (std::size_t local = 0; local < peer_send_.size(); ++local) {
      Published theirs{};
      std::memcpy(&theirs, published_.segment(static_cast<int>(local)), sizeof(theirs));
      peer_send_[local] = address_of(theirs.send, static_cast<int>(local));
      peer_recv_[local] = address_of(theirs.recv, static_cast<int>(local));
    }
    // A leader with no node offset to serve (one node, or more leaders than other nodes) only
    // pulls its own blocks, like every other rank.
    if (!messages_.empty() && settings_.overlap) {
      lead_overlapped(recv, own);
    } else {
      pull_intra(recv, own);
      if (!messages_.empty()) lead_in_turn();
    }
    node_sync();
    if (mine.recv.window == 0) {
      const auto timed = phase("copy");
      for (const RankRun& run : remote_runs_) {
        const std::size_t offset = static_cast<std::size_t>(run.first_rank) * block_bytes_;
        std::memcpy(recv + offset, own_segment + staging_recv_offset_ + offset,
                    static_cast<std::size_t>(run.count) * block_bytes_);
      }
    }
  }

  // Our send blocks into our staging segment, where our peers read them; all but our own block
  // when the caller keeps it (run_others() reads nothing of it).
  void stage_send(const std::byte* send, bool own) {
    const auto timed = phase("copy");
    std::byte* staged = staging_.segment(node_comm_.rank());
    if (own) {
      std::memcpy(staged, send, total_bytes());
      return;
    }
    const std::size_t before = static_cast<std::size_t>(rank_) * block_bytes_;
    const std::size_t after = before + block_bytes_;
    std::memcpy(staged, send, before);
    std::memcpy(staged + after, send + after, total_bytes() - after);
  }

  std::size_t total_bytes() const { return static_cast<std::size_t>(ranks_) * block_bytes_; }

  void plan_messages(const std::vector<std::vector<int>>& leaders) {
    const int nodes = static_cast<int>(members_.size());
    const auto size_of = [&](int node) { return members_[static_cast<std::size_t>(node)].size(); };
    const auto leader_rank = [&](int node) {
      const auto n = static_cast<std::size_t>(node);
      return members_[n]
                     [static_cast<std::size_t>(leaders[n][static_cast<std::size_t>(leader_id_)])];
    };
    std::size_t out_blocks = 0, in_blocks = 0;
    for (const int offset : schedule::served_offsets(leader_id_, settings_.leaders, nodes)) {
      LeaderMessage message{};
      message.target_node = (node_ + offset) % nodes;
      message.source_node = (node_ - offset + nodes) % nodes;
      message.to_rank = leader_rank(message.target_node);
      message.from_rank = leader_rank(message.source_node);
      message.out_offset = out_blocks;
      message.out_blocks = size_of(node_) * size_of(message.target_node);
      message.in_offset = in_blocks;
      message.in_blocks = size_of(message.source_node) * size_of(node_);
      if (std::max(message.out_blocks, message.in_blocks) > INT_MAX) {
        throw UsageError(describe() + ": a node pair's message of more than INT_MAX blocks");
      }
      out_blocks += message.out_blocks;
      in_blocks += message.in_blocks;
      messages_.push_back(message);
    }
    outgoing_ = allocate_aligned(out_blocks * block_bytes_);
    incoming_ = allocate_aligned(in_blocks * block_bytes_);
    sends_ = mpi::RequestSet(messages_.size());
    receives_ = mpi::RequestSet(messages_.size());
  }

  // Our buffer's place in a window allocate() made, or else `staging_offset` in our staging.
  BufferPlace place_of(const std::byte* buffer, std::size_t bytes, std::size_t staging_offset) {
    const auto address = reinterpret_cast<std::uintptr_t>(buffer);
    for (const auto& weak : allocations_) {
      const auto allocation = weak.lock();
      if (!allocation) continue;
      const int own = node_comm_.rank();
      const auto base = reinterpret_cast<std::uintptr_t>(allocation->window.segment(own));
      if (address >= base && address + bytes <= base + allocation->window.segment_bytes(own)) {
        return {allocation->id, address - base};
      }
    }
    return {0, staging_offset};
  }

  std::byte* address_of(const BufferPlace& place, int local) const {
    if (place.window == 0) return staging_.segment(local) + place.offset;
    for (const auto& weak : allocations_) {
      const auto allocation = weak.lock();
      if (allocation && allocation->id == place.window) {
        return allocation->window.segment(local) + place.offset;
      }
    }
    throw std::logic_error(describe() + ": a node peer runs on a buffer this rank has freed; " +
                           "allocate() and free buffers on every rank in the same order");
  }

  // Our stores visible to the node and theirs to us (MPI-3 shared memory: sync, barrier, sync).
  void node_sync() const {
    const auto timed = phase("sync");
    const auto sync_all = [&] {
      published_.sync();
      staging_.sync();
      for (const auto& weak : allocations_) {
        if (const auto allocation = weak.lock()) allocation->window.sync();
      }
    };
    sync_all();
    mpi::check(MPI_Barrier(node_comm_.get()), "MPI_Barrier(node)");
    sync_all();
  }

  void pull_intra(std::byte* recv, bool own) const {
    const auto timed = phase("intra");
    const std::vector<int>& node = members_[static_cast<std::size_t>(node_)];
    for (std::size_t local = 0; local < node.size(); ++local) {
      if (!own && node[local] == rank_) continue;
      std::memcpy(block(recv, node[local], block_bytes_),
                  block(peer_send_[local], rank_, block_bytes_), block_bytes_);
    }
  }

  void gather(const LeaderMessage& message) {
    const auto timed = phase("gather");
    const std::vector<int>& target = members_[static_cast<std::size_t>(message.target_node)];
    const std::vector<RankRun>& runs = runs_[static_cast<std::size_t>(message.target_node)];
    std::byte* out = outgoing_.data() + message.out_offset * block_bytes_;
    for (std::size_t local = 0; local < peer_send_.size(); ++local) {
      for (const RankRun& run : runs) {
        std::memcpy(
            block(out, static_cast<int>(local * target.size()) + run.first_local, block_bytes_),
            block(peer_send_[local], run.first_rank, block_bytes_),
            static_cast<std::size_t>(run.count) * block_bytes_);
      }
    }
  }

  void scatter(const LeaderMessage& message) {
    const auto timed = phase("scatter");
    const std::vector<int>& source = members_[static_cast<std::size_t>(message.source_node)];
    const std::byte* in = incoming_.data() + message.in_offset * block_bytes_;
    const std::size_t ours = peer_recv_.size();
    for (std::size_t local = 0; local < ours; ++local) {
      for (std::size_t from = 0; from < source.size(); ++from) {
        std::memcpy(block(peer_recv_[local], source[from], block_bytes_),
                    block(in, static_cast<int>(from * ours + local), block_bytes_), block_bytes_);
      }
    }
  }

  void post_receive(const LeaderMessage& message) {
    transfer_.irecv_blocks(incoming_.data() + message.in_offset * block_bytes_, message.from_rank,
                           message.in_blocks, receives_.next());
  }
  void post_send(const LeaderMessage& message) {
    transfer_.isend_blocks(outgoing_.data() + message.out_offset * block_bytes_, message.to_rank,
                           message.out_blocks, sends_.next());
  }

  // mpml, nmpml: gather everything, exchange everything, scatter everything.
  void lead_in_turn() {
    for (const LeaderMessage& message : messages_)
      gather(message);
    {
      const auto timed = phase("inter");
      for (const LeaderMessage& message : messages_)
        post_receive(message);
      for (const LeaderMessage& message : messages_)
        post_send(message);
      receives_.wait_all();
      sends_.wait_all();
    }
    for (const LeaderMessage& message : messages_)
      scatter(message);
  }

  // onmpml: every copy overlaps the messages in flight; `inter` is the time left waiting.
  void lead_overlapped(std::byte* recv, bool own) {
    const auto timed = phase("overlapped");
    for (const LeaderMessage& message : messages_)
      post_receive(message);
    for (const LeaderMessage& message : messages_) {
      gather(message);
      post_send(message);
    }
    pull_intra(recv, own);
    for (;;) {
      int arrived = -1;
      {
        const auto waiting = phase("inter");
        arrived = receives_.wait_any();
      }
      if (arrived < 0) break;
      scatter(messages_[static_cast<std::size_t>(arrived)]);
    }
    receives_.wait_all();
    const auto waiting = phase("inter");
    sends_.wait_all();
  }

  SharedLeaderSettings settings_;
  std::size_t block_bytes_;
  mpi::Comm node_comm_;
  BlockTransfer transfer_;
  int ranks_ = 1, rank_ = 0, node_ = 0, local_ = 0;
  std::vector<std::vector<int>> members_;   // each node's ranks by local rank
  std::vector<std::vector<RankRun>> runs_;  // the same as runs of consecutive ranks
  std::vector<RankRun> remote_runs_;        // the ranks off our node
  int leader_id_ = -1;                      // -1: not a leader
  std::vector<LeaderMessage> messages_;     // one per served node offset
  ExchangeBuffer outgoing_, incoming_;      // allocate_aligned(): folded where scratch is
  mpi::RequestSet sends_, receives_;
  // Our segments: where this run's buffers lie (Published), and our staged send blocks, then
  // (with other nodes) the staged receive blocks.
  mpi::SharedWindow published_;
  mpi::SharedWindow staging_;
  std::size_t staging_recv_offset_ = 0;
  std::vector<std::weak_ptr<SharedAllocation>> allocations_;
  std::int64_t next_allocation_id_ = 1;
  std::vector<const std::byte*> peer_send_;  // this run's send buffer of each node rank
  std::vector<std::byte*> peer_recv_;
};

constexpr std::string_view kMpml = "mpml";
constexpr std::string_view kNmpml = "nmpml";
constexpr std::string_view kOnmpml = "onmpml";

// What each row fixes; the leaders come from the spec.
constexpr SharedLeaderSettings kMpmlRow{kMpml, Placement::first, false, 0};
constexpr SharedLeaderSettings kNmpmlRow{kNmpml, Placement::numa_spread, false, 0};
constexpr SharedLeaderSettings kOnmpmlRow{kOnmpml, Placement::numa_spread, true, 0};

// `row` with its leaders: 1..the smallest node, by default one per NUMA domain.
template <const SharedLeaderSettings& kRow>
Resolved<SharedLeaderSettings> leader_settings(const RankLayout& layout, const Params& params) {
  const int smallest_node = layout.smallest_node_size();
  int domains = INT_MAX;
  for (int node = 0; node < layout.node_count(); ++node)
    domains = std::min(domains, layout.numa_domains_on(node));
  const long fallback = std::clamp(domains, 1, smallest_node);
  const long leaders = params.integer("leaders", fallback, 1, INT_MAX);
  Resolved<SharedLeaderSettings> r{kRow, ""};
  r.settings.leaders = static_cast<int>(leaders);
  if (leaders > smallest_node) {
    r.refusal = std::string(kRow.name) + ": leaders=" + std::to_string(leaders) + " exceeds the " +
                std::to_string(smallest_node) + " rank" + (smallest_node == 1 ? "" : "s") +
                " of the smallest node; valid leaders: 1.." + std::to_string(smallest_node);
  }
  return r;
}

// auto times onmpml, the overlapped one, with 1, 2 and the default leaders.
std::vector<Spec> onmpml_candidates(const RankLayout&, std::size_t) {
  return {{"onmpml", {}}, {"onmpml", {{"leaders", "1"}}}, {"onmpml", {{"leaders", "2"}}}};
}

// The model's price of `row` at the spec's leaders (1 unless given: the model knows no NUMA
// domains), labelled as describe() prints the plan.
template <const SharedLeaderSettings& kRow>
schedule::ModelResult leader_cost(const schedule::ModelInputs& inputs, const Params& params) {
  const long leaders = params.integer("leaders", 1, 1, inputs.ranks_per_node);
  const std::string label = std::string(kRow.name) + "(leaders=" + std::to_string(leaders) + ")";
  return schedule::model_shared_leaders(inputs, {label, leaders, kRow.overlap});
}

// What auto:mode=estimate prices: leaders 1 and 2, named, so that the chosen spec is the one
// priced (the default, one per NUMA domain, is unknown to the model).
template <const std::string_view& kName>
std::vector<Spec> leader_cost_sweep(const schedule::ModelInputs& inputs) {
  std::vector<Spec> specs;
  for (long leaders = 1; leaders <= std::min(2L, inputs.ranks_per_node); ++leaders)
    specs.push_back({std::string(kName), {{"leaders", std::to_string(leaders)}}});
  return specs;
}

constexpr ParamInfo kLeaderParams[] = {
    {"leaders", "NUMA domains per node, 1..the smallest node",
     "leaders per node, each sending to and receiving from every L-th node offset"}};
constexpr std::string_view kMpmlExamples[] = {"mpml", "mpml:leaders=1", "mpml:leaders=2"};
constexpr std::string_view kNmpmlExamples[] = {"nmpml", "nmpml:leaders=1", "nmpml:leaders=2"};
constexpr std::string_view kOnmpmlExamples[] = {"onmpml", "onmpml:leaders=1", "onmpml:leaders=2"};
constexpr std::string_view kLayouts = "any; leaders fit in the smallest node";

}  // namespace

extern const ExchangeInfo kMpmlExchange = {
    .name = kMpml,
    .summary = "leaders 0..L-1 read node shared memory, one message per node pair",
    .source = "[onmpml-glex] §5.2, Algorithms 2 and 3 (multi-port multi-leader)",
    .layouts = kLayouts,
    .params = kLeaderParams,
    .examples = kMpmlExamples,
    .validate = refusal_of<leader_settings<kMpmlRow>>,
    .make = make_settled<SharedLeaderExchange, leader_settings<kMpmlRow>>,
    .scratch = {.rank_buffers = 2, .node_buffers = 2},  // staging; leaders: messages out and in
    .cost = leader_cost<kMpmlRow>,
    .cost_sweep = leader_cost_sweep<kMpml>,
};

extern const ExchangeInfo kNmpmlExchange = {
    .name = kNmpml,
    .summary = "mpml with the leaders spread over the node's NUMA domains",
    .source = "[onmpml-glex] §5.3, Algorithm 4 (NUMA-aware MPML)",
    .layouts = kLayouts,
    .params = kLeaderParams,
    .examples = kNmpmlExamples,
    .validate = refusal_of<leader_settings<kNmpmlRow>>,
    .make = make_settled<SharedLeaderExchange, leader_settings<kNmpmlRow>>,
    .scratch = {.rank_buffers = 2, .node_buffers = 2},  // staging; leaders: messages out and in
    .cost = leader_cost<kNmpmlRow>,
    .cost_sweep = leader_cost_sweep<kNmpml>,
};

extern const ExchangeInfo kOnmpmlExchange = {
    .name = kOnmpml,
    .summary = "nmpml that sends each message once gathered and scatters each on arrival",
    .source = "[onmpml-glex] §5.4, Algorithm 5 (overlapped NMPML)",
    .layouts = kLayouts,
    .params = kLeaderParams,
    .examples = kOnmpmlExamples,
    .validate = refusal_of<leader_settings<kOnmpmlRow>>,
    .make = make_settled<SharedLeaderExchange, leader_settings<kOnmpmlRow>>,
    .scratch = {.rank_buffers = 2, .node_buffers = 2},  // staging; leaders: messages out and in
    .auto_candidates = onmpml_candidates,
    .cost = leader_cost<kOnmpmlRow>,
    .cost_sweep = leader_cost_sweep<kOnmpml>,
};

}  // namespace a2afft::detail::algorithms
