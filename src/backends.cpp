// The public backend catalogue (include/a2afft/backends.hpp): the registry's rows and spec
// grammar, on spec texts instead of the internal Spec.

#include <a2afft/backends.hpp>

#include <a2afft/error.hpp>

#include "registry.hpp"
#include "spec.hpp"

namespace a2afft {

std::vector<BackendInfo> backends() {
  std::vector<BackendInfo> infos;
  for (const detail::ExchangeInfo* info : detail::registered_exchanges()) {
    BackendInfo& row = infos.emplace_back();
    row.name = info->name;
    row.summary = info->summary;
    row.source = info->source;
    row.layouts = info->layouts;
    for (const detail::ParamInfo& param : info->params) {
      row.parameters.push_back(
          {std::string(param.key), std::string(param.default_value), std::string(param.meaning)});
    }
    row.examples.assign(info->examples.begin(), info->examples.end());
    if (info->offered != nullptr) row.offered = info->offered();
    row.split_phase = info->split_phase == detail::SplitPhase::yes           ? "yes"
                      : info->split_phase == detail::SplitPhase::chosen_plan ? "as chosen"
                                                                             : "no";
  }
  return infos;
}

std::vector<std::string> split_specs(std::string_view list) {
  return detail::split_spec_list(list);
}

std::string canonical_spec(std::string_view text) {
  const detail::Spec spec = detail::parse_spec(text);
  detail::check_spec(spec);
  return spec.to_string();
}

std::string canonical_reshape_spec(std::string_view text) {
  const detail::Spec spec = detail::parse_spec(text);
  try {
    detail::check_variable_spec(spec);
  } catch (const UsageError& error) {
    throw UsageError(std::string(text) + ": " + error.what());
  }
  return spec.to_string();
}

}  // namespace a2afft
