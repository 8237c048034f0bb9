// The node-aware family: hierarchical, multileader, node-aware, locality-aware and
// multileader-node-aware, one plan with three settings.
//
// Source: [node-aware-2025] §3, Algorithms 3 (hierarchical; with several
// leaders per node, multi-leader), 4 (node-aware; with several regions per node,
// locality-aware) and 5 (multi-leader + node-aware).
// Steps, on the ranks in the canonical order of schedule/node_aware.hpp:
//   1. gather (ppl > 1): each leader group's P-block send buffers to its leader;
//      repack to one super-block (ppl x ppl blocks) per destination leader group;
//   2. leader exchange among the P/ppl leaders, either
//      flat (Alg. 3): one inner all-to-all of super-blocks, or
//      two-step (Alg. 4, 5): an inner all-to-all among the leaders of equal index in every
//      region ("inter": m super-blocks per message), repack, then one inside each region
//      ("intra": P/(ppl m) super-blocks per message), repack;
//   3. scatter (ppl > 1): repack per member and scatter from the leader.
// Cost, with b the block and the inner exchanges pairwise: gather and scatter (MPI_Gather and
//   MPI_Scatter as binomial trees) 2 (ceil(log2 ppl) alpha + (ppl-1) P b beta); flat
//   (P/ppl - 1)(alpha + ppl^2 b beta); two-step (R-1)(alpha + m ppl^2 b beta) +
//   (m-1)(alpha + R ppl^2 b beta), R = P/(ppl m) regions.
// `a2afft model` and auto:mode=estimate price these costs (schedule::model_node_aware) with a
//   direct inner exchange; the model knows no NUMA domains, so locality-aware is priced with
//   groups=g (groups=numa as one region per node, and says so).
// Parameters: inner=<flat spec> (default pairwise) for every all-to-all of the plan; ppl
//   (multileader, multileader-node-aware); groups=g|numa (locality-aware).

#include <algorithm>
#include <climits>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>

#include "algorithms/algorithms.hpp"
#include "error.hpp"
#include "mpi/comm.hpp"
#include "mpi/datatype.hpp"
#include "schedule/block_grid.hpp"
#include "schedule/cost_model.hpp"
#include "schedule/node_aware.hpp"
#include "topology/topology.hpp"

