#include "pattern.hpp"

#include <cstdio>
#include <cstring>

namespace a2afft::detail::verify {
namespace {

// splitmix64's finalizer: a bijection on 64-bit words, so distinct keys never collide.
std::uint64_t mix(std::uint64_t key) {
  key += 0x9e3779b97f4a7c15ULL;
  key = (key ^ (key >> 30)) * 0xbf58476d1ce4e5b9ULL;
  key = (key ^ (key >> 27)) * 0x94d049bb133111ebULL;
  return key ^ (key >> 31);
}

constexpr std::size_t kWordBytes = sizeof(std::uint64_t);

// Compares each block j with the words that source_of(j) sends to destination_of(j).
template <typename Byte>
std::optional<Mismatch> check_blocks(std::span<Byte> buffer, int ranks, std::size_t block_bytes,
                                     auto source_of, auto destination_of) {
  const std::size_t words = (block_bytes + kWordBytes - 1) / kWordBytes;
  for (int j = 0; j < ranks; ++j) {
    const std::uint64_t pair =
        static_cast<std::uint64_t>(source_of(j)) * static_cast<std::uint64_t>(ranks) +
        static_cast<std::uint64_t>(destination_of(j));
    const std::byte* data = buffer.data() + static_cast<std::size_t>(j) * block_bytes;
    for (std::size_t w = 0; w < words; ++w) {
      const std::uint64_t word = mix(pair * words + w);
      const std::size_t offset = w * kWordBytes;
      const std::size_t length = std::min(kWordBytes, block_bytes - offset);
      // A whole word compares as one load (the >2 GiB test checks 2^28 of them per exchange);
      // the last, partial word byte by byte.
      if (length == kWordBytes) {
        std::uint64_t got_word;
        std::memcpy(&got_word, data + offset, kWordBytes);
        if (got_word == word) continue;
      } else if (std::memcmp(data + offset, &word, length) == 0) {
        continue;
      }
      for (std::size_t i = 0; i < length; ++i) {
        const auto expected = static_cast<unsigned>((word >> (8 * i)) & 0xffU);
        const auto got = static_cast<unsigned>(data[offset + i]);
        if (got != expected) return Mismatch{j, offset + i, got, expected};
      }
    }
  }
  return std::nullopt;
}

}  // namespace

std::string Mismatch::describe() const {
  char text[160];
  std::snprintf(text, sizeof text, "block %d, byte %zu: got 0x%02x, expected 0x%02x", block,
                byte_index, got, expected);
  return text;
}

void fill_send_blocks(std::span<std::byte> send, int rank, int ranks, std::size_t block_bytes) {
  const std::size_t words = (block_bytes + kWordBytes - 1) / kWordBytes;
  for (int j = 0; j < ranks; ++j) {
    const std::uint64_t pair =
        static_cast<std::uint64_t>(rank) * static_cast<std::uint64_t>(ranks) +
        static_cast<std::uint64_t>(j);
    std::byte* data = send.data() + static_cast<std::size_t>(j) * block_bytes;
    for (std::size_t w = 0; w < words; ++w) {
      const std::uint64_t word = mix(pair * words + w);
      const std::size_t offset = w * kWordBytes;
      std::memcpy(data + offset, &word, std::min(kWordBytes, block_bytes - offset));
    }
  }
}

std::optional<Mismatch> check_received_blocks(std::span<const std::byte> recv, int rank, int ranks,
                                              std::size_t block_bytes) {
  return check_blocks(
      recv, ranks, block_bytes, [](int j) { return j; }, [rank](int) { return rank; });
}

std::optional<Mismatch> check_send_blocks(std::span<const std::byte> send, int rank, int ranks,
                                          std::size_t block_bytes) {
  return check_blocks(
      send, ranks, block_bytes, [rank](int) { return rank; }, [](int j) { return j; });
}

std::optional<Mismatch> compare_blocks(std::span<const std::byte> got,
                                       std::span<const std::byte> expected,
                                       std::size_t block_bytes) {
  if (std::memcmp(got.data(), expected.data(), std::min(got.size(), expected.size())) == 0 &&
      got.size() == expected.size()) {
    return std::nullopt;
  }
  for (std::size_t i = 0; i < std::min(got.size(), expected.size()); ++i) {
    if (got[i] != expected[i]) {
      return Mismatch{static_cast<int>(i / block_bytes), i % block_bytes,
                      static_cast<unsigned>(got[i]), static_cast<unsigned>(expected[i])};
    }
  }
  return Mismatch{static_cast<int>(expected.size() / block_bytes), 0, 0, 0};
}

}  // namespace a2afft::detail::verify
