// Fuzzes the study deck reader: TOML syntax, tables, keys, types and the expansion into
// command lines. A deck is either refused with a UsageError naming the file, or expands to
// commands of a known kind.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "deck.hpp"
#include "error.hpp"
#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace a2afft;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const deck::Study study = deck::parse_deck(text, "fuzz.toml");
    for (const deck::Invocation& invocation : study.invocations) {
      fuzz::require(!invocation.args.empty() && invocation.args.front() == invocation.kind,
                    "an invocation that does not start with its kind", text);
      fuzz::require(!invocation.command_line().empty(), "an empty command line", text);
    }
  } catch (const UsageError& error) {
    fuzz::require(std::string_view(error.what()).starts_with("fuzz.toml"),
                  "a deck error that does not name the file", text);
  }
  return 0;
}
