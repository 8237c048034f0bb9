// Fuzzes the exchange spec parser: `name[:key=value,...]`, nested `inner=(...)`, and spec lists.
// A spec that parses must print as text that parses back to the same spec, and a list must
// split into items that each parse or are refused with a UsageError.

#include <cstddef>
#include <cstdint>
#include <string>

#include "error.hpp"
#include "fuzz_check.hpp"
#include "make_exchange.hpp"
#include "spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace a2afft;
  using namespace a2afft::detail;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const Spec spec = parse_spec(text);
    const std::string canonical = spec.to_string();
    fuzz::require(parse_spec(canonical) == spec, "parse_spec(to_string()) round trip", text);
    check_spec(spec);
  } catch (const UsageError&) {
  }
  try {
    for (const std::string& item : split_spec_list(text)) {
      try {
        check_spec(parse_spec(item));
      } catch (const UsageError&) {
      }
    }
  } catch (const UsageError&) {
  }
  return 0;
}