namespace a2afft::detail::algorithms {
namespace {

using schedule::NodeAwareShape;

// What distinguishes the five backends.
struct FamilySettings {
  std::string name;
  std::string parameters;  // for describe(), e.g. "ppl=2"
  int ranks_per_leader;
  bool two_step;
  std::vector<int> region_of_rank;  // region of each rank within its node
  int groups_per_region;            // leader groups per region (two-step)
  Spec inner;
};

// The ranks in the canonical order of schedule/node_aware.hpp: node by node, region by region.
std::vector<int> canonical_order_of(const RankLayout& layout,
                                    const std::vector<int>& region_of_rank) {
  std::vector<int> node_of, local_of;
  for (int rank = 0; rank < layout.size(); ++rank) {
    node_of.push_back(layout.node_of(rank));
    local_of.push_back(layout.local_rank_of(rank));
  }
  return schedule::canonical_order(node_of, region_of_rank, local_of);
}

// The ranks of every inner communicator the plan splits off, each in its order there: flat, all
// leaders by group; two-step, the leaders of equal index across regions ("inter"), then the
// leaders of each region ("intra"). Group g = region * m + index leads with order[g * ppl].
std::vector<std::vector<int>> inner_members(const std::vector<int>& order,
                                            const FamilySettings& settings) {
  const int ppl = settings.ranks_per_leader;
  const int groups = static_cast<int>(order.size()) / ppl;
  const auto leader = [&](int group) { return order[static_cast<std::size_t>(group * ppl)]; };
  std::vector<std::vector<int>> members;
  if (!settings.two_step) {
    members.emplace_back();
    for (int group = 0; group < groups; ++group)
      members.back().push_back(leader(group));
    return members;
  }
  const int m = settings.groups_per_region;
  const int regions = groups / m;
  for (int index = 0; index < m; ++index) {
    members.emplace_back();
    for (int region = 0; region < regions; ++region)
      members.back().push_back(leader(region * m + index));
  }
  for (int region = 0; region < regions; ++region) {
    members.emplace_back();
    for (int index = 0; index < m; ++index)
      members.back().push_back(leader(region * m + index));
  }
  return members;
}

// An inner exchange on a sub-communicator, with the topology it was planned on.
struct InnerExchange {
  std::unique_ptr<Topology> topology;
  std::unique_ptr<ExchangePlan> exchange;
};

InnerExchange make_inner(const Topology& parent, const mpi::Comm& members, const Spec& spec,
                         std::size_t block_bytes) {
  InnerExchange inner;
  if (members.get() == MPI_COMM_NULL) return inner;
  inner.topology = std::make_unique<Topology>(parent, members.get());
  inner.exchange = make_exchange(spec, ExchangeProblem{*inner.topology, block_bytes});
  return inner;
}

class NodeAwareFamilyExchange final : public ExchangePlan {
 public:
  NodeAwareFamilyExchange(const ExchangeProblem& problem, FamilySettings settings)
      : settings_(std::move(settings)), block_bytes_(problem.block_bytes) {
    const Topology& topology = problem.topology;
    ranks_ = topology.size();
    order_ = canonical_order_of(topology.layout(), settings_.region_of_rank);
    identity_ = schedule::is_identity(order_);
    const auto position = std::find(order_.begin(), order_.end(), topology.rank());
    const auto canonical = static_cast<int>(position - order_.begin());
    const int ppl = settings_.ranks_per_leader;
    const int group = canonical / ppl;
    member_ = canonical % ppl;
    const int m = settings_.groups_per_region;
    regions_ = ranks_ / ppl / m;

    const MPI_Comm parent = topology.comm();
    const bool leader = member_ == 0;
    const int leader_color = leader ? 0 : MPI_UNDEFINED;
    const std::size_t super_block = static_cast<std::size_t>(ppl * ppl) * block_bytes_;
    if (ppl > 1) {
      members_ = mpi::Comm::split(parent, group, member_);
      block_type_ = mpi::make_block_type(block_bytes_);
    }
    if (settings_.two_step) {
      // Leaders of equal index in every region, and the leaders of one region.
      const mpi::Comm across =
          mpi::Comm::split(parent, leader ? group % m : MPI_UNDEFINED, group / m);
      const mpi::Comm within =
          mpi::Comm::split(parent, leader ? group / m : MPI_UNDEFINED, group % m);
      inter_ =
          make_inner(topology, across, settings_.inner, static_cast<std::size_t>(m) * super_block);
      intra_ = make_inner(topology, within, settings_.inner,
                          static_cast<std::size_t>(regions_) * super_block);
    } else {
      const mpi::Comm leaders = mpi::Comm::split(parent, leader_color, group);
      inter_ = make_inner(topology, leaders, settings_.inner, super_block);
    }
    const std::size_t total = static_cast<std::size_t>(ranks_) * block_bytes_;
    if (leader) {
      // Uninitialized: run() writes before it reads, and zeroing 2 * ppl * P blocks here cost
      // seconds per GiB (a std::vector's value-initialisation) for nothing.
      first_ = allocate_aligned(static_cast<std::size_t>(ppl) * total);
      second_ = allocate_aligned(static_cast<std::size_t>(ppl) * total);
    }
    if (!identity_) canonical_ = allocate_aligned(2 * total);
    // Only leaders hold inner plans; canonical rank 0 leads, and its words go to every rank so
    // that describe() reads the same everywhere.
    const ExchangePlan* inner = inter_.exchange ? inter_.exchange.get() : intra_.exchange.get();
    inner_description_ = inner != nullptr ? inner->describe() : settings_.inner.to_string();
    inner_description_ = mpi::broadcast(inner_description_, order_.front(), parent);
  }

  std::string describe() const override {
    std::string text = settings_.name + "(";
    if (!settings_.parameters.empty()) text += settings_.parameters + ",";
    return text + "inner=" + inner_description_ + ")";
  }

