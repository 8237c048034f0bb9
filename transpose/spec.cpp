#include "spec.hpp"

#include <algorithm>

#include "error.hpp"

namespace a2afft::detail {
namespace {

constexpr std::string_view kGrammar =
    "expected name[:key=value,...], e.g. nonblocking:batch=4 or node-aware:inner=(tra:radix=4)";

[[noreturn]] void fail(std::string_view text, std::string_view why) {
  throw UsageError("bad exchange spec '" + std::string(text) + "': " + std::string(why) + "; " +
                   std::string(kGrammar));
}

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

bool is_word(std::string_view word) {
  return !word.empty() && std::all_of(word.begin(), word.end(), is_word_char);
}

// Splits at commas that are not inside parentheses; throws on unbalanced parentheses.
std::vector<std::string_view> split_top_level(std::string_view whole, std::string_view text) {
  std::vector<std::string_view> items;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '(') ++depth;
    if (text[i] == ')' && --depth < 0) fail(whole, "unbalanced ')'");
    if (text[i] == ',' && depth == 0) {
      items.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  if (depth != 0) fail(whole, "unbalanced '('");
  items.push_back(text.substr(start));
  return items;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && text.front() == ' ')
    text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ')
    text.remove_suffix(1);
  return text;
}

// A value wrapped as a whole in one pair of parentheses loses them: `(tra2:r1=2,r2=4)`.
std::string_view unwrap(std::string_view value) {
  if (value.size() < 2 || value.front() != '(' || value.back() != ')') return value;
  int depth = 0;
  for (std::size_t i = 0; i + 1 < value.size(); ++i) {
    if (value[i] == '(') ++depth;
    if (value[i] == ')') --depth;
    if (depth == 0) return value;  // the first '(' closes before the end: `(a)(b)`
  }
  return value.substr(1, value.size() - 2);
}

bool continues_previous(std::string_view item) {
  const auto equals = item.find('=');
  return equals != std::string_view::npos && equals < item.find(':');
}

}  // namespace

const std::string* Spec::find(std::string_view key) const {
  for (const SpecParam& param : params) {
    if (param.key == key) return &param.value;
  }
  return nullptr;
}

std::string Spec::to_string() const {
  std::string text = name;
  for (std::size_t i = 0; i < params.size(); ++i) {
    const std::string& value = params[i].value;
    // A comma would split the value; a value that is itself wrapped whole would lose its
    // parentheses to unwrap() when parsed back.
    const bool needs_parentheses = value.find(',') != std::string::npos || unwrap(value) != value;
    text += (i == 0 ? ":" : ",") + params[i].key + "=" +
            (needs_parentheses ? "(" + value + ")" : value);
  }
  return text;
}

Spec parse_spec(std::string_view text) {
  const std::string_view whole = trim(text);
  if (whole.empty()) fail(text, "it is empty");
  const auto colon = whole.find(':');
  Spec spec;
  const std::string_view name = whole.substr(0, colon);
  if (!is_word(name)) {
    fail(text, "the name '" + std::string(name) + "' is not a word of a-z, 0-9, '-' and '_'");
  }
  spec.name = std::string(name);
  if (colon == std::string_view::npos) return spec;

  for (std::string_view item : split_top_level(whole, whole.substr(colon + 1))) {
    item = trim(item);
    const auto equals = item.find('=');
    if (equals == std::string_view::npos) {
      fail(text, "'" + std::string(item) + "' is not key=value");
    }
    const std::string_view key = trim(item.substr(0, equals));
    // Trimmed inside the parentheses too: printed back without them, `( x )` must read as `x`.
    const std::string_view value = trim(unwrap(trim(item.substr(equals + 1))));
    if (!is_word(key)) fail(text, "the key '" + std::string(key) + "' is not a word");
    if (value.empty()) fail(text, "the key '" + std::string(key) + "' has no value");
    if (spec.find(key) != nullptr) fail(text, "the key '" + std::string(key) + "' is repeated");
    spec.params.push_back({std::string(key), std::string(value)});
  }
  return spec;
}

std::vector<std::string> split_spec_list(std::string_view text) {
  std::vector<std::string> specs;
  for (std::string_view item : split_top_level(text, text)) {
    item = trim(item);
    if (item.empty()) {
      throw UsageError("bad exchange list '" + std::string(text) +
                       "': it has an empty item; separate specs with single commas");
    }
    if (continues_previous(item)) {
      if (specs.empty()) {
        throw UsageError("bad exchange list '" + std::string(text) + "': '" + std::string(item) +
                         "' has no backend name before it");
      }
      specs.back() += "," + std::string(item);
    } else {
      specs.emplace_back(item);
    }
  }
  return specs;
}

}  // namespace a2afft::detail
