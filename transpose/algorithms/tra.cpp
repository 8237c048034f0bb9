// tra, bruck and tra2: the tunable-radix all-to-all in one and two layers.
//
// Source: [tra-2024] §III (TRA) and §IV (TRA2); bruck is [bruck-1997], which is TRA with
// radix 2.
// Steps (tra, radix r): number blocks by distance i = (destination - rank) mod P; for each
//   digit position x < w (w = base-r digits of P-1) and value 1 <= z < r, send every block
//   whose x-th digit is z to rank + z*r^x and receive the same slots from rank - z*r^x. The
//   paper [tra-2024] rotates the blocks before and after; `rotation=mapped` (default) instead
//   reads each block from `send` on its first hop and writes it to `recv` on its last, so only
//   blocks with several non-zero digits pass through scratch. Rounds pack non-contiguous blocks.
// Steps (tra2, radices r1 and r2, Q ranks per node, N nodes): pack the blocks for each local
//   rank k into a super-block of N blocks; TRA among the node's Q ranks (radix r1); transpose
//   into super-blocks of Q blocks per node; TRA among the N ranks with our local rank (radix
//   r2), straight into `recv` when ranks are numbered node by node.
// Cost: K*alpha + D*b*beta with K, D from schedule/tra (Propositions 1-4); for r = ceil(sqrt P)
//   K ~ 2 sqrt(P) and D ~ 2 sqrt(P) * P / r. tra2: K1*alpha_intra + D1*b*beta_intra +
//   K2*alpha_inter + D2*b*beta_inter with N*b and Q*b super-blocks.
// Parameters: tra `radix` 2..P (ceil(sqrt P)), `rotation` mapped|copied (mapped);
//   tra2 `r1` 2..Q (ceil(sqrt Q)), `r2` 2..N (N); equal node sizes only.

#include "algorithms/tra.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "algorithms/algorithms.hpp"
#include "algorithms/block_transfer.hpp"
#include "error.hpp"
#include "mpi/comm.hpp"
#include "schedule/block_grid.hpp"
#include "schedule/cost_model.hpp"
#include "schedule/tra.hpp"
#include "topology/topology.hpp"

namespace a2afft::detail::algorithms {
namespace {

// Where one block of a round comes from or goes to; base pointers are bound in run().
enum Buffer : unsigned char { kSend, kRecv, kScratch };
struct BlockPlace {
  Buffer buffer;
  std::size_t index;
};

// One round as this rank sees it: the same distance slots leave and arrive, but in mapped mode
// a slot's first hop reads `send` and its last hop writes `recv`.
struct PlannedRound {
  int destination;
  int source;
  std::vector<BlockPlace> outgoing;
  std::vector<BlockPlace> incoming;
};

class TraExchange final : public ExchangePlan {
 public:
  TraExchange(MPI_Comm comm, std::size_t block_bytes, long radix, TraRotation rotation,
              std::string name)
      : transfer_(comm, block_bytes), radix_(radix), rotation_(rotation), name_(std::move(name)) {
    const long rank = transfer_.rank();
    const long ranks = transfer_.size();
    const auto rounds = schedule::tra_rounds(ranks, radix);
    // Scratch slot of each distance that passes through scratch (-1: never).
    std::vector<long> slot(static_cast<std::size_t>(ranks), -1);
    std::size_t scratch_blocks = 0;
    for (long i = 1; i < ranks; ++i) {
      if (rotation == TraRotation::copied || schedule::tra_hops(i, radix).count > 1)
        slot[i] = static_cast<long>(scratch_blocks++);
    }
    std::size_t largest_round = 0;
    for (const schedule::TraRound& round : rounds) {
      PlannedRound planned{static_cast<int>(schedule::rank_after(rank, round.distance, ranks)),
                           static_cast<int>(schedule::rank_before(rank, round.distance, ranks)),
                           {},
                           {}};
      for (const long i : round.blocks) {
        const schedule::TraHops hops = schedule::tra_hops(i, radix);
        const bool first_hop = hops.first_position == round.position;
        const bool last_hop = hops.last_position == round.position;
        const auto scratch = BlockPlace{kScratch, static_cast<std::size_t>(slot[i])};
        const bool mapped = rotation == TraRotation::mapped;
        planned.outgoing.push_back(
            mapped && first_hop
                ? BlockPlace{kSend, static_cast<std::size_t>(schedule::rank_after(rank, i, ranks))}
                : scratch);
        planned.incoming.push_back(
            mapped && last_hop
                ? BlockPlace{kRecv, static_cast<std::size_t>(schedule::rank_before(rank, i, ranks))}
                : scratch);
      }
      if (needs_packing(planned)) largest_round = std::max(largest_round, round.blocks.size());
      rounds_.push_back(std::move(planned));
    }
    scratch_ = allocate_aligned(scratch_blocks * block_bytes);
    packed_out_ = allocate_aligned(largest_round * block_bytes);
    packed_in_ = allocate_aligned(largest_round * block_bytes);
    if (rotation == TraRotation::copied) {
      for (long i = 1; i < ranks; ++i) {
        rotation_slots_.push_back(
            {static_cast<std::size_t>(schedule::rank_after(rank, i, ranks)),
             static_cast<std::size_t>(slot[i]),
             static_cast<std::size_t>(schedule::rank_before(rank, i, ranks))});
      }
    }
  }

