#pragma once

#include <array>
#include <cstddef>
#include <string>

// Boxes, splits and process grids of the distributed FFTs. Pure, no MPI, unit-tested.
namespace a2afft::detail::fft {

/// Global sizes n0 x n1 x n2, row-major (n2 contiguous).
using Shape3 = std::array<std::size_t, 3>;

/// One part of a range split into `parts` near-equal parts: the first n % parts get one more.
/// With more parts than points the last parts are empty (count 0, offset n).
struct Split {
  std::size_t offset;
  std::size_t count;
};
Split split_range(std::size_t n, int parts, int index);
/// The largest part, ceil(n / parts): what uneven splits are padded to.
std::size_t largest_split(std::size_t n, int parts);

/// A range of global indices of a 3D array: where a rank's part starts and its extent in each
/// dimension, whatever order the part is stored in (the plan knows that; the public a2afft::Box3
/// carries it). The engines' own boxes; the public Box3 is made from one where a plan hands a
/// box to the application (src/fft_core.hpp, public_box).
struct BoxRange {
  Shape3 offset{};
  Shape3 extent{};
  std::size_t elements() const { return extent[0] * extent[1] * extent[2]; }
};

/// Copies the sub-box [from_offset, from_offset + extent) of a row-major array of shape
/// `from_shape` to [to_offset, to_offset + extent) of one of shape `to_shape`; each innermost
/// run is one memcpy. `element_bytes` is the size of one element.
void copy_box(const std::byte* from, const Shape3& from_shape, const Shape3& from_offset,
              std::byte* to, const Shape3& to_shape, const Shape3& to_offset, const Shape3& extent,
              std::size_t element_bytes);

/// copy_box, but element (i, j, k) of the box lands at (j, i, k) of `to`: `to_shape` and
/// `to_offset` are in the swapped order. Transposes use it so that the receiver's unpack is a
/// plain copy of long runs.
void copy_box_swapping_leading(const std::byte* from, const Shape3& from_shape,
                               const Shape3& from_offset, std::byte* to, const Shape3& to_shape,
                               const Shape3& to_offset, const Shape3& extent,
                               std::size_t element_bytes);

/// A p0 x p1 process grid; rank r sits at row r / p1, column r % p1.
struct ProcGrid {
  int rows = 1;     // p0, splits dimension 0 (and 1 after the column transpose)
  int columns = 1;  // p1, splits dimension 1 (and 2 after the row transpose)
  bool operator==(const ProcGrid&) const = default;
  std::string to_string() const { return std::to_string(rows) + "x" + std::to_string(columns); }
};

/// The grid with p1 the largest divisor of P not above sqrt(P), so p0 >= p1: 2x1, 2x2, 3x2,
/// 4x2, 3x3... (on 2 ranks: slabs along x, whose first FFTs are contiguous 2D planes).
ProcGrid near_square_grid(int ranks);
std::string shape_to_string(const Shape3& shape);

}  // namespace a2afft::detail::fft
