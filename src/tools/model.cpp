// The tools' cost model (include/a2afft/tools/model.hpp): the engine's schedule math
// (transpose/schedule), on the same types (model_types.hpp), so nothing is converted here.

#include <a2afft/tools/model.hpp>

#include "registry.hpp"
#include "schedule/cost_model.hpp"
#include "schedule/factor.hpp"
#include "schedule/tra.hpp"
#include "topology/layout.hpp"

namespace a2afft::model {

ModelResult tra_cost(const ModelInputs& inputs, long radix) {
  return detail::schedule::model_tra(inputs, radix);
}

ModelResult tra2_cost(const ModelInputs& inputs, long intra_radix, long inter_radix) {
  return detail::schedule::model_tra2(inputs, intra_radix, inter_radix);
}

ModelResult direct_cost(const ModelInputs& inputs, const std::string& algorithm) {
  return detail::schedule::model_direct(inputs, algorithm);
}

ModelResult spec_cost(const ModelInputs& inputs, std::string_view spec) {
  return detail::modelled_cost(detail::parse_spec(spec), inputs);
}

std::vector<std::string> modelled_backends() {
  std::vector<std::string> names;
  for (const detail::ExchangeInfo* info : detail::registered_exchanges()) {
    if (info->cost != nullptr && !info->cost_needs_named_schedule) names.emplace_back(info->name);
  }
  return names;
}

long default_radix(long ranks) {
  return detail::schedule::default_radix(ranks);
}

int factor_rounds(int ranks) {
  return detail::schedule::factor_rounds(ranks);
}

FactorNodeLoad factor_node_load(const std::vector<int>& node_sizes) {
  return detail::schedule::factor_node_load(node_sizes);
}

FactorNodeLoad clustered_node_load(const std::vector<int>& node_sizes) {
  return detail::schedule::clustered_node_load(node_sizes);
}

std::vector<int> parse_node_sizes(const LayoutSetting& setting) {
  return detail::parse_node_sizes(setting);
}

}  // namespace a2afft::model
