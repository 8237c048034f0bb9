#pragma once

// A planned engine between the application's own boxes (Fft3dOptions::input_box, output_box)
// and the engine's pencils: forward() reshapes the input into the engine's input box, runs the
// engine and reshapes its output into the application's output box; backward() the reverse.
// Each of the four reshapes is a fft::Reshape (one variable-size exchange, only to real
// partners); one whose boxes are the engine's on every rank adds nothing.

#include <memory>
#include <optional>

#include "fft_core.hpp"
#include "reshape.hpp"

namespace a2afft::detail {

/// Bytes per point of every field on each side (the input real for r2c and r2r, the output
/// real for r2r), the fields, and the bytes of the unit in_place_elements() counts (one
/// output scalar).
struct SideBytes {
  std::size_t input;
  std::size_t output;
  std::size_t batch;
  std::size_t in_place_unit;
};

/// `inner` wrapped between the boxes `input` and `output` (either may be unset: the engine's
/// own). `shape` is the logical array, `spectrum` the output's (n2/2+1 along z for r2c).
/// Collective; throws UsageError on every rank for boxes that do not tile their arrays.
std::unique_ptr<FftEngine> with_reshapes(std::unique_ptr<FftEngine> inner, const Topology& topology,
                                         const fft::Shape3& shape, const fft::Shape3& spectrum,
                                         const std::optional<Box3>& input,
                                         const std::optional<Box3>& output, SideBytes bytes,
                                         const Spec& exchange, PhaseTimer* timer);

}  // namespace a2afft::detail
