#pragma once

#include "timing/phase_timer.hpp"

namespace a2afft::detail::fft {

/// `timer`, with the two phases every engine records created at 0: `compute` (FFTs, twiddles,
/// scaling) and `transpose` (pack, exchange, unpack, local transposes). With both entries in
/// place from the start, a caller that clear()s the timer before each call reads the last
/// call's split without a lookup failing on a rank that holds nothing, and nothing allocates.
inline PhaseTimer* with_fft_phases(PhaseTimer* timer) {
  if (timer != nullptr) {
    timer->add("compute", 0.0);
    timer->add("transpose", 0.0);
  }
  return timer;
}

}  // namespace a2afft::detail::fft
