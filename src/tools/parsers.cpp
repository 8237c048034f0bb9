// The parsers of include/a2afft/tools/fft_tools.hpp: sizes, grids, 1D lengths and planning rigor
// as users write them. They live with the tools, not the engines (issue 44): the engines take
// numbers and enums, and a command-line flag is the caller's name for the value, passed in as
// `option`.

#include <a2afft/fft3d.hpp>
#include <a2afft/tools/fft_tools.hpp>

#include <charconv>
#include <optional>
#include <string>

namespace a2afft {
namespace {

constexpr std::size_t kLargestShape = std::size_t{1} << 31;
constexpr std::size_t kLargestLength = std::size_t{1} << 40;

// A whole number of digits only, or nothing.
std::optional<std::size_t> parse_number(std::string_view text) {
  std::size_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

std::optional<std::size_t> parse_positive(std::string_view text) {
  const auto value = parse_number(text);
  if (!value || *value == 0) return std::nullopt;
  return value;
}

// base^exponent, or nothing past kLargestLength.
std::optional<std::size_t> bounded_power(std::size_t base, std::size_t exponent) {
  if (base == 1) return 1;  // 1^e in one step: e can be 2^64 - 1 (found by fuzzing)
  std::size_t value = 1;
  for (std::size_t i = 0; i < exponent; ++i) {
    if (base != 0 && value > kLargestLength / base) return std::nullopt;
    value *= base;
  }
  return value;
}

std::string grid_text(const std::array<int, 2>& grid) {
  return std::to_string(grid[0]) + "x" + std::to_string(grid[1]);
}

}  // namespace

std::array<std::size_t, 3> parse_shape(std::string_view text, std::string_view option) {
  const auto invalid = [&] {
    return UsageError(std::string(option) + "=" + std::string(text) +
                      " is not valid; expected n (a cube) or n0xn1xn2, each from 1 to 2^31");
  };
  std::array<std::size_t, 3> shape{};
  std::string_view rest = text;
  std::size_t dims = 0;
  while (true) {
    const auto x = rest.find('x');
    const auto value = parse_positive(rest.substr(0, x));
    if (!value || *value > kLargestShape || dims == 3) throw invalid();
    shape[dims++] = *value;
    if (x == std::string_view::npos) break;
    rest.remove_prefix(x + 1);
  }
  if (dims == 1) return {shape[0], shape[0], shape[0]};
  if (dims != 3) throw invalid();
  return shape;
}

std::array<int, 2> parse_grid(std::string_view text, int ranks, std::string_view option) {
  const auto x = text.find('x');
  const auto rows = x == std::string_view::npos ? std::nullopt : parse_positive(text.substr(0, x));
  const auto columns =
      x == std::string_view::npos ? std::nullopt : parse_positive(text.substr(x + 1));
  const auto p = static_cast<std::size_t>(ranks);
  const std::string expected = "expected p0xp1 with p0 * p1 = " + std::to_string(ranks) +
                               ", e.g. " + grid_text(Fft3d::default_grid(ranks)) +
                               " (or auto to time the candidate grids)";
  const std::string named = std::string(option) + "=" + std::string(text);
  // Read out as values: GCC 12 took the optionals' reads after the check as maybe-uninitialized.
  const std::size_t p0 = rows.value_or(0), p1 = columns.value_or(0);
  if (p0 == 0 || p1 == 0 || p0 > p || p1 > p) {
    throw UsageError(named + " is not valid; " + expected);
  }
  if (p0 * p1 != p) {
    throw UsageError(named + " has " + std::to_string(p0 * p1) + " ranks but the job has " +
                     std::to_string(ranks) + "; " + expected);
  }
  return {static_cast<int>(p0), static_cast<int>(p1)};
}

std::size_t parse_length(std::string_view text, std::string_view option) {
  const auto invalid = [&] {
    return UsageError(std::string(option) + "=" + std::string(text) +
                      " is not valid; expected a length from 1 to 2^40 such as 1048576, 2^20 or "
                      "2^4*3^2*5");
  };
  std::size_t length = 1;
  std::string_view rest = text;
  while (true) {
    const auto star = rest.find('*');
    const std::string_view factor = rest.substr(0, star);
    const auto caret = factor.find('^');
    const auto base = parse_number(factor.substr(0, caret));
    const auto exponent = caret == std::string_view::npos ? std::optional<std::size_t>(1)
                                                          : parse_number(factor.substr(caret + 1));
    if (!base || !exponent || *base == 0) throw invalid();
    const auto value = bounded_power(*base, *exponent);
    if (!value || length > kLargestLength / *value) throw invalid();
    length *= *value;
    if (star == std::string_view::npos) break;
    rest.remove_prefix(star + 1);
  }
  return length;
}

Rigor parse_rigor(std::string_view text, std::string_view option) {
  if (text == "estimate") return Rigor::estimate;
  if (text == "measure") return Rigor::measure;
  if (text == "patient") return Rigor::patient;
  throw UsageError(std::string(option) + "=" + std::string(text) +
                   " is not valid; expected estimate, measure or patient");
}

}  // namespace a2afft
