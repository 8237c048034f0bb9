#pragma once

// Parameters for tests that run once per registered backend.

#include <cctype>
#include <string>
#include <vector>

#include "registry.hpp"

namespace a2afft::detail::testing_support {

/// The name of every registered backend, in registry order.
inline std::vector<std::string> backend_names() {
  std::vector<std::string> names;
  for (const ExchangeInfo* info : registered_exchanges())
    names.emplace_back(info->name);
  return names;
}

/// `spec` for tests that check what a plan computes, not how fast: auto gets the shortest
/// measuring budget (it still builds and times every candidate, in its minimum of 3 rounds, then
/// runs the fastest). At its default budget auto spent 300 ms on every plan these tests build:
/// most of the fft tests' time and a third of the conformance tests'.
inline std::string quick_to_check(std::string spec) {
  return spec == "auto" ? "auto:budget_ms=1" : spec;
}
/// Every registered backend by name, each as quick_to_check gives it.
inline std::vector<std::string> backend_specs_to_check() {
  std::vector<std::string> specs = backend_names();
  for (std::string& spec : specs)
    spec = quick_to_check(spec);
  return specs;
}

/// A spec as a GoogleTest parameter name: anything but letters and digits becomes '_'.
struct SpecParamName {
  template <typename Info>
  std::string operator()(const Info& info) const {
    std::string name = info.param;
    for (char& c : name) {
      if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    }
    return name;
  }
};

}  // namespace a2afft::detail::testing_support
