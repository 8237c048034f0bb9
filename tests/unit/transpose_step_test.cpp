#include "transpose_step.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "pencil_geometry.hpp"

// Every rank of a pencil grid in one process: each packs its array into blocks, the test moves
// the blocks as an all-to-all would, each unpacks, and every element must be where the next
// stage's box says, for even and uneven splits, the x-major row transpose and the column
// transpose into y-major storage, both directions.
namespace a2afft::detail::fft {
namespace {

// As large as a complex double; the payload names the global element (0 is padding).
struct Element {
  std::uint64_t index = 0;
  std::uint64_t check = 0;  // ~index, so a half-copied element shows
  bool operator==(const Element&) const = default;
};
constexpr std::size_t kElementBytes = sizeof(Element);
static_assert(kElementBytes == 16);

using Array = std::vector<Element>;

std::byte* bytes(Array& array) {
  return reinterpret_cast<std::byte*>(array.data());
}

// A rank's array at a stage: each global element, numbered from 1, at its stored place.
Array stage_array(const PencilStage& stage, const Shape3& shape) {
  Array array(stage.box.elements());
  const BoxRange& box = stage.box;
  for (std::size_t i = 0; i < box.extent[0]; ++i) {
    for (std::size_t j = 0; j < box.extent[1]; ++j) {
      for (std::size_t k = 0; k < box.extent[2]; ++k) {
        const Shape3 point{box.offset[0] + i, box.offset[1] + j, box.offset[2] + k};
        const std::uint64_t index = (point[0] * shape[1] + point[1]) * shape[2] + point[2] + 1;
        array[stage.local_offset(point)] = {index, ~index};
      }
    }
  }
  return array;
}

enum class Which { row, column };

struct Case {
  Shape3 shape;
  ProcGrid grid;
};
// Uneven splits on both axes of each transpose, even ones, slabs both ways, a single rank, and
// grids with more parts than points, whose empty ranks still exchange (one-element blocks).
const Case kCases[] = {{{17, 5, 3}, {3, 2}}, {{17, 5, 3}, {2, 3}}, {{8, 8, 8}, {2, 2}},
                       {{6, 4, 10}, {3, 4}}, {{5, 7, 9}, {4, 1}},  {{5, 7, 9}, {1, 4}},
                       {{1, 6, 6}, {1, 5}},  {{2, 3, 4}, {1, 1}},  {{3, 2, 5}, {4, 2}},
                       {{1, 1, 1}, {2, 1}},  {{2, 1, 1}, {3, 1}},  {{1, 1, 7}, {2, 4}},
                       {{17, 5, 3}, {1, 4}}};

// One transpose on all ranks; `own_in_place` packs each rank's own block straight into its
// receive buffer and leaves it out of the exchange, as Pencil3d does for exchanges that allow it.
void check_transpose(const Case& c, Which which, bool back, bool own_in_place) {
  SCOPED_TRACE(shape_to_string(c.shape) + " on " + c.grid.to_string() +
               (which == Which::row ? " row" : " column") + (back ? " back" : "") +
               (own_in_place ? ", own block in place" : ""));
  std::vector<PencilGeometry> ranks;
  for (int rank = 0; rank < c.grid.rows * c.grid.columns; ++rank)
    ranks.emplace_back(c.shape, c.grid, rank);
  const std::size_t first = which == Which::row ? 0 : 1;  // the stage before the transpose
  const std::size_t from_stage = back ? first + 1 : first;
  const std::size_t to_stage = back ? first : first + 1;
  // A rank's index in its row (column) exchange, and the rank at index j there.
  const auto index_of = [&](const PencilGeometry& rank) {
    return which == Which::row ? rank.column() : rank.row();
  };
  const auto member = [&](const PencilGeometry& rank, int j) {
    return static_cast<std::size_t>(which == Which::row ? rank.row() * c.grid.columns + j
                                                        : j * c.grid.columns + rank.column());
  };

  std::vector<TransposeStep> steps;
  std::vector<Array> send, recv;
  for (const PencilGeometry& rank : ranks) {
    const TransposeShape& there =
        which == Which::row ? rank.row_transpose() : rank.column_transpose();
    steps.emplace_back(back ? there.inverse() : there);
    send.emplace_back(steps.back().buffer_elements());
    recv.emplace_back(steps.back().buffer_elements());
  }
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    Array before = stage_array(ranks[r].stage(from_stage), c.shape);
    ASSERT_EQ(steps[r].shape().from, ranks[r].stage(from_stage).stored_extent());
    for (std::size_t plane = 0; plane < steps[r].shape().from[0]; ++plane) {
      steps[r].pack(bytes(before), bytes(send[r]), plane, kElementBytes,
                    own_in_place ? index_of(ranks[r]) : -1, bytes(recv[r]));
    }
  }
  const int parts = steps.front().shape().parts;
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    const std::size_t block = steps[r].block_elements();
    for (int j = 0; j < parts; ++j) {
      if (own_in_place && j == index_of(ranks[r])) continue;
      const std::size_t source = member(ranks[r], j);
      ASSERT_EQ(steps[source].block_elements(), block);  // uniform over the exchange
      std::memcpy(recv[r].data() + static_cast<std::size_t>(j) * block,
                  send[source].data() + static_cast<std::size_t>(index_of(ranks[r])) * block,
                  block * kElementBytes);
    }
  }
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    const PencilStage& target = ranks[r].stage(to_stage);
    ASSERT_EQ(steps[r].shape().to, target.stored_extent());
    Array after(target.box.elements());
    for (std::size_t plane = 0; plane < steps[r].shape().to[0]; ++plane)
      steps[r].unpack(bytes(recv[r]), bytes(after), plane, kElementBytes);
    EXPECT_EQ(after, stage_array(target, c.shape)) << "rank " << r;
  }
}

