// The reproducible input of include/a2afft/tools/fft_tools.hpp, with the checks' other tools
// (pattern.cpp, gather.cpp): a library of objects of its own (a2afft_checks), so that the engines'
// own tests use these very functions without the engines holding them (issue 44).

#include <a2afft/tools/fft_tools.hpp>

namespace a2afft {

Complex test_signal(std::size_t global_index, std::uint64_t salt) {
  std::uint64_t x = (global_index + 1) * 0x9e3779b97f4a7c15ULL ^ salt;
  x = (x ^ (x >> 31)) * 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 29;
  const auto unit = [](std::uint64_t bits) {
    return static_cast<double>(bits >> 11) * 0x1p-52 - 1;
  };
  return {unit(x), unit(x * 0x94d049bb133111ebULL)};
}

void fill_test_signal(Complex* local, const Box3& box, const std::array<std::size_t, 3>& shape,
                      std::uint64_t salt) {
  for (std::size_t i = 0; i < box.size[0]; ++i) {
    for (std::size_t j = 0; j < box.size[1]; ++j) {
      for (std::size_t l = 0; l < box.size[2]; ++l) {
        const std::array<std::size_t, 3> at{box.lower[0] + i, box.lower[1] + j, box.lower[2] + l};
        local[box.local_index(at)] =
            test_signal((at[0] * shape[1] + at[1]) * shape[2] + at[2], salt);
      }
    }
  }
}

}  // namespace a2afft
