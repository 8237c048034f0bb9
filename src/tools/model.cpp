// The tools' cost model (include/a2afft/tools/model.hpp): the engine's schedule math
// (transpose/schedule), whose own types are converted here, so that nothing in the engine
// depends on a tools header.

#include <a2afft/tools/model.hpp>

#include "registry.hpp"
#include "schedule/cost_model.hpp"
#include "schedule/factor.hpp"
#include "schedule/tra.hpp"
#include "topology/layout.hpp"

namespace a2afft::model {
namespace {

detail::schedule::ModelInputs engine_inputs(const ModelInputs& inputs) {
  return {inputs.ranks,
          inputs.ranks_per_node,
          inputs.block_bytes,
          {inputs.intra.alpha_seconds, inputs.intra.beta_seconds_per_byte},
          {inputs.inter.alpha_seconds, inputs.inter.beta_seconds_per_byte}};
}

ModelResult public_result(const detail::schedule::ModelResult& result) {
  ModelResult converted;
  converted.algorithm = result.algorithm;
  converted.rounds = result.rounds;
  converted.blocks = result.blocks;
  converted.bytes_per_rank = result.bytes_per_rank;
  converted.inter_node_messages_per_node = result.inter_node_messages_per_node;
  converted.inter_node_bytes_per_node = result.inter_node_bytes_per_node;
  converted.seconds = result.seconds;
  return converted;
}

FactorNodeLoad public_load(const detail::schedule::FactorNodeLoad& load) {
  return {load.steps, load.fewest_inter_node_steps, load.most_inter_node_steps,
          load.most_off_node_at_once};
}

}  // namespace

ModelResult tra_cost(const ModelInputs& inputs, long radix) {
  return public_result(detail::schedule::model_tra(engine_inputs(inputs), radix));
}

ModelResult tra2_cost(const ModelInputs& inputs, long intra_radix, long inter_radix) {
  return public_result(
      detail::schedule::model_tra2(engine_inputs(inputs), intra_radix, inter_radix));
}

ModelResult direct_cost(const ModelInputs& inputs, const std::string& algorithm) {
  return public_result(detail::schedule::model_direct(engine_inputs(inputs), algorithm));
}

ModelResult spec_cost(const ModelInputs& inputs, std::string_view spec) {
  return public_result(detail::modelled_cost(detail::parse_spec(spec), engine_inputs(inputs)));
}

std::vector<std::string> modelled_backends() {
  std::vector<std::string> names;
  for (const detail::ExchangeInfo* info : detail::registered_exchanges()) {
    if (info->cost != nullptr) names.emplace_back(info->name);
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
  return public_load(detail::schedule::factor_node_load(node_sizes));
}

FactorNodeLoad clustered_node_load(const std::vector<int>& node_sizes) {
  return public_load(detail::schedule::clustered_node_load(node_sizes));
}

std::vector<int> parse_node_sizes(const LayoutSetting& setting) {
  return detail::parse_node_sizes(setting);
}

}  // namespace a2afft::model
