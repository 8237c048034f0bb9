#pragma once

#include <cstdint>

#include "fftw_plan.hpp"
#include "geometry.hpp"

namespace a2afft::detail::fft {

/// A reproducible input: a pseudo-random complex value in [-1, 1) x [-1, 1) per global index
/// and `salt`, so every engine, grid and rank count sees the same global array.
Complex test_signal(std::size_t global_index, std::uint64_t salt = 0);

/// Fills `local`, row-major over `box` of a global array of `shape`, with test_signal.
void fill_test_signal(Complex* local, const Box3& box, const Shape3& shape, std::uint64_t salt = 0);

}  // namespace a2afft::detail::fft