  std::string describe() const override {
    return name_ + "(radix=" + std::to_string(radix_) +
           (rotation_ == TraRotation::copied ? ",rotation=copied)" : ")");
  }

  void run(const std::byte* send, std::byte* recv) override {
    const std::size_t block_bytes = transfer_.block_bytes();
    transfer_.copy_own(send, recv);
    if (rotation_ == TraRotation::copied) {
      const auto timed = phase("rotate");
      for (const RotationSlot& r : rotation_slots_) {
        std::memcpy(block(scratch_.data(), static_cast<int>(r.scratch), block_bytes),
                    block(send, static_cast<int>(r.send), block_bytes), block_bytes);
      }
    }
    const std::byte* read_base[] = {send, recv, scratch_.data()};
    std::byte* write_base[] = {nullptr, recv, scratch_.data()};
    for (std::size_t index = 0; index < rounds_.size(); ++index)
      exchange_round(rounds_[index], static_cast<long>(index) + 1, read_base, write_base);
    if (rotation_ == TraRotation::copied) {
      const auto timed = phase("rotate");
      for (const RotationSlot& r : rotation_slots_) {
        std::memcpy(block(recv, static_cast<int>(r.recv), block_bytes),
                    block(scratch_.data(), static_cast<int>(r.scratch), block_bytes), block_bytes);
      }
    }
  }

 private:
  struct RotationSlot {
    std::size_t send;
    std::size_t scratch;
    std::size_t recv;
  };

  // A single block that does not read and write the same scratch slot goes without packing.
  static bool needs_packing(const PlannedRound& round) {
    return round.outgoing.size() > 1 ||
           (round.outgoing.front().buffer == kScratch && round.incoming.front().buffer == kScratch);
  }

  void exchange_round(const PlannedRound& round, long number, const std::byte* const* read_base,
                      std::byte* const* write_base) {
    const std::size_t block_bytes = transfer_.block_bytes();
    const std::size_t count = round.outgoing.size();
    if (!needs_packing(round)) {
      const BlockPlace& out = round.outgoing.front();
      const BlockPlace& in = round.incoming.front();
      const auto timed = phase("p2p", number);
      transfer_.sendrecv_blocks(read_base[out.buffer] + out.index * block_bytes, round.destination,
                                write_base[in.buffer] + in.index * block_bytes, round.source, 1);
      return;
    }
    {
      const auto timed = phase("pack", number);
      for (std::size_t b = 0; b < count; ++b) {
        const BlockPlace& place = round.outgoing[b];
        std::memcpy(packed_out_.data() + b * block_bytes,
                    read_base[place.buffer] + place.index * block_bytes, block_bytes);
      }
    }
    {
      const auto timed = phase("p2p", number);
      transfer_.sendrecv_blocks(packed_out_.data(), round.destination, packed_in_.data(),
                                round.source, count);
    }
    const auto timed = phase("unpack", number);
    for (std::size_t b = 0; b < count; ++b) {
      const BlockPlace& place = round.incoming[b];
      std::memcpy(write_base[place.buffer] + place.index * block_bytes,
                  packed_in_.data() + b * block_bytes, block_bytes);
    }
  }

