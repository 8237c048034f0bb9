#pragma once

#include <initializer_list>
#include <span>
#include <string>
#include <string_view>

#include "spec.hpp"

namespace a2afft::detail {

/// A word a parameter accepts besides numbers, e.g. `batch=all`.
struct NamedValue {
  std::string_view word;
  long value;
};

/// Typed, validated access to a spec's parameters. The registry has already rejected unknown
/// keys; these getters reject bad values with a message naming backend, key, value and range.
class Params {
 public:
  explicit Params(const Spec& spec) : spec_(spec) {}

  const Spec& spec() const { return spec_; }

  /// A whole number in [low, high]. Absent or `auto` gives `fallback`; `words` name values.
  long integer(std::string_view key, long fallback, long low, long high,
               std::initializer_list<NamedValue> words = {}) const;

  /// One of `valid`; absent or `auto` gives `fallback`.
  std::string_view word(std::string_view key, std::string_view fallback,
                        std::initializer_list<std::string_view> valid) const;
  /// The same for choices known only at run time (what the running MPI library offers).
  std::string_view word(std::string_view key, std::string_view fallback,
                        std::span<const std::string> valid) const;

 private:
  const Spec& spec_;
};

}  // namespace a2afft::detail
