#pragma once

#include <cstddef>

#include "copy_bytes.hpp"

// The repack every layered exchange does between its layers (tra2, the node-aware family):
// a grid of equal blocks, transposed. Pure: no MPI.
namespace a2afft::detail::schedule {

/// `to[column][row] = from[row][column]` over a `rows` x `columns` grid of `block_bytes`
/// blocks, both row-major. The buffers must not overlap.
inline void transpose_block_grid(const std::byte* from, std::byte* to, std::size_t rows,
                                 std::size_t columns, std::size_t block_bytes) {
  for (std::size_t row = 0; row < rows; ++row) {
    for (std::size_t column = 0; column < columns; ++column) {
      copy_bytes(to + (column * rows + row) * block_bytes,
                 from + (row * columns + column) * block_bytes, block_bytes);
    }
  }
}

}  // namespace a2afft::detail::schedule
