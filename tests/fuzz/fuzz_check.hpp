#pragma once

// Shared by the fuzz targets: an input may be refused with a UsageError (that is the parser
// working); anything else escaping, or a broken invariant, is a finding.

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace a2afft::fuzz {

/// Stops the run (libFuzzer saves the input) when `holds` is false.
inline void require(bool holds, std::string_view what, std::string_view input) {
  if (holds) return;
  std::fprintf(stderr, "fuzz invariant broken: %.*s\ninput: '%.*s'\n",
               static_cast<int>(what.size()), what.data(), static_cast<int>(input.size()),
               input.data());
  std::abort();
}

}  // namespace a2afft::fuzz