  void run(const std::byte* send, std::byte* recv) override {
    const std::size_t total = static_cast<std::size_t>(ranks_) * block_bytes_;
    const std::byte* canonical_send = send;
    std::byte* canonical_recv = recv;
    if (!identity_) {
      const auto timed = phase("repack");
      for (std::size_t c = 0; c < order_.size(); ++c) {
        std::memcpy(canonical_.data() + c * block_bytes_,
                    send + static_cast<std::size_t>(order_[c]) * block_bytes_, block_bytes_);
      }
      canonical_send = canonical_.data();
      canonical_recv = canonical_.data() + total;
    }
    if (settings_.ranks_per_leader == 1) {
      exchange_leaders(canonical_send, canonical_recv, first_.data(), second_.data());
    } else {
      gather_exchange_scatter(canonical_send, canonical_recv);
    }
    if (!identity_) {
      const auto timed = phase("repack");
      for (std::size_t c = 0; c < order_.size(); ++c) {
        std::memcpy(recv + static_cast<std::size_t>(order_[c]) * block_bytes_,
                    canonical_recv + c * block_bytes_, block_bytes_);
      }
    }
  }

 private:
  // Step 2 on a leader: super-blocks by destination group in `from` -> by source group in
  // `to`. The two-step exchange also uses `scratch` and `spare`; `spare` and `to` may be
  // `from`, whose content is dead once the first exchange has read it.
  void exchange_leaders(const std::byte* from, std::byte* to, std::byte* scratch,
                        std::byte* spare) {
    if (!settings_.two_step) {
      const auto timed = phase("inter");
      inter_.exchange->run(from, to);
      return;
    }
    const auto m = static_cast<std::size_t>(settings_.groups_per_region);
    const auto regions = static_cast<std::size_t>(regions_);
    const auto ppl = static_cast<std::size_t>(settings_.ranks_per_leader);
    const std::size_t super_block = ppl * ppl * block_bytes_;
    {
      const auto timed = phase("inter");
      inter_.exchange->run(from, scratch);  // [source region][destination index]
    }
    {
      const auto timed = phase("repack");
      schedule::transpose_block_grid(scratch, spare, regions, m,
                                     super_block);  // [destination index][region]
    }
    {
      const auto timed = phase("intra");
      intra_.exchange->run(spare, scratch);  // [source index][source region]
    }
    const auto timed = phase("repack");
    schedule::transpose_block_grid(scratch, to, m, regions, super_block);  // [source group]
  }

  void gather_exchange_scatter(const std::byte* send, std::byte* recv) {
    const auto ppl = static_cast<std::size_t>(settings_.ranks_per_leader);
    const auto groups = static_cast<std::size_t>(ranks_) / ppl;
    const bool leader = member_ == 0;
    {
      const auto timed = phase("gather");
      mpi::check(MPI_Gather(send, ranks_, block_type_.get(), first_.data(), ranks_,
                            block_type_.get(), 0, members_.get()),
                 "MPI_Gather");
    }
    std::byte* per_member = second_.data();
    if (leader) {
      // [member][group][member there] -> [group][member][member there]: one super-block each.
      {
        const auto timed = phase("repack");
        schedule::transpose_block_grid(first_.data(), second_.data(), ppl, groups,
                                       ppl * block_bytes_);
      }
      // Two buffers suffice: the two-step exchange ends where it began, the flat one does not.
      std::byte* by_source = settings_.two_step ? second_.data() : first_.data();
      exchange_leaders(second_.data(), by_source, first_.data(), second_.data());
      per_member = by_source == first_.data() ? second_.data() : first_.data();
      // [source group][source member][member] -> [member][source rank]: per-member buffers.
      const auto timed = phase("repack");
      schedule::transpose_block_grid(by_source, per_member, groups * ppl, ppl, block_bytes_);
    }
    const auto timed = phase("scatter");
    mpi::check(MPI_Scatter(per_member, ranks_, block_type_.get(), recv, ranks_, block_type_.get(),
                           0, members_.get()),
               "MPI_Scatter");
  }

