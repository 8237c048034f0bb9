#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace a2afft::detail {

/// One `key=value` of a spec. A value may itself be a spec (`inner=tra:radix=4`).
struct SpecParam {
  std::string key;
  std::string value;
  bool operator==(const SpecParam&) const = default;
};

/// A parsed exchange spec `name[:key=value[,key=value...]]`. Parsing checks the grammar only;
/// the registry checks names, keys and values against what each backend accepts.
struct Spec {
  std::string name;
  std::vector<SpecParam> params;

  /// The value for `key`, or nullptr.
  const std::string* find(std::string_view key) const;
  /// Canonical text: `name:k=v,k=v`, nested specs with several parameters in parentheses.
  std::string to_string() const;
  bool operator==(const Spec&) const = default;
};

/// Parses one spec; throws UsageError naming the text and the grammar.
Spec parse_spec(std::string_view text);

/// Splits a comma-separated list of specs. An item of the form `key=value` continues the spec
/// before it (backend names never contain `=`), and commas inside parentheses do not split:
/// `tra:radix=4,tra2:r1=2,r2=4,mpi` and `node-aware:inner=(tra2:r1=2,r2=4),mpi` are 3 and 2.
std::vector<std::string> split_spec_list(std::string_view text);

}  // namespace a2afft::detail
