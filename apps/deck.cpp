#include "deck.hpp"

#include <toml++/toml.h>
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include <a2afft/error.hpp>

namespace a2afft::deck {
namespace {

// integers: one integer or "auto", or a list of them (integer_list: only a list of integers).
enum class Type { text, integer, boolean, number, text_list, integer_list, integers, size_list };

// How a key becomes arguments of its subcommand.
enum class Emit {
  value,      // --flag value
  if_true,    // --flag when true
  repeated,   // --flag item, once per list item
  joined,     // --flag a,b,c
  expanded,   // one invocation per list item (several expanded keys: every combination)
  deck_only,  // used by the deck itself
};

struct KeyRule {
  std::string_view key;
  std::string_view kinds;  // the run kinds that accept it
  Type type;
  std::string_view flag;
  Emit emit;
};

constexpr std::string_view kAll = "alltoall fft1d fft2d fft3d";
constexpr std::string_view kFft = "fft1d fft2d fft3d";

// Every key a [[run]] may set: the deck's side of each subcommand's options.
constexpr KeyRule kRunKeys[] = {
    {"kind", kAll, Type::text, "", Emit::deck_only},
    {"name", kAll, Type::text, "", Emit::deck_only},
    {"exchanges", kAll, Type::text_list, "-x", Emit::repeated},
    {"iters", kAll, Type::integer, "--iters", Emit::value},
    {"warmup", kAll, Type::integer, "--warmup", Emit::value},
    {"ranks_per_node", kAll, Type::integer, "--ranks-per-node", Emit::value},
    {"node_sizes", kAll, Type::integer_list, "--node-sizes", Emit::joined},
    {"numa_per_node", kAll, Type::integer, "--numa-per-node", Emit::value},
    {"sizes", "alltoall", Type::size_list, "--sizes", Emit::joined},
    {"radix_sweep", "alltoall", Type::boolean, "--radix-sweep", Emit::if_true},
    {"phases", "alltoall", Type::boolean, "--phases", Emit::if_true},
    {"validate", "alltoall", Type::boolean, "--validate", Emit::if_true},
    {"buffers", "alltoall", Type::text, "--buffers", Emit::value},
    {"sizes", "fft2d fft3d", Type::size_list, "--size", Emit::expanded},
    {"grids", "fft3d", Type::text_list, "--grid", Emit::expanded},
    {"row_exchange", "fft3d", Type::text, "--row-exchange", Emit::value},
    {"col_exchange", "fft3d", Type::text, "--col-exchange", Emit::value},
    {"in_grid", "fft3d", Type::text, "--in-grid", Emit::value},
    {"out_grid", "fft3d", Type::text, "--out-grid", Emit::value},
    {"reshape_exchange", "fft3d", Type::text, "--reshape-exchange", Emit::value},
    // (`kind` names the run's command, so the transform's kind is `fft_kind`.)
    {"fft_kind", "fft2d fft3d", Type::text, "--kind", Emit::value},
    {"transforms", "fft2d fft3d", Type::text, "--transforms", Emit::value},
    {"padding", "fft2d fft3d", Type::text, "--padding", Emit::value},
    {"precision", kFft, Type::text, "--precision", Emit::value},
    {"batch", kFft, Type::integer, "--batch", Emit::value},
    // A list sweeps the threads per rank, one invocation each (ranks come from the launch);
    // "auto" times the counts.
    {"threads", kFft, Type::integers, "--threads", Emit::expanded},
    {"lengths", "fft1d", Type::size_list, "--n", Emit::expanded},
    {"n1", "fft1d", Type::integer, "--n1", Emit::value},
    {"hpcc", "fft1d", Type::boolean, "--hpcc", Emit::if_true},
    {"memory_fraction", "fft1d", Type::number, "--memory-fraction", Emit::value},
    {"engines", kFft, Type::text_list, "--engine", Emit::joined},
    {"rigor", kFft, Type::text, "--rigor", Emit::value},
    {"order", kAll, Type::text, "--order", Emit::value},
    {"backward", kFft, Type::boolean, "--backward", Emit::if_true},
    {"output", kFft, Type::text, "--output", Emit::value},
    {"tolerance", kFft, Type::number, "--tolerance", Emit::value},
};

constexpr std::string_view kKinds[] = {"alltoall", "fft1d", "fft2d", "fft3d"};
constexpr std::string_view kStudyKeys[] = {"name", "output"};

bool accepts(const KeyRule& rule, std::string_view kind) {
  std::istringstream words{std::string(rule.kinds)};
  std::string word;
  while (words >> word) {
    if (word == kind) return true;
  }
  return false;
}

const KeyRule* find_rule(std::string_view key, std::string_view kind) {
  for (const KeyRule& rule : kRunKeys) {
    if (rule.key == key && accepts(rule, kind)) return &rule;
  }
  return nullptr;
}

std::string where(const std::string& path, const toml::node& node) {
  return path + ":" + std::to_string(node.source().begin.line);
}

std::string joined(const std::vector<std::string>& items, std::string_view separator) {
  std::string text;
  for (const std::string& item : items)
    text += (text.empty() ? "" : std::string(separator)) + item;
  return text;
}

const char* type_name(Type type) {
  switch (type) {
    case Type::text:
      return "a string";
    case Type::integer:
      return "an integer";
    case Type::boolean:
      return "true or false";
    case Type::number:
      return "a number";
    case Type::text_list:
      return "a string or a list of strings";
    case Type::integer_list:
      return "a list of integers";
    case Type::integers:
      return "an integer, \"auto\", or a list of them";
    case Type::size_list:
      return "a size (\"64K\", 4096) or a list of them";
  }
  return "";
}

// The value of `node` as command-line words, or nullopt when it has the wrong type.
std::optional<std::vector<std::string>> words_of(const toml::node& node, Type type) {
  const auto scalar = [&](const toml::node& item) -> std::optional<std::string> {
    if (item.is_string()) return *item.value<std::string>();
    if (item.is_integer()) return std::to_string(*item.value<std::int64_t>());
    return std::nullopt;
  };
  switch (type) {
    case Type::text:
      if (node.is_string()) return std::vector{*node.value<std::string>()};
      return std::nullopt;
    case Type::integer:
      if (node.is_integer()) return std::vector{std::to_string(*node.value<std::int64_t>())};
      return std::nullopt;
    case Type::boolean:
      if (node.is_boolean()) return std::vector{std::string(*node.value<bool>() ? "true" : "")};
      return std::nullopt;
    case Type::number:
      if (node.is_integer() || node.is_floating_point()) {
        std::ostringstream text;
        text << *node.value<double>();
        return std::vector{text.str()};
      }
      return std::nullopt;
    case Type::text_list:
    case Type::integer_list:
    case Type::integers:
    case Type::size_list: {
      const bool integers = type == Type::integer_list || type == Type::integers;
      // "auto" where a count may be timed (threads = "auto": PlanOptions::timed_threads).
      const auto is_auto = [&](const toml::node& item) {
        return type == Type::integers && item.is_string() && *item.value<std::string>() == "auto";
      };
      std::vector<std::string> words;
      const auto add = [&](const toml::node& item) {
        if (integers                  ? !item.is_integer() && !is_auto(item)
            : type == Type::text_list ? !item.is_string()
                                      : !scalar(item)) {
          return false;
        }
        words.push_back(*scalar(item));
        return true;
      };
      if (const toml::array* list = node.as_array()) {
        for (const toml::node& item : *list) {
          if (!add(item)) return std::nullopt;
        }
        if (words.empty()) return std::nullopt;
        return words;
      }
      if (type == Type::integer_list || !add(node)) return std::nullopt;
      return words;
    }
  }
  return std::nullopt;
}

// Every combination of the expanded keys' values, each as extra arguments.
std::vector<std::vector<std::string>> combinations(
    const std::vector<std::pair<std::string_view, std::vector<std::string>>>& expanded) {
  std::vector<std::vector<std::string>> result{{}};
  for (const auto& [flag, values] : expanded) {
    std::vector<std::vector<std::string>> next;
    for (const auto& prefix : result) {
      for (const std::string& value : values) {
        auto args = prefix;
        args.emplace_back(flag);
        args.push_back(value);
        next.push_back(std::move(args));
      }
    }
    result = std::move(next);
  }
  return result;
}

std::vector<Invocation> expand_run(const toml::table& run, int index, const std::string& path) {
  const int line = static_cast<int>(run.source().begin.line);
  const std::string at = path + ":" + std::to_string(line);
  const toml::node* kind_node = run.get("kind");
  if (kind_node == nullptr || !kind_node->is_string()) {
    throw UsageError(at + ": [[run]] " + std::to_string(index) +
                     " needs kind = \"alltoall\", \"fft1d\", \"fft2d\" or \"fft3d\"");
  }
  const std::string kind = *kind_node->value<std::string>();
  if (std::find(std::begin(kKinds), std::end(kKinds), kind) == std::end(kKinds)) {
    throw UsageError(where(path, *kind_node) + ": kind = \"" + kind +
                     "\" is not valid; expected alltoall, fft1d, fft2d or fft3d");
  }
  std::vector<std::string> common = {kind};
  std::vector<std::pair<std::string_view, std::vector<std::string>>> expanded;
  std::string label = kind + " " + std::to_string(index);
  for (const auto& [key, node] : run) {
    const KeyRule* rule = find_rule(key.str(), kind);
    if (rule == nullptr) {
      throw UsageError(where(path, node) + ": unknown key '" + std::string(key.str()) + "' in a " +
                       kind + " [[run]]; valid: " + joined(valid_run_keys(kind), ", "));
    }
    const auto words = words_of(node, rule->type);
    if (!words) {
      throw UsageError(where(path, node) + ": " + std::string(key.str()) + " must be " +
                       type_name(rule->type));
    }
    switch (rule->emit) {
      case Emit::deck_only:
        if (rule->key == "name") label = words->front();
        break;
      case Emit::value:
        common.emplace_back(rule->flag);
        common.push_back(words->front());
        break;
      case Emit::if_true:
        if (!words->front().empty()) common.emplace_back(rule->flag);
        break;
      case Emit::repeated:
        for (const std::string& word : *words) {
          common.emplace_back(rule->flag);
          common.push_back(word);
        }
        break;
      case Emit::joined:
        common.emplace_back(rule->flag);
        common.push_back(joined(*words, ","));
        break;
      case Emit::expanded:
        expanded.emplace_back(rule->flag, *words);
        break;
    }
  }
  std::vector<Invocation> invocations;
  for (auto& extra : combinations(expanded)) {
    Invocation invocation{index, line, kind, label, common};
    invocation.args.insert(invocation.args.begin() + 1, extra.begin(), extra.end());
    invocations.push_back(std::move(invocation));
  }
  return invocations;
}

}  // namespace

std::string Invocation::command_line() const {
  std::string text = "a2afft";
  for (const std::string& arg : args) {
    const bool plain = !arg.empty() && std::all_of(arg.begin(), arg.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) ||
             std::string_view("-_.,:=/^*+").find(c) != std::string_view::npos;
    });
    text += " " + (plain ? arg : "'" + arg + "'");
  }
  return text;
}

