#include "geometry.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <limits>
#include <optional>

#include "copy_bytes.hpp"
#include "error.hpp"

namespace a2afft::detail::fft {

Split split_range(std::size_t n, int parts, int index) {
  const auto p = static_cast<std::size_t>(parts);
  const auto i = static_cast<std::size_t>(index);
  const std::size_t base = n / p;
  const std::size_t extra = n % p;
  return {i * base + std::min(i, extra), base + (i < extra ? 1 : 0)};
}

std::size_t largest_split(std::size_t n, int parts) {
  const auto p = static_cast<std::size_t>(parts);
  return (n + p - 1) / p;
}

void copy_box(const std::byte* from, const Shape3& from_shape, const Shape3& from_offset,
              std::byte* to, const Shape3& to_shape, const Shape3& to_offset, const Shape3& extent,
              std::size_t element_bytes) {
  // Whole rows on both sides make each plane of the box one contiguous run.
  const bool planes = extent[2] == from_shape[2] && extent[2] == to_shape[2];
  const std::size_t rows_per_run = planes ? std::max<std::size_t>(extent[1], 1) : 1;
  const std::size_t run_bytes = extent[2] * rows_per_run * element_bytes;
  if (run_bytes == 0) return;
  for (std::size_t i = 0; i < extent[0]; ++i) {
    for (std::size_t j = 0; j < extent[1]; j += rows_per_run) {
      const std::size_t source =
          ((from_offset[0] + i) * from_shape[1] + from_offset[1] + j) * from_shape[2] +
          from_offset[2];
      const std::size_t target =
          ((to_offset[0] + i) * to_shape[1] + to_offset[1] + j) * to_shape[2] + to_offset[2];
      copy_bytes(to + target * element_bytes, from + source * element_bytes, run_bytes);
    }
  }
}

void copy_box_swapping_leading(const std::byte* from, const Shape3& from_shape,
                               const Shape3& from_offset, std::byte* to, const Shape3& to_shape,
                               const Shape3& to_offset, const Shape3& extent,
                               std::size_t element_bytes) {
  const std::size_t run_bytes = extent[2] * element_bytes;
  if (run_bytes == 0) return;
  for (std::size_t i = 0; i < extent[0]; ++i) {
    for (std::size_t j = 0; j < extent[1]; ++j) {
      const std::size_t source =
          ((from_offset[0] + i) * from_shape[1] + from_offset[1] + j) * from_shape[2] +
          from_offset[2];
      const std::size_t target =
          ((to_offset[0] + j) * to_shape[1] + to_offset[1] + i) * to_shape[2] + to_offset[2];
      copy_bytes(to + target * element_bytes, from + source * element_bytes, run_bytes);
    }
  }
}

ProcGrid near_square_grid(int ranks) {
  int columns = 1;
  for (int candidate = 1; static_cast<long>(candidate) * candidate <= ranks; ++candidate) {
    if (ranks % candidate == 0) columns = candidate;
  }
  return {ranks / columns, columns};
}

namespace {

std::optional<std::size_t> parse_positive(std::string_view text) {
  std::size_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value == 0) return std::nullopt;
  return value;
}

}  // namespace

ProcGrid parse_grid(std::string_view text, int ranks, std::string_view option) {
  const auto x = text.find('x');
  const auto rows = x == std::string_view::npos ? std::nullopt : parse_positive(text.substr(0, x));
  const auto columns =
      x == std::string_view::npos ? std::nullopt : parse_positive(text.substr(x + 1));
  if (!rows || !columns || *rows > static_cast<std::size_t>(ranks) ||
      *columns > static_cast<std::size_t>(ranks)) {
    throw UsageError(std::string(option) + "=" + std::string(text) +
                     " is not valid; expected p0xp1 with p0 * p1 = " + std::to_string(ranks) +
                     ", e.g. " + near_square_grid(ranks).to_string());
  }
  if (*rows * *columns != static_cast<std::size_t>(ranks)) {
    throw UsageError(std::string(option) + "=" + std::string(text) + " has " +
                     std::to_string(*rows * *columns) + " ranks but the job has " +
                     std::to_string(ranks) + "; expected p0xp1 with p0 * p1 = " +
                     std::to_string(ranks) + ", e.g. " + near_square_grid(ranks).to_string());
  }
  return {static_cast<int>(*rows), static_cast<int>(*columns)};
}

Shape3 parse_shape(std::string_view text, std::string_view option) {
  Shape3 shape{};
  std::string_view rest = text;
  int dims = 0;
  while (dims < 3) {
    const auto x = rest.find('x');
    const auto value = parse_positive(rest.substr(0, x));
    if (!value || *value > (std::size_t{1} << 31)) {
      throw UsageError(std::string(option) + "=" + std::string(text) +
                       " is not valid; expected n (a cube) or n0xn1xn2, each from 1 to 2^31");
    }
    shape[static_cast<std::size_t>(dims++)] = *value;
    if (x == std::string_view::npos) break;
    rest.remove_prefix(x + 1);
    if (dims == 3) {
      throw UsageError(std::string(option) + "=" + std::string(text) +
                       " is not valid; expected n (a cube) or n0xn1xn2, each from 1 to 2^31");
    }
  }
  if (dims == 1) return {shape[0], shape[0], shape[0]};
  if (dims != 3) {
    throw UsageError(std::string(option) + "=" + std::string(text) +
                     " is not valid; expected n (a cube) or n0xn1xn2, each from 1 to 2^31");
  }
  return shape;
}

std::string shape_to_string(const Shape3& shape) {
  return std::to_string(shape[0]) + "x" + std::to_string(shape[1]) + "x" + std::to_string(shape[2]);
}

}  // namespace a2afft::detail::fft
