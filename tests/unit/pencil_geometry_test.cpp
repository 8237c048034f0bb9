#include "pencil_geometry.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <vector>

#include "error.hpp"

namespace a2afft::detail::fft {
namespace {

constexpr std::size_t kComplexBytes = sizeof(std::complex<double>);

// Even and uneven splits, cubes and slabs of one point, primes, a single point.
const Shape3 kShapes[] = {{8, 8, 8},  {17, 5, 3},  {1, 1, 7}, {7, 1, 1}, {5, 7, 9}, {6, 4, 10},
                          {3, 10, 2}, {12, 12, 5}, {2, 3, 4}, {1, 6, 6}, {3, 2, 5}, {1, 1, 1}};

// Every grid of at most 12 ranks, p0 = 1 and p1 = 1 slabs included; where it has more parts
// than a dimension has points, some ranks' boxes are empty.
std::vector<ProcGrid> every_grid() {
  std::vector<ProcGrid> grids;
  for (int rows = 1; rows <= 12; ++rows) {
    for (int columns = 1; rows * columns <= 12; ++columns)
      grids.push_back({rows, columns});
  }
  return grids;
}

std::vector<PencilGeometry> all_ranks(const Shape3& shape, const ProcGrid& grid,
                                      PencilOutput output = PencilOutput::transposed,
                                      const Shape3& physical = {}) {
  std::vector<PencilGeometry> ranks;
  for (int rank = 0; rank < grid.rows * grid.columns; ++rank)
    ranks.emplace_back(shape, grid, rank, output, physical);
  return ranks;
}

// Calls check(geometries of all ranks) for every shape and grid, and makes sure there were many,
// with empty boxes among them.
template <typename Check>
void for_every_case(Check check) {
  int cases = 0;
  int with_empty_boxes = 0;
  for (const Shape3& shape : kShapes) {
    for (const ProcGrid& grid : every_grid()) {
      SCOPED_TRACE(shape_to_string(shape) + " on " + grid.to_string());
      const std::vector<PencilGeometry> ranks = all_ranks(shape, grid);
      check(ranks);
      ++cases;
      with_empty_boxes += std::any_of(ranks.begin(), ranks.end(), [](const PencilGeometry& rank) {
        return rank.input_box().elements() == 0 || rank.output_box().elements() == 0;
      });
    }
  }
  EXPECT_GT(cases, 60);
  EXPECT_GT(with_empty_boxes, 30);
}

std::size_t global_index(const Shape3& shape, const Shape3& point) {
  return (point[0] * shape[1] + point[1]) * shape[2] + point[2];
}

// Calls visit(point) for every point of the box.
template <typename Visit>
void for_each_point(const BoxRange& box, Visit visit) {
  for (std::size_t i = 0; i < box.extent[0]; ++i) {
    for (std::size_t j = 0; j < box.extent[1]; ++j) {
      for (std::size_t k = 0; k < box.extent[2]; ++k)
        visit(Shape3{box.offset[0] + i, box.offset[1] + j, box.offset[2] + k});
    }
  }
}

std::size_t overlap(const BoxRange& a, const BoxRange& b) {
  std::size_t elements = 1;
  for (std::size_t d = 0; d < 3; ++d) {
    const std::size_t begin = std::max(a.offset[d], b.offset[d]);
    const std::size_t end = std::min(a.offset[d] + a.extent[d], b.offset[d] + b.extent[d]);
    elements *= end > begin ? end - begin : 0;
  }
  return elements;
}

TEST(PencilGeometry, boxes_of_all_ranks_tile_the_global_array_once_at_every_stage) {
  for_every_case([](const std::vector<PencilGeometry>& ranks) {
    const Shape3& shape = ranks.front().shape();
    for (std::size_t stage = 0; stage < 3; ++stage) {
      std::vector<int> owners(shape[0] * shape[1] * shape[2], 0);
      for (const PencilGeometry& rank : ranks) {
        for_each_point(rank.stage(stage).box,
                       [&](const Shape3& point) { ++owners[global_index(shape, point)]; });
      }
      EXPECT_TRUE(std::all_of(owners.begin(), owners.end(), [](int n) { return n == 1; }))
          << "stage " << stage;
    }
  });
}

// The stage's FFTs walk every stored element once, each transform loop along the stage's FFT
// axis (z, y, x; z and y in one 2D plan without a row transpose) over the whole axis.
TEST(PencilGeometry, plane_table_walks_each_stored_element_once_along_the_fft_axis) {
  for_every_case([](const std::vector<PencilGeometry>& ranks) {
    const Shape3& shape = ranks.front().shape();
    for (const PencilGeometry& rank : ranks) {
      for (std::size_t index = 0; index < 3; ++index) {
        const PencilStage& stage = rank.stage(index);
        // Where each global point is stored: every offset below the stage's size, once.
        const std::size_t elements = stage.box.elements();
        if (elements == 0) {  // nothing to walk: some loop is empty (Pencil3d plans no FFT)
          bool some_loop_empty = stage.planes == 0;
          for (const Loop& loop : stage.batches)
            some_loop_empty = some_loop_empty || loop.count == 0;
          EXPECT_TRUE(some_loop_empty) << "stage " << index;
          continue;
        }
        std::vector<Shape3> point_at(elements);
        std::vector<int> stored(elements, 0);
        for_each_point(stage.box, [&](const Shape3& point) {
          const std::size_t offset = stage.local_offset(point);
          ASSERT_LT(offset, elements);
          ++stored[offset];
          point_at[offset] = point;
        });
        ASSERT_TRUE(std::all_of(stored.begin(), stored.end(), [](int n) { return n == 1; }));

        const std::vector<std::size_t> axes = index == 0   ? rank.has_row_transpose()
                                                                 ? std::vector<std::size_t>{2}
                                                                 : std::vector<std::size_t>{1, 2}
                                                : index == 1 ? std::vector<std::size_t>{1}
                                                           : std::vector<std::size_t>{0};
        ASSERT_EQ(stage.transform.size(), axes.size()) << "stage " << index;
        // The loops, outermost first: planes, then the transform, then the batches.
        std::vector<Loop> loops{{stage.planes, stage.plane_stride}};
        loops.insert(loops.end(), stage.transform.begin(), stage.transform.end());
        loops.insert(loops.end(), stage.batches.begin(), stage.batches.end());
        for (std::size_t t = 0; t < axes.size(); ++t)
          EXPECT_EQ(stage.transform[t].count, shape[axes[t]]) << "stage " << index;

        std::vector<int> walked(elements, 0);
        std::vector<std::size_t> at(loops.size(), 0);  // an odometer over the loops
        while (true) {
          std::size_t offset = 0;
          for (std::size_t l = 0; l < loops.size(); ++l)
            offset += at[l] * loops[l].stride;
          ASSERT_LT(offset, elements) << "stage " << index;
          ++walked[offset];
          for (std::size_t t = 0; t < axes.size(); ++t) {
            if (at[1 + t] + 1 == stage.transform[t].count) continue;
            Shape3 next = point_at[offset];
            ++next[axes[t]];
            EXPECT_EQ(point_at[offset + stage.transform[t].stride], next) << "stage " << index;
          }
          std::size_t l = loops.size();
          while (l > 0 && ++at[l - 1] == loops[l - 1].count)
            at[--l] = 0;
          if (l == 0) break;
        }
        EXPECT_TRUE(std::all_of(walked.begin(), walked.end(), [](int n) { return n == 1; }))
            << "stage " << index;
      }
    }
  });
}

// A transpose's part from one rank to another is where the sender's box before it meets the
// receiver's box after it; the exchange's uniform block is the largest such part in the row
// (or column), the same on each of its ranks, and at least one element where they hold nothing.
TEST(PencilGeometry, block_bytes_are_the_largest_part_sent_in_the_row_or_column) {
  for_every_case([](const std::vector<PencilGeometry>& ranks) {
    for (const PencilGeometry& rank : ranks) {
      std::size_t row_part = 0;
      std::size_t column_part = 0;
      for (const PencilGeometry& from : ranks) {
        for (const PencilGeometry& to : ranks) {
          if (from.row() == rank.row() && to.row() == rank.row()) {
            row_part = std::max(row_part, overlap(from.stage(0).box, to.stage(1).box));
          }
          if (from.column() == rank.column() && to.column() == rank.column()) {
            column_part = std::max(column_part, overlap(from.stage(1).box, to.stage(2).box));
          }
        }
      }
      row_part = std::max<std::size_t>(row_part, 1);
      column_part = std::max<std::size_t>(column_part, 1);
      EXPECT_EQ(rank.row_block_bytes(), rank.has_row_transpose() ? row_part * kComplexBytes : 0);
      EXPECT_EQ(rank.column_block_bytes(),
                rank.has_column_transpose() ? column_part * kComplexBytes : 0);
      EXPECT_EQ(rank.row_transpose().block_elements(), row_part);
      EXPECT_EQ(rank.column_transpose().block_elements(), column_part);
    }
  });
}

TEST(PencilGeometry, transposes_join_consecutive_stages_and_invert) {
  for_every_case([](const std::vector<PencilGeometry>& ranks) {
    for (const PencilGeometry& rank : ranks) {
      const TransposeShape& row = rank.row_transpose();
      const TransposeShape& column = rank.column_transpose();
      EXPECT_EQ(row.from, rank.stage(0).stored_extent());
      EXPECT_EQ(row.to, rank.stage(1).stored_extent());
      EXPECT_EQ(row.parts, rank.grid().columns);
      EXPECT_EQ(column.from, rank.stage(1).stored_extent());
      EXPECT_EQ(column.to, rank.stage(2).stored_extent());
      EXPECT_EQ(column.parts, rank.grid().rows);
      // p0 = 1: the column "transpose" is the local reorder into a y-major stage 2, if any.
      EXPECT_EQ(column.swap_leading, rank.stage(2).y_major);
      for (const TransposeShape* there : {&row, &column}) {
        const TransposeShape back = there->inverse();
        EXPECT_EQ(back.from, there->to);
        EXPECT_EQ(back.to, there->from);
        EXPECT_EQ(back.split_axis, there->gather_axis);
        EXPECT_EQ(back.split_length, there->gather_length);
        EXPECT_EQ(back.block_elements(), there->block_elements());
        EXPECT_EQ(back.inverse().from, there->from);
      }
    }
  });
}

TEST(PencilGeometry, buffers_hold_the_larger_exchange_and_data_the_largest_stage) {
  for_every_case([](const std::vector<PencilGeometry>& ranks) {
    for (const PencilGeometry& rank : ranks) {
      const auto blocks = [](std::size_t bytes, int parts) {
        return bytes / kComplexBytes * static_cast<std::size_t>(parts);
      };
      EXPECT_EQ(rank.buffer_elements(),
                std::max(blocks(rank.row_block_bytes(), rank.grid().columns),
                         blocks(rank.column_block_bytes(), rank.grid().rows)));
      for (std::size_t stage = 0; stage < 3; ++stage)
        EXPECT_GE(rank.data_elements(), rank.stage(stage).box.elements());
      EXPECT_TRUE(rank.data_elements() == rank.stage(0).box.elements() ||
                  rank.data_elements() == rank.stage(1).box.elements() ||
                  rank.data_elements() == rank.stage(2).box.elements());
    }
  });
}

// Transposed output is y-major on every grid: with p0 = 1 by a local reorder into stage 2
// (transposes_locally), unless the plan is padded or x has one point (a 2D transform).
TEST(PencilGeometry, output_stays_transposed_y_major_unless_natural_is_asked) {
  for (const ProcGrid grid : {ProcGrid{2, 3}, ProcGrid{1, 3}, ProcGrid{3, 1}, ProcGrid{1, 1}}) {
    for (const PencilGeometry& rank : all_ranks({6, 7, 8}, grid)) {
      EXPECT_EQ(rank.output_box().offset, rank.stage(2).box.offset);
      EXPECT_EQ(rank.output_box().extent, rank.stage(2).box.extent);
      EXPECT_TRUE(rank.output_is_y_major());
      EXPECT_EQ(rank.transposes_locally(), grid.rows == 1);
      EXPECT_EQ(rank.output_box().extent[0], 6u);  // all of x
    }
    for (const PencilGeometry& rank :
         all_ranks({6, 7, 8}, grid, PencilOutput::transposed, {9, 7, 8})) {
      EXPECT_EQ(rank.output_is_y_major(), grid.rows > 1) << "padded";
      EXPECT_FALSE(rank.transposes_locally());
    }
    for (const PencilGeometry& rank : all_ranks({1, 7, 8}, grid)) {
      EXPECT_EQ(rank.output_is_y_major(), grid.rows > 1) << "x of one point";
      EXPECT_FALSE(rank.transposes_locally());
    }
    for (const PencilGeometry& rank : all_ranks({6, 7, 8}, grid, PencilOutput::natural)) {
      EXPECT_EQ(rank.output_box().offset, rank.input_box().offset);
      EXPECT_EQ(rank.output_box().extent, rank.input_box().extent);
      EXPECT_FALSE(rank.output_is_y_major());
      EXPECT_EQ(rank.input_box().extent[2], 8u);  // all of z
    }
  }
}

TEST(PencilGeometry, spot_values_of_17x5x3_on_a_3x2_grid) {
  const PencilGeometry first({17, 5, 3}, {3, 2}, 0);
  EXPECT_EQ(first.row_block_bytes(), 6 * 3 * 2 * kComplexBytes);     // 17/3, 5/2, 3/2 rounded up
  EXPECT_EQ(first.column_block_bytes(), 6 * 2 * 2 * kComplexBytes);  // 17/3, 5/3 up; z part 2
  EXPECT_EQ(first.buffer_elements(), 72u);                           // max(36 x 2, 24 x 3)
  EXPECT_EQ(first.data_elements(), 68u);                             // 17 x 2 x 2 after the column
  const PencilGeometry last({17, 5, 3}, {3, 2}, 5);                  // row 2, column 1
  EXPECT_EQ(last.input_box().offset, (Shape3{12, 3, 0}));
  EXPECT_EQ(last.input_box().extent, (Shape3{5, 2, 3}));
  EXPECT_EQ(last.output_box().offset, (Shape3{0, 4, 2}));
  EXPECT_EQ(last.output_box().extent, (Shape3{17, 1, 1}));
  EXPECT_EQ(last.row_block_bytes(), 5 * 3 * 2 * kComplexBytes);
  EXPECT_EQ(last.column_block_bytes(), 6 * 2 * 1 * kComplexBytes);
  EXPECT_TRUE(last.output_is_y_major());
}

TEST(PencilGeometry, slabs_have_one_transpose_and_a_2d_plan_when_p1_is_one) {
  const PencilGeometry slab({4, 6, 5}, {2, 1}, 1);
  EXPECT_FALSE(slab.has_row_transpose());
  EXPECT_EQ(slab.row_block_bytes(), 0u);
  EXPECT_EQ(slab.stage(0).transform.size(), 2u);
  EXPECT_TRUE(slab.stage(0).batches.empty());
  const PencilGeometry pencils({4, 6, 5}, {1, 2}, 1);
  EXPECT_FALSE(pencils.has_column_transpose());
  EXPECT_EQ(pencils.column_block_bytes(), 0u);
  EXPECT_TRUE(pencils.output_is_y_major());  // reordered locally, no exchange
  EXPECT_TRUE(pencils.transposes_locally());
  const PencilGeometry single({1, 1, 7}, {1, 1}, 0);
  EXPECT_EQ(single.buffer_elements(), 0u);
  EXPECT_EQ(single.data_elements(), 7u);
}

// auto times an exchange without its own block only where the plan always leaves it: where
// every sweep that packs for it unpacks nothing. Slabs with transposed output, and 1xP slabs
// with natural output too (the y stage computes apart from the unpack); Px1 natural output and
// a 2D grid also pack for each exchange in a sweep that unpacks, so never there.
TEST(PencilGeometry, own_block_is_left_to_the_pack_only_where_no_packing_sweep_unpacks) {
  const auto left = [](const ProcGrid& grid, PencilOutput output) {
    return pencil_own_block_left(PencilGeometry({8, 6, 5}, grid, 0, output));
  };
  constexpr std::array<bool, 2> kNone{false, false};
  constexpr std::array<bool, 2> kRow{true, false};
  constexpr std::array<bool, 2> kColumn{false, true};
  EXPECT_EQ(left({2, 1}, PencilOutput::transposed), kColumn);
  EXPECT_EQ(left({1, 3}, PencilOutput::transposed), kRow);
  EXPECT_EQ(left({2, 2}, PencilOutput::transposed), kNone);
  EXPECT_EQ(left({1, 1}, PencilOutput::transposed), kNone);
  EXPECT_EQ(left({2, 1}, PencilOutput::natural), kNone);
  EXPECT_EQ(left({1, 3}, PencilOutput::natural), kRow);
  EXPECT_EQ(left({2, 2}, PencilOutput::natural), kNone);
}

TEST(PencilGeometry, refuses_a_rank_outside_the_grid) {
  try {
    PencilGeometry({8, 8, 8}, {2, 2}, 4);
    ADD_FAILURE() << "rank 4 of a 2x2 grid was accepted";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("rank 4 is not in the 2x2 grid; expected 0 to 3"),
              std::string::npos)
        << error.what();
  }
  EXPECT_THROW(PencilGeometry({8, 8, 8}, {2, 2}, -1), UsageError);
}

// Grids with more parts than points (issue 19) leave ranks empty instead of being refused:
// 3x2x5 on 4x2 (row 3 holds no x), 1x1x1 on 2x1, 1x1x7 on 1x2 (column 1 holds no y).
TEST(PencilGeometry, spot_values_of_grids_wider_than_the_data) {
  const PencilGeometry idle({3, 2, 5}, {4, 2}, 7);  // row 3, column 1
  EXPECT_EQ(idle.input_box().elements(), 0u);
  EXPECT_EQ(idle.input_box().offset[0], 3u);
  EXPECT_EQ(idle.output_box().elements(), 0u);  // y split over 4 rows: row 3 gets none
  EXPECT_EQ(idle.data_elements(), 0u);
  EXPECT_EQ(idle.row_block_bytes(), kComplexBytes);         // one element: its row holds nothing
  EXPECT_EQ(idle.column_block_bytes(), 2 * kComplexBytes);  // 1 x 1 x z part 2
  const PencilGeometry busy({3, 2, 5}, {4, 2}, 0);
  EXPECT_EQ(busy.input_box().extent, (Shape3{1, 1, 5}));
  EXPECT_EQ(busy.row_block_bytes(), 3 * kComplexBytes);  // 1 x 1 x 5/2 rounded up
  const PencilGeometry second({1, 1, 1}, {2, 1}, 1);
  EXPECT_EQ(second.input_box().elements(), 0u);
  EXPECT_EQ(second.column_block_bytes(), kComplexBytes);
  const PencilGeometry line({1, 1, 7}, {1, 2}, 1);
  EXPECT_EQ(line.input_box().elements(), 0u);
  EXPECT_EQ(line.output_box().extent, (Shape3{1, 1, 3}));  // z part 1 of 7 over 2
}

}  // namespace
}  // namespace a2afft::detail::fft
