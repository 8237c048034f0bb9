#pragma once

#include <CLI/CLI.hpp>

#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <a2afft/error.hpp>
#include <a2afft/layout.hpp>

// Command-line parsing shared by the subcommands. Pure: no MPI, unit-tested.
namespace a2afft::cli {

/// One byte size: `4096`, `4K`, `4KiB`, `1M`, `2G` (binary units). Throws UsageError naming
/// `option` and the text for zero, negative, garbled or overflowing values.
std::size_t parse_byte_size(std::string_view text, std::string_view option);

/// Block sizes: a list `1,3,4K` and/or ranges `16:64K` (doubling from the first to at most the
/// last). Throws UsageError as above, or for a range whose first value exceeds its last.
std::vector<std::size_t> parse_block_sizes(std::string_view text, std::string_view option);

/// Throws UsageError when `ranks` blocks of `block_bytes` cannot be addressed in one buffer.
void check_buffer_fits(std::size_t block_bytes, int ranks, std::string_view option);

/// One spec of an expanded `--exchange` list; `from_all` marks the ones `all` stood for, which
/// a layout may skip (with a note) where a named one would be an error.
struct ExchangeChoice {
  std::string spec;  // canonical
  bool from_all = false;
  bool operator==(const ExchangeChoice&) const = default;
};

/// The specs behind repeated `--exchange` values, each a comma list, checked once here and passed
/// on as canonical texts; `all` stands for every registered backend with its defaults, and for the
/// MPI library's own algorithms (mpi:alg=NAME, BackendInfo::offered). Names and
/// keys are checked against the backends here, so a typo fails before anything runs.
std::vector<ExchangeChoice> expand_exchange_specs(const std::vector<std::string>& values);

/// An API option a library error names (`Fft1dOptions::n1`) and the command's flag for it.
struct FlagName {
  std::string_view api_option;
  std::string_view flag;
};
/// `message` with every API option of `names` replaced by its flag: the library's errors name its
/// own options, and the command speaks its flags.
std::string with_flag_names(std::string message, std::initializer_list<FlagName> names);
/// Runs `call`; a UsageError it throws is thrown again with_flag_names.
template <typename Call>
auto speaking_flags(std::initializer_list<FlagName> names, Call&& call) {
  try {
    return call();
  } catch (const UsageError& error) {
    throw UsageError(with_flag_names(error.what(), names));
  }
}

/// The layout flags every MPI subcommand takes; they win over the A2AFFT_* environment.
struct LayoutFlags {
  std::string ranks_per_node;
  std::string node_sizes;
  std::string numa_per_node;
  std::vector<const CLI::Option*> options;  // present even when given an empty value
  void add_to(CLI::App& command);
  LayoutRequest request() const;
};

}  // namespace a2afft::cli
