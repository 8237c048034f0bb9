// Fuzzes the size and grid parsers: byte sizes and block size lists (`16,1K:64K`), FFT shapes
// (`64x32x16`), process grids (`2x3` against a rank count) and 1D lengths (`2^20*3`). Whatever
// they accept must be what they promise: nonzero sizes, grids that multiply to P.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <a2afft/error.hpp>
#include <a2afft/tools/fft_tools.hpp>

#include "fuzz_check.hpp"
#include "options.hpp"

namespace {

template <typename Parse>
void attempt(Parse parse) {
  try {
    parse();
  } catch (const a2afft::UsageError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace a2afft;
  using namespace a2afft::cli;
  if (size == 0) return 0;
  // The first byte picks the rank count for the grid; the rest is the text.
  const int ranks = 1 + data[0] % 64;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  attempt([&] { fuzz::require(parse_byte_size(text, "--sizes") > 0, "zero byte size", text); });
  attempt([&] {
    for (const std::size_t bytes : parse_block_sizes(text, "--sizes"))
      fuzz::require(bytes > 0, "zero block size in a list", text);
  });
  attempt([&] {
    const std::array<std::size_t, 3> shape = parse_shape(text);
    fuzz::require(shape[0] > 0 && shape[1] > 0 && shape[2] > 0, "empty shape", text);
  });
  attempt([&] {
    const std::array<int, 2> grid = parse_grid(text, ranks);
    fuzz::require(grid[0] * grid[1] == ranks, "grid does not multiply to P", text);
  });
  attempt([&] { fuzz::require(parse_length(text) > 0, "zero length", text); });
  return 0;
}