  BlockTransfer transfer_;
  long radix_;
  TraRotation rotation_;
  std::string name_;  // tra, or bruck for the fixed radix 2
  std::vector<PlannedRound> rounds_;
  std::vector<RotationSlot> rotation_slots_;
  // From allocate_aligned(): folded in a timing-only simulation, like every plan's scratch.
  ExchangeBuffer scratch_;
  ExchangeBuffer packed_out_;
  ExchangeBuffer packed_in_;
};

// tra2's radices: r1 among a node's ranks, r2 among the nodes.
struct Tra2Settings {
  long intra_radix;
  long inter_radix;
};

class Tra2Exchange final : public ExchangePlan {
 public:
  Tra2Exchange(const ExchangeProblem& problem, Tra2Settings settings)
      : block_bytes_(problem.block_bytes),
        ranks_per_node_(static_cast<std::size_t>(problem.topology.node_size(0))),
        nodes_(static_cast<std::size_t>(problem.topology.node_count())),
        intra_radix_(settings.intra_radix),
        inter_radix_(settings.inter_radix),
        same_local_rank_comm_(mpi::Comm::split(
            problem.topology.comm(), problem.topology.local_rank(), problem.topology.node())),
        intra_(make_tra_plan(problem.topology.node_comm(), nodes_ * block_bytes_,
                             settings.intra_radix, TraRotation::mapped)),
        inter_(make_tra_plan(same_local_rank_comm_.get(), ranks_per_node_ * block_bytes_,
                             settings.inter_radix, TraRotation::mapped)),
        rank_of_place_(static_cast<std::size_t>(problem.topology.size()), -1) {
    const Topology& topology = problem.topology;
    for (int rank = 0; rank < topology.size(); ++rank) {
      const auto place = static_cast<std::size_t>(topology.node_of(rank)) * ranks_per_node_ +
                         static_cast<std::size_t>(topology.local_rank_of(rank));
      rank_of_place_[place] = rank;
      numbered_by_node_ = numbered_by_node_ && place == static_cast<std::size_t>(rank);
    }
    // With one node, or one rank per node, one layer is empty and every pack is the identity:
    // the other layer's TRA then runs straight from send to recv.
    if (numbered_by_node_ && (nodes_ == 1 || ranks_per_node_ == 1)) {
      single_layer_ = nodes_ == 1 ? intra_.get() : inter_.get();
      return;
    }
    first_ = allocate_aligned(nodes_ * ranks_per_node_ * block_bytes_);
    second_ = allocate_aligned(first_.size());
  }

  std::string describe() const override {
    return "tra2(r1=" + std::to_string(intra_radix_) + ",r2=" + std::to_string(inter_radix_) + ")";
  }

  void run(const std::byte* send, std::byte* recv) override {
    if (single_layer_ != nullptr) {
      const auto timed = phase(nodes_ == 1 ? "intra" : "inter");
      single_layer_->run(send, recv);
      return;
    }
    {
      // Super-block k holds our blocks for local rank k on every node, node by node.
      const auto timed = phase("pack");
      for (std::size_t local = 0; local < ranks_per_node_; ++local) {
        for (std::size_t node = 0; node < nodes_; ++node) {
          std::memcpy(first_.data() + (local * nodes_ + node) * block_bytes_,
                      block(send, rank_of_place_[node * ranks_per_node_ + local], block_bytes_),
                      block_bytes_);
        }
      }
    }
    {
      const auto timed = phase("intra");
      intra_->run(first_.data(), second_.data());
    }
    {
      // second_ is [source local rank][destination node]; the inter phase wants it by node.
      const auto timed = phase("pack");
      schedule::transpose_block_grid(second_.data(), first_.data(), ranks_per_node_, nodes_,
                                     block_bytes_);
    }
    std::byte* arrivals = numbered_by_node_ ? recv : second_.data();
    {
      const auto timed = phase("inter");
      inter_->run(first_.data(), arrivals);
    }
    if (!numbered_by_node_) {
      const auto timed = phase("unpack");
      for (std::size_t place = 0; place < rank_of_place_.size(); ++place) {
        std::memcpy(block(recv, rank_of_place_[place], block_bytes_),
                    arrivals + place * block_bytes_, block_bytes_);
      }
    }
  }

