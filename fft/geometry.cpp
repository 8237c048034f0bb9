#include "geometry.hpp"

#include <algorithm>
#include <cstring>

#include "copy_bytes.hpp"

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

std::string shape_to_string(const Shape3& shape) {
  return std::to_string(shape[0]) + "x" + std::to_string(shape[1]) + "x" + std::to_string(shape[2]);
}

}  // namespace a2afft::detail::fft
