#include "params.hpp"

#include <charconv>

#include "error.hpp"

namespace a2afft::detail {

long Params::integer(std::string_view key, long fallback, long low, long high,
                     std::initializer_list<NamedValue> words) const {
  const std::string* text = spec_.find(key);
  if (text == nullptr || *text == "auto") return fallback;
  for (const NamedValue& named : words) {
    if (*text == named.word) return named.value;
  }
  long value = 0;
  const auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (error == std::errc() && end == text->data() + text->size() && value >= low && value <= high) {
    return value;
  }
  std::string valid = "a whole number from " + std::to_string(low) + " to " + std::to_string(high);
  for (const NamedValue& named : words)
    valid += ", or " + std::string(named.word);
  throw UsageError(spec_.name + ": " + std::string(key) + "=" + *text + " is not valid; expected " +
                   valid + ", or auto");
}

namespace {

// `text` if it is one of `valid`; otherwise the UsageError naming backend, key and the choices.
template <typename Choices>
std::string_view one_of(const Spec& spec, std::string_view key, const std::string& text,
                        const Choices& valid) {
  std::string listed;
  for (const auto& choice : valid) {
    if (text == choice) return choice;
    listed += (listed.empty() ? "" : ", ") + std::string(choice);
  }
  throw UsageError(spec.name + ": " + std::string(key) + "=" + text + " is not valid; expected " +
                   (listed.empty() ? std::string("nothing else") : listed) + ", or auto");
}

}  // namespace

std::string_view Params::word(std::string_view key, std::string_view fallback,
                              std::initializer_list<std::string_view> valid) const {
  const std::string* text = spec_.find(key);
  if (text == nullptr || *text == "auto") return fallback;
  return one_of(spec_, key, *text, valid);
}

std::string_view Params::word(std::string_view key, std::string_view fallback,
                              std::span<const std::string> valid) const {
  const std::string* text = spec_.find(key);
  if (text == nullptr || *text == "auto") return fallback;
  return one_of(spec_, key, *text, valid);
}

}  // namespace a2afft::detail