 private:
  std::size_t block_bytes_;
  std::size_t ranks_per_node_;
  std::size_t nodes_;
  long intra_radix_;
  long inter_radix_;
  mpi::Comm same_local_rank_comm_;
  std::unique_ptr<ExchangePlan> intra_;
  std::unique_ptr<ExchangePlan> inter_;
  ExchangeBuffer first_;
  ExchangeBuffer second_;
  std::vector<int> rank_of_place_;  // node * Q + local rank -> rank
  bool numbered_by_node_ = true;
  ExchangePlan* single_layer_ = nullptr;  // set when the other layer is empty
};

// A radix for a TRA on `ranks` ranks: 2..P, with 2 allowed on a single rank (no rounds).
long radix_param(const Params& params, std::string_view key, long ranks, long fallback) {
  return params.integer(key, fallback, 2, std::max(2L, ranks));
}

struct TraSettings {
  long radix;
  TraRotation rotation;
};

Resolved<TraSettings> tra_settings(const RankLayout& layout, const Params& params) {
  const long ranks = layout.size();
  const long radix = radix_param(params, "radix", ranks, schedule::default_radix(ranks));
  const bool copied = params.word("rotation", "mapped", {"mapped", "copied"}) == "copied";
  return {{radix, copied ? TraRotation::copied : TraRotation::mapped}, ""};
}

std::unique_ptr<ExchangePlan> make_tra(const ExchangeProblem& problem, const Params& params) {
  const TraSettings settings = tra_settings(problem.topology.layout(), params).settings;
  return make_tra_plan(problem.topology.comm(), problem.block_bytes, settings.radix,
                       settings.rotation);
}

long integer_sqrt_ceil(long value) {
  long root = 0;
  while (root * root < value)
    ++root;
  return root;
}

// The model's best tra radix for this block size, with the model's default link costs.
long model_radix(const RankLayout& layout, std::size_t block_bytes) {
  const long ranks = layout.size();
  const long per_node = layout.nodes_equal() ? layout.node_size(0) : 1;
  const schedule::ModelInputs inputs{
      ranks, per_node, block_bytes, {0.5e-6, 0.05e-9}, {2e-6, 0.1e-9}};
  long best = 2;
  double best_seconds = INFINITY;
  for (long radix = 2; radix <= std::max(2L, ranks); ++radix) {
    const double seconds = schedule::model_tra(inputs, radix).seconds;
    if (seconds < best_seconds) {
      best_seconds = seconds;
      best = radix;
    }
  }
  return best;
}

// auto times tra at radices 2, floor/ceil sqrt P, ceil sqrt P + 1, P and the model's best.
std::vector<Spec> tra_candidates(const RankLayout& layout, std::size_t block_bytes) {
  const long ranks = layout.size();
  const long root = integer_sqrt_ceil(ranks);
  std::vector<Spec> specs;
  for (const long radix : {2L, root - 1, root, root + 1, ranks, model_radix(layout, block_bytes)}) {
    if (radix >= 2 && radix <= ranks) specs.push_back({"tra", {{"radix", std::to_string(radix)}}});
  }
  return specs;
}

// The model's price of tra at the spec's radix (default ceil(sqrt P)).
schedule::ModelResult tra_cost(const schedule::ModelInputs& inputs, const Params& params) {
  const long radix =
      params.integer("radix", schedule::default_radix(inputs.ranks), 2, std::max(2L, inputs.ranks));
  return schedule::model_tra(inputs, radix);
}

// What auto:mode=estimate prices: tra at every radix.
std::vector<Spec> tra_cost_sweep(const schedule::ModelInputs& inputs) {
  std::vector<Spec> specs;
  for (long radix = 2; radix <= inputs.ranks; ++radix)
    specs.push_back({"tra", {{"radix", std::to_string(radix)}}});
  return specs;
}

schedule::ModelResult bruck_cost(const schedule::ModelInputs& inputs, const Params&) {
  schedule::ModelResult result = schedule::model_tra(inputs, 2);
  result.algorithm = "bruck";
  return result;
}

std::unique_ptr<ExchangePlan> make_bruck(const ExchangeProblem& problem, const Params&) {
  return std::make_unique<TraExchange>(problem.topology.comm(), problem.block_bytes, 2,
                                       TraRotation::mapped, "bruck");
}

// The radices' ranges depend on the node size, so on unequal nodes only the refusal is known.
Resolved<Tra2Settings> tra2_settings(const RankLayout& layout, const Params& params) {
  if (!layout.nodes_equal())
    return {{}, "tra2 needs nodes of equal size; factor runs on any layout"};
  const long ranks_per_node = layout.node_size(0);
  const long nodes = layout.node_count();
  return {{radix_param(params, "r1", ranks_per_node, schedule::default_radix(ranks_per_node)),
           radix_param(params, "r2", nodes, std::max(2L, nodes))},
          ""};
}

// auto times tra2 at r1 in {2, ceil sqrt Q, Q} and r2 in {2, N}.
// The model's price of tra2 at the spec's radices (defaults ceil(sqrt Q) and N); equal nodes.
schedule::ModelResult tra2_cost(const schedule::ModelInputs& inputs, const Params& params) {
  const long per_node = inputs.ranks_per_node;
  const long nodes = inputs.ranks / per_node;
  const long r1 =
      params.integer("r1", schedule::default_radix(per_node), 2, std::max(2L, per_node));
  const long r2 = params.integer("r2", std::max(2L, nodes), 2, std::max(2L, nodes));
  return schedule::model_tra2(inputs, r1, r2);
}

// What auto:mode=estimate prices: tra2 at every r1, r2 when there are nodes of 2 or more ranks.
std::vector<Spec> tra2_cost_sweep(const schedule::ModelInputs& inputs) {
  std::vector<Spec> specs;
  const long per_node = inputs.ranks_per_node;
  const long nodes = inputs.ranks / per_node;
  if (per_node < 2 || nodes < 2) return specs;
  for (long r1 = 2; r1 <= per_node; ++r1) {
    for (long r2 = 2; r2 <= nodes; ++r2)
      specs.push_back({"tra2", {{"r1", std::to_string(r1)}, {"r2", std::to_string(r2)}}});
  }
  return specs;
}

std::vector<Spec> tra2_candidates(const RankLayout& layout, std::size_t) {
  std::vector<Spec> specs;
  if (!layout.nodes_equal()) return specs;
  const long per_node = layout.node_size(0);
  const long nodes = layout.node_count();
  for (const long r1 : {2L, integer_sqrt_ceil(per_node), per_node}) {
    for (const long r2 : {2L, nodes}) {
      if (r1 >= 2 && r1 <= std::max(2L, per_node) && r2 >= 2 && r2 <= std::max(2L, nodes)) {
        specs.push_back({"tra2", {{"r1", std::to_string(r1)}, {"r2", std::to_string(r2)}}});
      }
    }
  }
  return specs;
}

constexpr ParamInfo kTraParams[] = {
    {"radix", "ceil(sqrt P)", "radix r, 2..P: r-1 rounds per base-r digit of P-1"},
    {"rotation", "mapped",
     "mapped (blocks read and written in place) or copied (the paper's "
     "rotations through scratch)"},
};
constexpr std::string_view kTraExamples[] = {"tra", "tra:radix=2", "tra:rotation=copied"};
constexpr std::string_view kBruckExamples[] = {"bruck"};
constexpr ParamInfo kTra2Params[] = {
    {"r1", "ceil(sqrt Q)", "radix of the intra-node phase among a node's Q ranks, 2..Q"},
    {"r2", "N", "radix of the inter-node phase among the N nodes, 2..N"},
};
constexpr std::string_view kTra2Examples[] = {"tra2", "tra2:r1=2,r2=2"};

}  // namespace

std::unique_ptr<ExchangePlan> make_tra_plan(MPI_Comm comm, std::size_t block_bytes, long radix,
                                            TraRotation rotation) {
  return std::make_unique<TraExchange>(comm, block_bytes, radix, rotation, "tra");
}

extern const ExchangeInfo kTraExchange = {
    .name = "tra",
    .summary = "tunable-radix Bruck: r-1 rounds per base-r digit, blocks packed per round",
    .source = "[tra-2024] §III",
    .layouts = "any",
    .params = kTraParams,
    .examples = kTraExamples,
    .validate = refusal_of<tra_settings>,
    .make = make_tra,
    .scratch = {.rank_buffers = 3},  // scratch, packed round out and in
    .auto_candidates = tra_candidates,
    .cost = tra_cost,
    .cost_sweep = tra_cost_sweep,
};

extern const ExchangeInfo kBruckExchange = {
    .name = "bruck",
    .summary = "Bruck's algorithm: tra with radix 2, ceil(log2 P) rounds",
    .source = "[bruck-1997]; [tra-2024] §III with r = 2",
    .layouts = "any",
    .params = {},
    .examples = kBruckExamples,
    .validate = nullptr,
    .make = make_bruck,
    .scratch = {.rank_buffers = 3},  // scratch, packed round out and in
    .cost = bruck_cost,
};

extern const ExchangeInfo kTra2Exchange = {
    .name = "tra2",
    .summary = "two-layer TRA: intra-node TRA (radix r1), then inter-node TRA (radix r2)",
    .source = "[tra-2024] §IV",
    .layouts = "equal nodes",
    .params = kTra2Params,
    .examples = kTra2Examples,
    .validate = refusal_of<tra2_settings>,
    .make = make_settled<Tra2Exchange, tra2_settings>,
    .scratch = {.rank_buffers = 8},  // two repack buffers and two inner tra plans
    .auto_candidates = tra2_candidates,
    .cost = tra2_cost,
    .cost_sweep = tra2_cost_sweep,
};

}  // namespace a2afft::detail::algorithms
