#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

// Test data for exchanges that encodes (source, destination, byte index) in full: each 8-byte
// word of a block is a bijective hash of (source, destination, word index), so a block that
// lands at the wrong rank or offset differs in every word. Pure, no MPI.
namespace a2afft::detail::verify {

/// Fills the `ranks` blocks that `rank` sends.
void fill_send_blocks(std::span<std::byte> send, int rank, int ranks, std::size_t block_bytes);

/// The first byte that differs, located by block and byte.
struct Mismatch {
  int block;
  std::size_t byte_index;
  unsigned got;
  unsigned expected;
  std::string describe() const;
};

/// Checks that `recv` holds, in block j, what rank j sends to `rank`.
std::optional<Mismatch> check_received_blocks(std::span<const std::byte> recv, int rank, int ranks,
                                              std::size_t block_bytes);

/// Checks that `send` still holds what fill_send_blocks wrote (exchanges never write it).
std::optional<Mismatch> check_send_blocks(std::span<const std::byte> send, int rank, int ranks,
                                          std::size_t block_bytes);

/// The first difference between two buffers of equal blocks.
std::optional<Mismatch> compare_blocks(std::span<const std::byte> got,
                                       std::span<const std::byte> expected,
                                       std::size_t block_bytes);

}  // namespace a2afft::detail::verify
