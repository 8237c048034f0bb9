#include "options.hpp"

#include <array>
#include <charconv>
#include <cstddef>
#include <limits>

#include <a2afft/backends.hpp>
#include <a2afft/error.hpp>

namespace a2afft::cli {
namespace {

struct Unit {
  std::string_view suffix;
  std::size_t factor;
};

// Longer suffixes first so that `KiB` is not read as `K` followed by garbage.
constexpr std::array kUnits = {
    Unit{"KiB", std::size_t{1} << 10}, Unit{"MiB", std::size_t{1} << 20},
    Unit{"GiB", std::size_t{1} << 30}, Unit{"K", std::size_t{1} << 10},
    Unit{"M", std::size_t{1} << 20},   Unit{"G", std::size_t{1} << 30},
    Unit{"k", std::size_t{1} << 10},   Unit{"B", 1},
};

[[noreturn]] void bad_size(std::string_view text, std::string_view option, std::string_view why) {
  throw UsageError(std::string(option) + "=" + std::string(text) +
                   " is not valid: " + std::string(why) +
                   "; expected whole byte counts of at least 1 like 4096, 4K or 1MiB, "
                   "listed with commas or as ranges like 16:64K");
}

}  // namespace

std::size_t parse_byte_size(std::string_view text, std::string_view option) {
  std::size_t factor = 1;
  std::string_view digits = text;
  for (const Unit& unit : kUnits) {
    if (digits.size() > unit.suffix.size() && digits.ends_with(unit.suffix)) {
      factor = unit.factor;
      digits.remove_suffix(unit.suffix.size());
      break;
    }
  }
  if (digits.empty() || digits.front() == '-' || digits.front() == '+') {
    bad_size(text, option, "not a positive number");
  }
  std::size_t value = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error == std::errc::result_out_of_range ||
      (error == std::errc() && value > std::numeric_limits<std::size_t>::max() / factor)) {
    bad_size(text, option, "too large");
  }
  if (error != std::errc() || end != digits.data() + digits.size()) {
    bad_size(text, option, "not a number");
  }
  if (value == 0) bad_size(text, option, "zero bytes");
  return value * factor;
}

std::vector<std::size_t> parse_block_sizes(std::string_view text, std::string_view option) {
  std::vector<std::size_t> sizes;
  while (true) {
    const auto comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    if (const auto colon = item.find(':'); colon != std::string_view::npos) {
      const std::size_t first = parse_byte_size(item.substr(0, colon), option);
      const std::size_t last = parse_byte_size(item.substr(colon + 1), option);
      if (first > last) bad_size(item, option, "the range runs backwards");
      for (std::size_t size = first; size <= last; size *= 2) {
        sizes.push_back(size);
        if (size > last / 2) break;
      }
    } else {
      sizes.push_back(parse_byte_size(item, option));
    }
    if (comma == std::string_view::npos) return sizes;
    text.remove_prefix(comma + 1);
  }
}

void check_buffer_fits(std::size_t block_bytes, int ranks, std::string_view option) {
  constexpr auto kLargest = static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max());
  if (ranks > 0 && block_bytes > kLargest / static_cast<std::size_t>(ranks)) {
    throw UsageError(
        std::string(option) + "=" + std::to_string(block_bytes) + " times " +
        std::to_string(ranks) + " ranks does not fit in one buffer; expected at most " +
        std::to_string(kLargest / static_cast<std::size_t>(ranks)) + " bytes per block");
  }
}

std::vector<ExchangeChoice> expand_exchange_specs(const std::vector<std::string>& values) {
  std::vector<ExchangeChoice> specs;
  for (const std::string& value : values) {
    for (const std::string& text : split_specs(value)) {
      if (text == "all") {
        for (BackendInfo& backend : backends()) {
          specs.push_back({std::move(backend.name), true});
          for (std::string& offered : backend.offered)
            specs.push_back({std::move(offered), true});
        }
        continue;
      }
      specs.push_back({canonical_spec(text), false});
    }
  }
  return specs;
}

void LayoutFlags::add_to(CLI::App& command) {
  options = {
      command.add_option(
          "--ranks-per-node", ranks_per_node,
          "Virtual nodes of q consecutive ranks (the last may be smaller); overrides "
          "A2AFFT_RANKS_PER_NODE"),
      command.add_option("--node-sizes", node_sizes,
                         "Virtual nodes of the given sizes in rank order, e.g. 3,1,2; overrides "
                         "A2AFFT_NODE_SIZES"),
      command.add_option("--numa-per-node", numa_per_node,
                         "Virtual NUMA domains per node (consecutive ranks); overrides "
                         "A2AFFT_NUMA_PER_NODE")};
}

LayoutRequest LayoutFlags::request() const {
  const auto setting = [&](std::size_t index, const std::string& value) {
    const CLI::Option* option = options.at(index);
    return option->count() == 0 ? std::nullopt
                                : std::optional<LayoutSetting>({option->get_name(), value});
  };
  const LayoutRequest cli{setting(0, ranks_per_node), setting(1, node_sizes),
                          setting(2, numa_per_node)};
  return LayoutRequest::from_environment().overridden_by(cli);
}

std::string with_flag_names(std::string message, std::initializer_list<FlagName> names) {
  for (const FlagName& name : names) {
    for (std::size_t at = message.find(name.api_option); at != std::string::npos;
         at = message.find(name.api_option, at + name.flag.size())) {
      message.replace(at, name.api_option.size(), name.flag);
    }
  }
  return message;
}

}  // namespace a2afft::cli