TEST(TransposeStep, row_transpose_trades_y_for_z_on_every_rank_and_back) {
  for (const Case& c : kCases) {
    check_transpose(c, Which::row, false, false);
    check_transpose(c, Which::row, true, false);
  }
}

TEST(TransposeStep, column_transpose_trades_x_for_y_into_y_major_storage_and_back) {
  for (const Case& c : kCases) {
    check_transpose(c, Which::column, false, false);
    check_transpose(c, Which::column, true, false);
  }
}

TEST(TransposeStep, own_block_packed_straight_into_the_receive_buffer_gives_the_same_result) {
  for (const Case& c : kCases) {
    for (const Which which : {Which::row, Which::column}) {
      check_transpose(c, which, false, true);
      check_transpose(c, which, true, true);
    }
  }
}

// Packing writes each block's part and nothing else: the padding of uneven splits keeps what
// the buffer held.
TEST(TransposeStep, packing_fills_exactly_each_part_and_leaves_the_padding) {
  const PencilGeometry rank({17, 5, 3}, {3, 2}, 3);  // row 1, column 1: smaller y and z parts
  for (const TransposeShape& shape : {rank.row_transpose(), rank.column_transpose()}) {
    const TransposeStep step(shape);
    const std::size_t block = step.block_elements();
    EXPECT_EQ(block, shape.block_elements());
    Array from(shape.from[0] * shape.from[1] * shape.from[2], Element{7, ~std::uint64_t{7}});
    Array send(step.buffer_elements());
    for (std::size_t plane = 0; plane < shape.from[0]; ++plane)
      step.pack(bytes(from), bytes(send), plane, kElementBytes);
    std::size_t written = 0;
    for (int j = 0; j < shape.parts; ++j) {
      const std::size_t part = shape.from[0] * shape.from[1] * shape.from[2] /
                               shape.from[static_cast<std::size_t>(shape.split_axis)] *
                               split_range(shape.split_length, shape.parts, j).count;
      std::size_t filled = 0;
      for (std::size_t e = 0; e < block; ++e)
        filled += send[static_cast<std::size_t>(j) * block + e].index == 7 ? 1 : 0;
      EXPECT_EQ(filled, part) << "block " << j;
      written += filled;
    }
    EXPECT_EQ(written, from.size());
    EXPECT_LT(written, step.buffer_elements());  // this rank's parts are not the largest
  }
}

}  // namespace
}  // namespace a2afft::detail::fft