std::vector<std::string> valid_run_keys(std::string_view kind) {
  std::vector<std::string> keys;
  for (const KeyRule& rule : kRunKeys) {
    if (accepts(rule, kind)) keys.emplace_back(rule.key);
  }
  return keys;
}

Study parse_deck(std::string_view text, const std::string& path) {
  toml::table document;
  try {
    document = toml::parse(text, path);
  } catch (const toml::parse_error& error) {
    throw UsageError(path + ":" + std::to_string(error.source().begin.line) + ": " +
                     std::string(error.description()));
  }
  Study study;
  study.path = path;
  study.name = std::filesystem::path(path).stem().string();
  study.output = "results/" + study.name;
  const toml::array* runs = nullptr;
  for (const auto& [key, node] : document) {
    if (key == "run" && node.is_array_of_tables()) {
      runs = node.as_array();
    } else if (key == "study" && node.is_table()) {
      for (const auto& [study_key, value] : *node.as_table()) {
        if (std::find(std::begin(kStudyKeys), std::end(kStudyKeys), study_key.str()) ==
            std::end(kStudyKeys)) {
          throw UsageError(where(path, value) + ": unknown key '" + std::string(study_key.str()) +
                           "' in [study]; valid: name, output");
        }
        if (!value.is_string()) {
          throw UsageError(where(path, value) + ": " + std::string(study_key.str()) +
                           " must be a string");
        }
        (study_key == "name" ? study.name : study.output) = *value.value<std::string>();
      }
    } else {
      throw UsageError(where(path, node) + ": unknown entry '" + std::string(key.str()) +
                       "'; a deck has a [study] table and [[run]] tables");
    }
  }
  if (runs == nullptr || runs->empty()) {
    throw UsageError(path +
                     ":1: the deck has no [[run]]; add at least one, e.g. [[run]] kind = "
                     "\"alltoall\"");
  }
  int index = 0;
  for (const toml::node& run : *runs) {
    for (Invocation& invocation : expand_run(*run.as_table(), ++index, path))
      study.invocations.push_back(std::move(invocation));
  }
  return study;
}

Study parse_deck_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw UsageError(path + " cannot be read");
  std::stringstream text;
  text << in.rdbuf();
  return parse_deck(text.str(), path);
}

}  // namespace a2afft::deck
