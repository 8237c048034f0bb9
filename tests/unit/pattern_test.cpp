#include "pattern.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

namespace a2afft::detail::verify {
namespace {

// What an all-to-all of `ranks` ranks delivers, computed in one process.
std::vector<std::vector<std::byte>> simulate_alltoall(int ranks, std::size_t block_bytes) {
  const std::size_t total = block_bytes * ranks;
  std::vector<std::vector<std::byte>> send(ranks, std::vector<std::byte>(total));
  std::vector<std::vector<std::byte>> recv(ranks, std::vector<std::byte>(total));
  for (int r = 0; r < ranks; ++r)
    fill_send_blocks(send[r], r, ranks, block_bytes);
  for (int source = 0; source < ranks; ++source) {
    for (int destination = 0; destination < ranks; ++destination) {
      std::copy_n(send[source].begin() + destination * block_bytes, block_bytes,
                  recv[destination].begin() + source * block_bytes);
    }
  }
  return recv;
}

TEST(Pattern, a_correct_alltoall_passes) {
  for (std::size_t block_bytes : {1u, 3u, 8u, 13u, 1000u}) {
    const auto recv = simulate_alltoall(5, block_bytes);
    for (int rank = 0; rank < 5; ++rank) {
      EXPECT_FALSE(check_received_blocks(recv[rank], rank, 5, block_bytes).has_value());
    }
  }
}

TEST(Pattern, swapped_blocks_are_caught_in_every_word) {
  const std::size_t block_bytes = 64;
  auto recv = simulate_alltoall(4, block_bytes);
  std::swap_ranges(recv[2].begin(), recv[2].begin() + block_bytes, recv[2].begin() + block_bytes);
  const auto bad = check_received_blocks(recv[2], 2, 4, block_bytes);
  ASSERT_TRUE(bad.has_value());
  EXPECT_EQ(bad->block, 0);
  EXPECT_EQ(bad->byte_index, 0u);
}

TEST(Pattern, every_word_of_every_pair_is_distinct) {
  // Distinct (source, destination, word) give distinct words, so a misplaced word never passes.
  const int ranks = 6;
  const std::size_t block_bytes = 24;
  std::vector<std::uint64_t> words;
  for (int r = 0; r < ranks; ++r) {
    std::vector<std::byte> send(block_bytes * ranks);
    fill_send_blocks(send, r, ranks, block_bytes);
    for (std::size_t i = 0; i < send.size(); i += 8) {
      std::uint64_t word;
      std::memcpy(&word, send.data() + i, 8);
      words.push_back(word);
    }
  }
  std::sort(words.begin(), words.end());
  EXPECT_EQ(std::adjacent_find(words.begin(), words.end()), words.end());
}

TEST(Pattern, a_shifted_byte_and_a_written_send_buffer_are_caught) {
  auto recv = simulate_alltoall(3, 7);
  recv[1][15] ^= std::byte{1};
  const auto bad = check_received_blocks(recv[1], 1, 3, 7);
  ASSERT_TRUE(bad.has_value());
  EXPECT_EQ(bad->block, 2);
  EXPECT_EQ(bad->byte_index, 1u);
  EXPECT_NE(bad->describe().find("block 2, byte 1"), std::string::npos);

  std::vector<std::byte> send(21);
  fill_send_blocks(send, 0, 3, 7);
  EXPECT_FALSE(check_send_blocks(send, 0, 3, 7).has_value());
  send[20] = ~send[20];
  EXPECT_TRUE(check_send_blocks(send, 0, 3, 7).has_value());
  EXPECT_TRUE(compare_blocks(recv[0], recv[1], 7).has_value());
  EXPECT_FALSE(compare_blocks(recv[0], recv[0], 7).has_value());
}

}  // namespace
}  // namespace a2afft::detail::verify
