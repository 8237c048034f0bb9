// The public cost model (include/a2afft/model.hpp): the schedules' own counts, which the unit
// tests check against the simulated schedules.

#include <a2afft/model.hpp>

#include "schedule/cost_model.hpp"
#include "schedule/factor.hpp"
#include "schedule/tra.hpp"
#include "topology/layout.hpp"

namespace a2afft::model {

ModelResult tra_cost(const ModelInputs& inputs, long radix) {
  return schedule::model_tra(inputs, radix);
}

ModelResult tra2_cost(const ModelInputs& inputs, long intra_radix, long inter_radix) {
  return schedule::model_tra2(inputs, intra_radix, inter_radix);
}

ModelResult direct_cost(const ModelInputs& inputs, const std::string& algorithm) {
  return schedule::model_direct(inputs, algorithm);
}

long default_radix(long ranks) {
  return schedule::default_radix(ranks);
}

int factor_rounds(int ranks) {
  return schedule::factor_rounds(ranks);
}

FactorNodeLoad factor_node_load(const std::vector<int>& node_sizes) {
  return schedule::factor_node_load(node_sizes);
}

FactorNodeLoad clustered_node_load(const std::vector<int>& node_sizes) {
  return schedule::clustered_node_load(node_sizes);
}

std::vector<int> parse_node_sizes(const LayoutSetting& setting) {
  return a2afft::parse_node_sizes(setting);
}

}  // namespace a2afft::model