  FamilySettings settings_;
  std::size_t block_bytes_;
  int ranks_ = 1;
  int member_ = 0;
  int regions_ = 1;
  std::vector<int> order_;  // canonical position -> rank
  bool identity_ = true;
  mpi::Comm members_;  // a leader group, the leader first
  mpi::Datatype block_type_;
  InnerExchange inter_;  // flat: all leaders; two-step: leaders of equal index across regions
  InnerExchange intra_;  // two-step: the leaders of one region
  ExchangeBuffer first_, second_;  // a leader's scratch, ppl * P blocks each
  ExchangeBuffer canonical_;       // send and recv in canonical order
  std::string inner_description_;  // the inner plans' describe(), as rank 0 has it
};

constexpr std::string_view kHierarchical = "hierarchical";
constexpr std::string_view kMultileader = "multileader";
constexpr std::string_view kNodeAware = "node-aware";
constexpr std::string_view kLocalityAware = "locality-aware";
constexpr std::string_view kMultileaderNodeAware = "multileader-node-aware";

// The inner spec: any registered backend that runs no inner exchanges of its own.
Spec inner_spec(const Params& params) {
  const std::string* text = params.spec().find("inner");
  const Spec inner = parse_spec(text == nullptr ? "pairwise" : *text);
  check_spec(inner);
  if (find_exchange(inner.name).hierarchical) {
    throw UsageError(params.spec().name + ": inner=" + inner.to_string() +
                     " is not valid; inner takes a flat backend (" + flat_exchange_names() + ")");
  }
  return inner;
}

// Ranks per node when every node has as many, else 0.
int equal_node_size(const RankLayout& layout) {
  return layout.nodes_equal() ? layout.node_size(0) : 0;
}

// The largest divisor of the node size up to 4: [node-aware-2025]'s best ppl (4 ranks per leader).
long default_ranks_per_leader(int ranks_per_node) {
  long ppl = 1;
  for (long d = 1; d <= std::min(4, ranks_per_node); ++d) {
    if (ranks_per_node % d == 0) ppl = d;
  }
  return ppl;
}

// NUMA domain of each rank numbered 0.. within its node, and the domains' sizes.
std::vector<int> numa_regions(const RankLayout& layout, std::map<std::pair<int, int>, int>* sizes) {
  std::map<int, std::set<int>> domains_of_node;
  for (int rank = 0; rank < layout.size(); ++rank) {
    domains_of_node[layout.node_of(rank)].insert(layout.numa_of(rank));
  }
  std::vector<int> region(static_cast<std::size_t>(layout.size()));
  for (int rank = 0; rank < layout.size(); ++rank) {
    const std::set<int>& domains = domains_of_node[layout.node_of(rank)];
    const int index =
        static_cast<int>(std::distance(domains.begin(), domains.find(layout.numa_of(rank))));
    region[static_cast<std::size_t>(rank)] = index;
    ++(*sizes)[{layout.node_of(rank), index}];
  }
  return region;
}

using Settled = Resolved<FamilySettings>;

// What every row starts from, once it has read its own values: the inner spec, one leader per
// rank, one region per node, or the refusal of unequal nodes.
Settled family_start(std::string_view name, const RankLayout& layout, const Params& params) {
  Settled r{
      {std::string(name), "", 1, false, std::vector<int>(layout.size(), 0), 1, inner_spec(params)},
      ""};
  if (equal_node_size(layout) == 0) {
    r.refusal = std::string(name) +
                " needs nodes of equal size (this layout: " + layout.describe() +
                "); factor runs on any layout";
  }
  return r;
}

// The shape's refusal, then the inner spec validated on every inner communicator's layout.
Settled family_finish(Settled r, const RankLayout& layout) {
  if (!r.refusal.empty()) return r;
  const FamilySettings& s = r.settings;
  r.refusal = schedule::node_aware_refusal(NodeAwareShape{layout.size(), equal_node_size(layout),
                                                          s.ranks_per_leader, s.groups_per_region});
  if (!r.refusal.empty()) {
    r.refusal = s.name + ": " + r.refusal;
    return r;
  }
  const std::vector<int> order = canonical_order_of(layout, s.region_of_rank);
  for (const std::vector<int>& members : inner_members(order, s)) {
    const RankLayout inner = layout.subset(members);
    if (std::string why = exchange_refusal(s.inner, inner); !why.empty()) {
      r.refusal =
          s.name + ": inner=" + s.inner.to_string() + " on " + inner.describe() + ": " + why;
      return r;
    }
  }
  return r;
}

// One settings function per row. Each reads its values first, so a bad one is an error on every
// layout; whether it fits the layout is a refusal.
Settled hierarchical_settings(const RankLayout& layout, const Params& params) {
  Settled r = family_start(kHierarchical, layout, params);
  r.settings.ranks_per_leader = std::max(1, equal_node_size(layout));
  return family_finish(std::move(r), layout);
}

Settled with_leaders(std::string_view name, bool two_step, const RankLayout& layout,
                     const Params& params) {
  const int ppn = equal_node_size(layout);
  const long ppl = params.integer("ppl", default_ranks_per_leader(std::max(ppn, 1)), 1, INT_MAX);
  Settled r = family_start(name, layout, params);
  if (!r.refusal.empty()) return r;
  FamilySettings& s = r.settings;
  s.ranks_per_leader = static_cast<int>(ppl);
  s.parameters = "ppl=" + std::to_string(ppl);
  s.two_step = two_step;
  if (ppn % ppl != 0) {
    r.refusal = std::string(name) + ": ppl=" + std::to_string(ppl) + " does not divide the " +
                std::to_string(ppn) + " ranks per node; valid ppl: divisors of " +
                std::to_string(ppn);
    return r;
  }
  s.groups_per_region = ppn / s.ranks_per_leader;  // regions are nodes
  return family_finish(std::move(r), layout);
}

Settled multileader_settings(const RankLayout& layout, const Params& params) {
  return with_leaders(kMultileader, false, layout, params);
}

Settled multileader_node_aware_settings(const RankLayout& layout, const Params& params) {
  return with_leaders(kMultileaderNodeAware, true, layout, params);
}

Settled node_aware_settings(const RankLayout& layout, const Params& params) {
  Settled r = family_start(kNodeAware, layout, params);
  r.settings.two_step = true;
  r.settings.groups_per_region = std::max(1, equal_node_size(layout));
  return family_finish(std::move(r), layout);
}

// groups=g: g regions of consecutive local ranks per node; groups=numa: one per NUMA domain.
Settled locality_aware_settings(const RankLayout& layout, const Params& params) {
  const long groups = params.integer("groups", 0, 1, INT_MAX, {{"numa", 0}});
  Settled r = family_start(kLocalityAware, layout, params);
  if (!r.refusal.empty()) return r;
  const int ppn = equal_node_size(layout);
  FamilySettings& s = r.settings;
  s.two_step = true;
  if (groups == 0) {
    s.parameters = "groups=numa";
    std::map<std::pair<int, int>, int> sizes;
    s.region_of_rank = numa_regions(layout, &sizes);
    s.groups_per_region = sizes.begin()->second;
    for (const auto& [where, count] : sizes) {
      if (count == s.groups_per_region) continue;
      r.refusal = "locality-aware:groups=numa needs NUMA domains of equal size; node " +
                  std::to_string(where.first) + " has one of " + std::to_string(count) +
                  " ranks and one of " + std::to_string(s.groups_per_region) +
                  "; give groups=g instead";
      return r;
    }
    return family_finish(std::move(r), layout);
  }
  s.parameters = "groups=" + std::to_string(groups);
  if (ppn % groups != 0) {
    r.refusal = "locality-aware: groups=" + std::to_string(groups) + " does not divide the " +
                std::to_string(ppn) + " ranks per node; valid groups: divisors of " +
                std::to_string(ppn) + ", or numa";
    return r;
  }
  s.groups_per_region = ppn / static_cast<int>(groups);
  for (int rank = 0; rank < layout.size(); ++rank) {
    s.region_of_rank[static_cast<std::size_t>(rank)] =
        layout.local_rank_of(rank) / s.groups_per_region;
  }
  return family_finish(std::move(r), layout);
}

// auto times a row with each direct inner exchange.
template <const std::string_view& kName>
std::vector<Spec> with_direct_inner(const RankLayout&, std::size_t) {
  return {{std::string(kName), {{"inner", "pairwise"}}},
          {std::string(kName), {{"inner", "nonblocking"}}}};
}

// The model prices the family with direct inner exchanges, whose rounds its formulas count.
std::string modelled_inner(const Params& params) {
  const Spec inner = inner_spec(params);
  if (inner.name != "pairwise" && inner.name != "nonblocking" && inner.name != "factor") {
    throw UsageError(params.spec().name + ": the cost model prices inner=pairwise, nonblocking " +
                     "or factor, not inner=" + inner.to_string());
  }
  return inner.to_string();
}

// One row's price: ranks_per_leader ppl, flat or two-step over regions of `groups_per_region`
// leader groups, labelled as describe() prints the plan (with `note`, what the model assumed).
schedule::ModelResult family_cost(const schedule::ModelInputs& inputs, const Params& params,
                                  const std::string& parameters, long ppl, bool two_step,
                                  long groups_per_region) {
  const std::string label = params.spec().name + "(" + parameters +
                            (parameters.empty() ? "" : ",") + "inner=" + modelled_inner(params) +
                            ")";
  try {
    return schedule::model_node_aware(inputs, {label, ppl, two_step, groups_per_region});
  } catch (const std::invalid_argument& error) {
    throw UsageError(error.what());
  }
}

long model_ranks_per_leader(const schedule::ModelInputs& inputs, const Params& params) {
  const auto per_node = static_cast<int>(inputs.ranks_per_node);
  return params.integer("ppl", default_ranks_per_leader(per_node), 1, per_node);
}

schedule::ModelResult hierarchical_cost(const schedule::ModelInputs& inputs, const Params& params) {
  return family_cost(inputs, params, "", inputs.ranks_per_node, false, 1);
}

schedule::ModelResult multileader_cost(const schedule::ModelInputs& inputs, const Params& params) {
  const long ppl = model_ranks_per_leader(inputs, params);
  return family_cost(inputs, params, "ppl=" + std::to_string(ppl), ppl, false, 1);
}

schedule::ModelResult node_aware_cost(const schedule::ModelInputs& inputs, const Params& params) {
  return family_cost(inputs, params, "", 1, true, inputs.ranks_per_node);
}

schedule::ModelResult locality_aware_cost(const schedule::ModelInputs& inputs,
                                          const Params& params) {
  const long groups = params.integer("groups", 0, 1, INT_MAX, {{"numa", 0}});
  const long per_node = inputs.ranks_per_node;
  if (groups > 0 && per_node % groups != 0) {
    throw UsageError("locality-aware: groups=" + std::to_string(groups) +
                     " does not divide Q=" + std::to_string(per_node) +
                     "; valid groups: divisors of " + std::to_string(per_node));
  }
  const std::string parameters =
      groups > 0 ? "groups=" + std::to_string(groups) : "groups=numa as 1";
  return family_cost(inputs, params, parameters, 1, true, per_node / std::max(1L, groups));
}

schedule::ModelResult multileader_node_aware_cost(const schedule::ModelInputs& inputs,
                                                  const Params& params) {
  const long ppl = model_ranks_per_leader(inputs, params);
  return family_cost(inputs, params, "ppl=" + std::to_string(ppl), ppl, true,
                     inputs.ranks_per_node / ppl);
}

// What auto:mode=estimate prices of locality-aware: two regions per node (one region is
// node-aware's price), when the node splits so.
std::vector<Spec> locality_aware_cost_sweep(const schedule::ModelInputs& inputs) {
  if (inputs.ranks_per_node < 4 || inputs.ranks_per_node % 2 != 0) return {};
  return {{std::string(kLocalityAware), {{"groups", "2"}}}};
}

constexpr ParamInfo kInner = {"inner", "pairwise",
                              "the flat backend spec of every inner all-to-all, e.g. "
                              "inner=nonblocking or inner=(tra:radix=4)"};
constexpr ParamInfo kPpl = {"ppl", "largest divisor of the node size up to 4",
                            "ranks per leader; must divide the ranks per node"};
constexpr ParamInfo kHierarchicalParams[] = {kInner};
constexpr ParamInfo kMultileaderParams[] = {kPpl, kInner};
constexpr ParamInfo kLocalityParams[] = {
    {"groups", "numa",
     "regions per node: a divisor g of the ranks per node, or numa (one per NUMA domain)"},
    kInner};
constexpr std::string_view kHierarchicalExamples[] = {"hierarchical",
                                                      "hierarchical:inner=nonblocking"};
constexpr std::string_view kMultileaderExamples[] = {"multileader", "multileader:ppl=2",
                                                     "multileader:ppl=1,inner=nonblocking"};
constexpr std::string_view kNodeAwareExamples[] = {"node-aware", "node-aware:inner=nonblocking"};
constexpr std::string_view kLocalityExamples[] = {"locality-aware", "locality-aware:groups=1",
                                                  "locality-aware:groups=2,inner=nonblocking"};
constexpr std::string_view kMultileaderNodeAwareExamples[] = {
    "multileader-node-aware", "multileader-node-aware:ppl=2",
    "multileader-node-aware:ppl=1,inner=nonblocking"};

}  // namespace

extern const ExchangeInfo kHierarchicalExchange = {
    .name = kHierarchical,
    .summary = "gather to one leader per node, all-to-all among leaders, scatter",
    .source = "[node-aware-2025] §3.1, Algorithm 3",
    .layouts = "equal nodes",
    .params = kHierarchicalParams,
    .examples = kHierarchicalExamples,
    .validate = refusal_of<hierarchical_settings>,
    .make = make_settled<NodeAwareFamilyExchange, hierarchical_settings>,
    // Canonical order; leaders: gather and scatter buffers and the inner tra plan.
    .scratch = {.rank_buffers = 2, .node_buffers = 5},
    .auto_candidates = with_direct_inner<kHierarchical>,
    .cost = hierarchical_cost,
    .hierarchical = true,
};

extern const ExchangeInfo kMultileaderExchange = {
    .name = kMultileader,
    .summary = "hierarchical with a leader per ppl ranks: gather, leaders' all-to-all, scatter",
    .source = "[node-aware-2025] §3.1, Algorithm 3 with several leaders",
    .layouts = "equal nodes; ppl divides the node size",
    .params = kMultileaderParams,
    .examples = kMultileaderExamples,
    .validate = refusal_of<multileader_settings>,
    .make = make_settled<NodeAwareFamilyExchange, multileader_settings>,
    // Canonical order; leaders: gather and scatter buffers and the inner tra plan.
    .scratch = {.rank_buffers = 2, .node_buffers = 5},
    .auto_candidates = with_direct_inner<kMultileader>,
    .cost = multileader_cost,
    .hierarchical = true,
};

extern const ExchangeInfo kNodeAwareExchange = {
    .name = kNodeAware,
    .summary = "all-to-all among equal local ranks across nodes, then within each node",
    .source = "[node-aware-2025] §3.2, Algorithm 4",
    .layouts = "equal nodes",
    .params = kHierarchicalParams,
    .examples = kNodeAwareExamples,
    .validate = refusal_of<node_aware_settings>,
    .make = make_settled<NodeAwareFamilyExchange, node_aware_settings>,
    // Canonical order; leaders: gather and scatter buffers and the inner tra plan.
    .scratch = {.rank_buffers = 2, .node_buffers = 5},
    .auto_candidates = with_direct_inner<kNodeAware>,
    .cost = node_aware_cost,
    .hierarchical = true,
};

extern const ExchangeInfo kLocalityAwareExchange = {
    .name = kLocalityAware,
    .summary = "node-aware over regions (NUMA domains or g groups per node) instead of nodes",
    .source = "[node-aware-2025] §3.2, Algorithm 4 with local_comm a region",
    .layouts = "equal nodes; g divides the node size; numa: equal NUMA domains",
    .params = kLocalityParams,
    .examples = kLocalityExamples,
    .validate = refusal_of<locality_aware_settings>,
    .make = make_settled<NodeAwareFamilyExchange, locality_aware_settings>,
    // Canonical order; leaders: gather and scatter buffers and the inner tra plan.
    .scratch = {.rank_buffers = 2, .node_buffers = 5},
    .auto_candidates = with_direct_inner<kLocalityAware>,
    .cost = locality_aware_cost,
    .cost_sweep = locality_aware_cost_sweep,
    .hierarchical = true,
};

extern const ExchangeInfo kMultileaderNodeAwareExchange = {
    .name = kMultileaderNodeAware,
    .summary = "gather to leaders, node-aware all-to-all among the leaders, scatter",
    .source = "[node-aware-2025] §3.3, Algorithm 5",
    .layouts = "equal nodes; ppl divides the node size",
    .params = kMultileaderParams,
    .examples = kMultileaderNodeAwareExamples,
    .validate = refusal_of<multileader_node_aware_settings>,
    .make = make_settled<NodeAwareFamilyExchange, multileader_node_aware_settings>,
    // Canonical order; leaders: gather and scatter buffers and the inner tra plan.
    .scratch = {.rank_buffers = 2, .node_buffers = 5},
    .cost = multileader_node_aware_cost,
    .hierarchical = true,
};

}  // namespace a2afft::detail::algorithms
