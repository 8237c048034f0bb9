#pragma once

// The resolution of a plan's options to one kind per axis (src/axes.cpp); what each kind
// means to the engines is fft/axis_kinds.hpp.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <a2afft/fft.hpp>

namespace a2afft::detail {

/// `given` with one kind per axis of `shape` (all dft, the last r2c for Kind::r2c, when it names
/// none) and the kind they make (r2c with an r2c axis, c2c with a dft axis, else r2r). Throws
/// UsageError naming `who` and what is valid: a count of axes other than the array's, r2c on
/// an axis other than the last, dct1 on fewer than 2 points, no axis transformed, a kind that
/// contradicts the axes, or r2r without axes.
Transform resolved_transform(const Transform& given, const std::vector<std::size_t>& shape,
                             std::string_view who);

/// a2afft::check_padding, its message prefixed with `who`.
void check_padding(const Transform& transform, const std::vector<std::size_t>& shape,
                   std::string_view who);

/// `1.5,1.5,1` (the shortest text that reads back the same factor); "" when empty.
std::string padding_to_string(const std::vector<double>& padding);

}  // namespace a2afft::detail
