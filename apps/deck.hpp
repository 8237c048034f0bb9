#pragma once

#include <string>
#include <string_view>
#include <vector>

// Study decks: a TOML file that lists runs of `alltoall`, `fft1d` and `fft3d`. Each run expands
// to one or more a2afft command lines (an fft3d run with two sizes and two grids is four), so a
// deck does exactly what the commands it prints would do. Pure: no MPI, unit-tested.
namespace a2afft::deck {

/// One command a deck expands to.
struct Invocation {
  int run = 0;        // 1-based index of its [[run]]
  int line = 0;       // line of that [[run]] in the deck
  std::string kind;   // alltoall, fft1d or fft3d
  std::string label;  // the run's `name`, or `<kind> <run>`
  std::vector<std::string>
      args;  // the subcommand and its arguments, e.g. {"fft3d", "--size", "64"}
  /// `a2afft fft3d --size 64 ...`, quoted where a shell needs it: paste it to rerun one run.
  std::string command_line() const;
};

struct Study {
  std::string path;    // the deck
  std::string name;    // [study] name, default: the deck's file name without .toml
  std::string output;  // [study] output: results go to <output>.json and <output>.csv
  std::vector<Invocation> invocations;
};

/// Reads and checks a deck. Throws UsageError `<path>:<line>: ...` for a TOML syntax error, an
/// unknown table or key (listing the valid keys), a value of the wrong type or a missing kind.
/// Values are checked further by the runner, with the same messages as on the command line.
Study parse_deck_file(const std::string& path);
/// The same on text, `path` naming it in messages.
Study parse_deck(std::string_view text, const std::string& path);

/// The keys a [[run]] of `kind` accepts, for help and messages.
std::vector<std::string> valid_run_keys(std::string_view kind);

}  // namespace a2afft::deck
