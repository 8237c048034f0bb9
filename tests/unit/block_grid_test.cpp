#include "schedule/block_grid.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace a2afft::detail::schedule {
namespace {

// Block (row, column) of a grid, 3 bytes of it, each naming its place.
std::vector<std::byte> numbered_grid(std::size_t rows, std::size_t columns, std::size_t bytes) {
  std::vector<std::byte> grid;
  for (std::size_t row = 0; row < rows; ++row) {
    for (std::size_t column = 0; column < columns; ++column) {
      for (std::size_t byte = 0; byte < bytes; ++byte)
        grid.push_back(static_cast<std::byte>(row * 16 + column * 4 + byte));
    }
  }
  return grid;
}

TEST(BlockGrid, every_block_lands_at_its_transposed_place_once) {
  const std::size_t rows = 3, columns = 4, bytes = 3;
  const std::vector<std::byte> from = numbered_grid(rows, columns, bytes);
  std::vector<std::byte> to(from.size(), std::byte{0xff});
  transpose_block_grid(from.data(), to.data(), rows, columns, bytes);
  for (std::size_t row = 0; row < rows; ++row) {
    for (std::size_t column = 0; column < columns; ++column) {
      for (std::size_t byte = 0; byte < bytes; ++byte) {
        EXPECT_EQ(to[(column * rows + row) * bytes + byte],
                  from[(row * columns + column) * bytes + byte])
            << row << "," << column;
      }
    }
  }
  // Transposing back restores the grid.
  std::vector<std::byte> back(from.size());
  transpose_block_grid(to.data(), back.data(), columns, rows, bytes);
  EXPECT_EQ(back, from);
}

}  // namespace
}  // namespace a2afft::detail::schedule
