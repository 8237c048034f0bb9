#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <a2afft/layout.hpp>
#include <a2afft/tools/model_types.hpp>

// The cost model of the exchanges, for studies without a machine (what `a2afft model` prints):
// rounds K, blocks D, bytes and the alpha-beta (Hockney) time of the algorithms for any rank
// count, and the factor schedules' load on each node's network port. Pure math, no MPI.
// The data (LinkCost, MeasuredLinks, ModelInputs, ModelTerms, ModelResult, FactorNodeLoad) is
// model_types.hpp's, which the engine uses as it is.
namespace a2afft::model {

/// tra with `radix`; radix P gives the direct schedule's counts.
ModelResult tra_cost(const ModelInputs& inputs, long radix);
/// tra2 with radices r1 (among a node's ranks) and r2 (among the nodes).
ModelResult tra2_cost(const ModelInputs& inputs, long intra_radix, long inter_radix);
/// The direct algorithms (pairwise, nonblocking, factor), named `algorithm` in the result: P-1
/// rounds of one block each.
ModelResult direct_cost(const ModelInputs& inputs, const std::string& algorithm);
/// The model's price of one backend spec, e.g. `pairwise`, `tra:radix=8` or `tra2:r1=2`
/// (unset parameters take the backend's defaults), as the backend's registry row computes it.
/// Throws UsageError for a backend the model does not price, an unknown key or a bad value.
ModelResult spec_cost(const ModelInputs& inputs, std::string_view spec);
/// The backends the model prices, in `a2afft list` order (each row that has a cost).
std::vector<std::string> modelled_backends();
/// tra's default radix ceil(sqrt(ranks)), at least 2: the knee of the K and D curves.
long default_radix(long ranks);

/// Rounds of the flat factor schedule on `ranks` ranks.
int factor_rounds(int ranks);
/// The flat factor schedule's load on nodes of `node_sizes` ranks, counted round by round
/// (P^2 work: keep P to some thousands).
FactorNodeLoad factor_node_load(const std::vector<int>& node_sizes);
/// factor-hier's (ClusteredAllToAll) load by its closed forms: one rank per node talks at a time.
FactorNodeLoad clustered_node_load(const std::vector<int>& node_sizes);

/// Parses node sizes such as `3,1,2`; throws UsageError quoting the setting.
std::vector<int> parse_node_sizes(const LayoutSetting& setting);

}  // namespace a2afft::model
