// The reshape between two decompositions, in one process: intersections, the tiling check's
// messages, and a whole exchange among P simulated ranks (each packs, the parts are handed over
// as MPI_Alltoallv would, each unpacks) that must put every point of the global array, encoded
// by its global index, where its destination box stores it: bricks, pencils and slabs, storage
// orders, empty boxes.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "reshape_geometry.hpp"

namespace {

using a2afft::detail::fft::intersection;
using a2afft::detail::fft::ReshapeGeometry;
using a2afft::detail::fft::Shape3;
using a2afft::detail::fft::tiling_problem;
using Box = a2afft::Box3;

using Index = std::array<std::size_t, 3>;

std::uint64_t global_index(const Shape3& shape, const Index& at) {
  return (at[0] * shape[1] + at[1]) * shape[2] + at[2];
}

template <typename Visit>
void for_each_point(const Box& box, Visit visit) {
  for (std::size_t i = box.lower[0]; i < box.lower[0] + box.size[0]; ++i)
    for (std::size_t j = box.lower[1]; j < box.lower[1] + box.size[1]; ++j)
      for (std::size_t k = box.lower[2]; k < box.lower[2] + box.size[2]; ++k)
        visit(Index{i, j, k});
}

// A g0 x g1 x g2 grid of bricks over `shape` (near-equal parts), all stored in `order`.
std::vector<Box> bricks(const Shape3& shape, const std::array<int, 3>& grid,
                        const std::array<int, 3>& order = {0, 1, 2}) {
  std::vector<Box> boxes;
  for (int a = 0; a < grid[0]; ++a)
    for (int b = 0; b < grid[1]; ++b)
      for (int c = 0; c < grid[2]; ++c) {
        Box box;
        const std::array<int, 3> index{a, b, c};
        for (std::size_t d = 0; d < 3; ++d) {
          const auto part = a2afft::detail::fft::split_range(shape[d], grid[d], index[d]);
          box.lower[d] = part.offset;
          box.size[d] = part.count;
        }
        box.order = order;
        boxes.push_back(box);
      }
  return boxes;
}

// Every rank packs, the parts travel as MPI_Alltoallv would move them, every rank unpacks; each
// destination must then hold the global index of each of its points.
void expect_reshape_moves_every_point(const Shape3& shape, const std::vector<Box>& from,
                                      const std::vector<Box>& to) {
  ASSERT_EQ(tiling_problem(shape, from, "input"), "");
  ASSERT_EQ(tiling_problem(shape, to, "output"), "");
  const std::size_t ranks = from.size();
  constexpr std::size_t bytes = sizeof(std::uint64_t);
  std::vector<ReshapeGeometry> plans;
  std::vector<std::vector<std::uint64_t>> sent(ranks);
  for (std::size_t r = 0; r < ranks; ++r) {
    plans.emplace_back(shape, from, to, int(r));
    std::vector<std::uint64_t> source(from[r].elements());
    for_each_point(from[r], [&](const Index& at) {
      source[from[r].local_index(at)] = global_index(shape, at);
    });
    sent[r].resize(plans[r].send_total());
    plans[r].pack(reinterpret_cast<const std::byte*>(source.data()),
                  reinterpret_cast<std::byte*>(sent[r].data()), bytes);
  }
  for (std::size_t r = 0; r < ranks; ++r) {
    // What rank r receives from each peer p: p's part for r, peers in rank order.
    std::vector<std::uint64_t> received;
    for (std::size_t p = 0; p < ranks; ++p) {
      ASSERT_EQ(plans[p].send_points()[r], plans[r].recv_points()[p]) << p << " -> " << r;
      std::size_t start = 0;
      for (std::size_t q = 0; q < r; ++q)
        start += plans[p].send_points()[q];
      received.insert(received.end(), sent[p].begin() + long(start),
                      sent[p].begin() + long(start + plans[p].send_points()[r]));
    }
    std::vector<std::uint64_t> destination(to[r].elements(), ~0ULL);
    plans[r].unpack(reinterpret_cast<const std::byte*>(received.data()),
                    reinterpret_cast<std::byte*>(destination.data()), bytes);
    long wrong = 0;
    for_each_point(to[r], [&](const Index& at) {
      wrong += destination[to[r].local_index(at)] == global_index(shape, at) ? 0 : 1;
    });
    EXPECT_EQ(wrong, 0) << "rank " << r << " of " << ranks;
  }
}

// The engine's kind of pencils: x split over p0, y over p1, all of z, row-major.
std::vector<Box> pencils(const Shape3& shape, int p0, int p1) {
  return bricks(shape, {p0, p1, 1});
}

TEST(ReshapeGeometry, intersections) {
  const Box a{{0, 2, 4}, {4, 4, 4}};
  const Box b{{2, 0, 6}, {4, 4, 4}};
  const Box both = intersection(a, b);
  EXPECT_EQ(both.lower, (std::array<std::size_t, 3>{2, 2, 6}));
  EXPECT_EQ(both.size, (std::array<std::size_t, 3>{2, 2, 2}));
  EXPECT_EQ(intersection(a, Box{{4, 0, 0}, {1, 1, 1}}).elements(), 0u);
  EXPECT_EQ(intersection(a, Box{{1, 1, 1}, {0, 5, 5}}).elements(), 0u);
}

TEST(ReshapeGeometry, bricks_to_pencils_and_back) {
  const Shape3 shape{7, 6, 5};
  expect_reshape_moves_every_point(shape, bricks(shape, {2, 2, 2}), pencils(shape, 4, 2));
  expect_reshape_moves_every_point(shape, pencils(shape, 4, 2), bricks(shape, {2, 2, 2}));
  expect_reshape_moves_every_point(shape, bricks(shape, {2, 2, 2}), bricks(shape, {2, 2, 2}));
}

TEST(ReshapeGeometry, storage_orders_slabs_and_empty_boxes) {
  const Shape3 shape{5, 4, 3};
  // Slabs of x into bricks stored z-fastest and x-fastest; more ranks than x planes (empty).
  expect_reshape_moves_every_point(shape, bricks(shape, {6, 1, 1}),
                                   bricks(shape, {3, 2, 1}, {1, 0, 2}));
  expect_reshape_moves_every_point(shape, bricks(shape, {1, 3, 2}, {2, 1, 0}),
                                   bricks(shape, {6, 1, 1}, {0, 2, 1}));
  // One rank holding everything, the others nothing.
  std::vector<Box> one(4, Box{{0, 0, 0}, {0, 0, 0}});
  one[2] = Box{{0, 0, 0}, shape};
  expect_reshape_moves_every_point(shape, one, bricks(shape, {2, 2, 1}));
  expect_reshape_moves_every_point(shape, bricks(shape, {2, 1, 2}), one);
}

TEST(ReshapeGeometry, identity_only_when_every_rank_keeps_its_box_and_order) {
  const Shape3 shape{4, 4, 4};
  const std::vector<Box> same = bricks(shape, {2, 2, 1});
  EXPECT_TRUE(ReshapeGeometry(shape, same, same, 0).is_identity());
  EXPECT_FALSE(ReshapeGeometry(shape, same, bricks(shape, {2, 2, 1}, {1, 0, 2}), 0).is_identity());
  EXPECT_FALSE(ReshapeGeometry(shape, same, bricks(shape, {4, 1, 1}), 3).is_identity());
}

TEST(ReshapeGeometry, tilings_that_are_not_name_the_ranks_and_boxes) {
  const Shape3 shape{4, 4, 4};
  std::vector<Box> boxes = bricks(shape, {2, 2, 1});
  EXPECT_EQ(tiling_problem(shape, boxes, "input"), "");
  std::vector<Box> gap = boxes;
  gap[3].size = {0, 0, 0};
  EXPECT_EQ(tiling_problem(shape, gap, "input"),
            "the input boxes hold 48 of the 64 points of the 4x4x4 array; together they must "
            "hold every point once");
  std::vector<Box> overlap = boxes;
  overlap[1].lower[1] = 1;
  EXPECT_EQ(tiling_problem(shape, overlap, "output"),
            "rank 0's output box [0:2, 0:2, 0:4) and rank 1's output box [0:2, 1:3, 0:4) overlap; "
            "each point must be in one box");
  std::vector<Box> outside = boxes;
  outside[3].size[2] = 5;
  EXPECT_EQ(tiling_problem(shape, outside, "input"),
            "rank 3's input box [2:4, 2:4, 0:5) reaches outside the 4x4x4 array");
  std::vector<Box> bad_order = boxes;
  bad_order[2].order = {0, 0, 2};
  EXPECT_EQ(tiling_problem(shape, bad_order, "input"),
            "rank 2's input box [2:4, 0:2, 0:4) has order {0, 0, 2}; expected a permutation of "
            "{0, 1, 2}");
}

}  // namespace
