#pragma once

// The memory traffic of the engines' schedules counted by hand, sweep by sweep (what traffic()
// was before the engines ran step programs, issue 44): a second derivation the tests hold
// against the programs' fold (traffic()) and the executor's count. Pure, no MPI or FFTW.

#include <cstddef>
#include <vector>

#include "pencil_geometry.hpp"
#include "six_step_geometry.hpp"

namespace a2afft::detail::fft {

// The transpose a sweep packs for.
inline const TransposeShape& packed_for(const PencilGeometry& geometry,
                                        const PencilSweepPlan& sweep) {
  return kTransposeIsRow[static_cast<std::size_t>(sweep.pack)] ? geometry.row_transpose()
                                                               : geometry.column_transpose();
}

/// Bytes read and written in memory by one direction of a pencil plan on this rank, by the
/// rules of a2afft::TransformTraffic: per sweep, its source (the receive buffer when it unpacks,
/// else the caller's input in the first sweep, else the work array) and its destination (the
/// send buffer when it packs, else the caller's output in the last sweep, else the work
/// array), each over the stage's box; plus each exchange's blocks, read from the send buffer
/// and written to the receive buffer; for padded plans, a stage reads its physical side and
/// writes its modes forward, the reverse `backward`. `element_bytes` is one complex point of
/// every field;
/// `input_bytes` and `output_bytes` are the caller's arrays of this direction (the real side
/// is smaller for r2c).
inline std::size_t pencil_bytes_moved(const PencilGeometry& geometry,
                                      const std::vector<PencilSweepPlan>& schedule,
                                      std::size_t element_bytes, std::size_t input_bytes,
                                      std::size_t output_bytes, bool backward = false) {
  std::size_t bytes = 0;
  for (const PencilSweepPlan& sweep : schedule) {
    const PencilStage& stage = geometry.stage(sweep.stage);
    // A stage's FFTs run on its physical side; its modes are what it keeps (forward) or gets.
    const std::size_t physical = stage.box.elements() * element_bytes;
    const std::size_t modes = stage.spectral_box.elements() * element_bytes;
    const std::size_t enters = backward ? modes : physical;
    const std::size_t leaves = backward ? physical : modes;
    // What the planes come from: the receive buffer, the caller's input, or the work array.
    bytes += sweep.unpack >= 0 ? enters : sweep.from_input ? input_bytes : enters;
    // Where they go: the send buffer, the caller's output, or the work array.
    bytes += sweep.pack >= 0 ? leaves : sweep.to_output ? output_bytes : leaves;
    if (sweep.pack < 0) continue;
    // The exchange reads each block it sends and writes each it receives: one copy per block
    // on one node (see a2afft::TransformTraffic), none for our own block left in place.
    const TransposeShape& transpose = packed_for(geometry, sweep);
    const auto blocks = static_cast<std::size_t>(transpose.parts - (sweep.own_in_place ? 1 : 0));
    bytes += 2 * blocks * transpose.block_elements() * element_bytes;
  }
  return bytes;
}

/// Bytes this rank sends to other ranks in the exchanges of `schedule` (the padded blocks of
/// uneven splits included, our own block not).
inline std::size_t pencil_bytes_exchanged(const PencilGeometry& geometry,
                                          const std::vector<PencilSweepPlan>& schedule,
                                          std::size_t element_bytes) {
  std::size_t bytes = 0;
  for (const PencilSweepPlan& sweep : schedule) {
    if (sweep.pack < 0) continue;
    const TransposeShape& transpose = packed_for(geometry, sweep);
    bytes +=
        static_cast<std::size_t>(transpose.parts - 1) * transpose.block_elements() * element_bytes;
  }
  return bytes;
}

/// Bytes read and written in memory on one rank by `steps`, by the rules of
/// a2afft::TransformTraffic, for points of `element_bytes` (batch complex numbers): a local
/// transpose reads and writes the local array once; an exchange reads the blocks it sends and
/// writes those it receives (not our own when it stayed in place); a sweep reads the receive
/// buffer (unpack) or its `from` array, and writes the send buffer (pack) or its `to` array;
/// one rank's column FFTs read `from` and write `to` once, each chunk through a scratch in cache.
inline std::size_t six_step_bytes_moved(const SixStepGeometry& geometry,
                                        const std::vector<SixStepStep>& steps,
                                        std::size_t element_bytes) {
  const std::size_t local = geometry.local_length() * element_bytes;
  const std::size_t block = geometry.block_elements() * element_bytes;
  const auto ranks = static_cast<std::size_t>(geometry.ranks());
  std::size_t bytes = 0;
  for (const SixStepStep& step : steps) {
    if (step.op == SixStepStep::Op::exchange) {
      // One copy of each block on one node (see a2afft::TransformTraffic): read, then written.
      bytes += 2 * (ranks - (step.own_in_place ? 1 : 0)) * block;
    } else {
      // A local transpose reads and writes the array once; a sweep reads recv or `from` and
      // writes send or `to`, each row staying in cache in between; column FFTs likewise, a
      // chunk of columns at a time.
      bytes += 2 * local;
    }
  }
  return bytes;
}

}  // namespace a2afft::detail::fft
