#include "geometry.hpp"

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

namespace a2afft::detail::fft {
namespace {

TEST(Split, parts_cover_the_range_in_order_and_differ_by_at_most_one) {
  for (std::size_t n = 1; n <= 40; ++n) {
    for (int parts = 1; parts <= static_cast<int>(n) + 5; ++parts) {
      std::size_t next = 0;
      for (int i = 0; i < parts; ++i) {
        const Split part = split_range(n, parts, i);
        EXPECT_EQ(part.offset, next);
        EXPECT_GE(part.count, n / parts);
        EXPECT_LE(part.count, largest_split(n, parts));
        next += part.count;
      }
      EXPECT_EQ(next, n);
    }
  }
  EXPECT_EQ(split_range(10, 3, 0).count, 4u);
  EXPECT_EQ(split_range(10, 3, 2).offset, 7u);
}

TEST(ProcGrid, near_square) {
  EXPECT_EQ(near_square_grid(1), (ProcGrid{1, 1}));
  EXPECT_EQ(near_square_grid(2), (ProcGrid{2, 1}));
  EXPECT_EQ(near_square_grid(4), (ProcGrid{2, 2}));
  EXPECT_EQ(near_square_grid(6), (ProcGrid{3, 2}));
  EXPECT_EQ(near_square_grid(7), (ProcGrid{7, 1}));
  EXPECT_EQ(near_square_grid(12), (ProcGrid{4, 3}));
}

// A grid may split a range into more parts than it has points (issue 19): the last parts are
// empty, at the end of the range.
TEST(Split, more_parts_than_points_leaves_the_last_parts_empty_at_the_end) {
  EXPECT_EQ(split_range(3, 4, 2).count, 1u);
  EXPECT_EQ(split_range(3, 4, 3).count, 0u);
  EXPECT_EQ(split_range(3, 4, 3).offset, 3u);
  EXPECT_EQ(split_range(1, 2, 1).offset, 1u);
  EXPECT_EQ(largest_split(3, 8), 1u);
}

TEST(CopyBox, whole_rows_copy_as_planes) {
  std::vector<int> from(2 * 3 * 4);
  std::iota(from.begin(), from.end(), 0);  // from[i][j][k] = 12i + 4j + k
  std::vector<int> to(2 * 5 * 4, -1);
  // Rows 1..2 of each plane into rows 3..4 of a taller array: whole rows on both sides.
  copy_box(reinterpret_cast<const std::byte*>(from.data()), {2, 3, 4}, {0, 1, 0},
           reinterpret_cast<std::byte*>(to.data()), {2, 5, 4}, {0, 3, 0}, {2, 2, 4}, sizeof(int));
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 5; ++j) {
      for (int k = 0; k < 4; ++k) {
        const int expected = j >= 3 ? 12 * i + 4 * (j - 2) + k : -1;
        EXPECT_EQ(to[static_cast<std::size_t>((i * 5 + j) * 4 + k)], expected) << i << j << k;
      }
    }
  }
}

TEST(CopyBox, swapping_the_leading_axes) {
  std::vector<int> from(2 * 3 * 2);
  std::iota(from.begin(), from.end(), 0);  // from[i][j][k] = 6i + 2j + k
  std::vector<int> to(3 * 2 * 2, -1);
  copy_box_swapping_leading(reinterpret_cast<const std::byte*>(from.data()), {2, 3, 2}, {0, 0, 0},
                            reinterpret_cast<std::byte*>(to.data()), {3, 2, 2}, {0, 0, 0},
                            {2, 3, 2}, sizeof(int));
  EXPECT_EQ(to, (std::vector<int>{0, 1, 6, 7, 2, 3, 8, 9, 4, 5, 10, 11}));
}

TEST(CopyBox, moves_a_sub_box_between_shapes) {
  const Shape3 from_shape{3, 4, 5};
  std::vector<int> from(60);
  std::iota(from.begin(), from.end(), 0);
  std::vector<int> to(2 * 2 * 3, -1);
  copy_box(reinterpret_cast<const std::byte*>(from.data()), from_shape, {1, 2, 1},
           reinterpret_cast<std::byte*>(to.data()), {2, 2, 3}, {0, 0, 0}, {2, 2, 3}, sizeof(int));
  // from[i][j][k] = i*20 + j*5 + k, box starting at (1, 2, 1).
  EXPECT_EQ(to, (std::vector<int>{31, 32, 33, 36, 37, 38, 51, 52, 53, 56, 57, 58}));
}

}  // namespace
}  // namespace a2afft::detail::fft
