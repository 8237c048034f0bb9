#include "pencil_geometry.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "error.hpp"

namespace a2afft::detail::fft {
namespace {

std::size_t exchanged_block_bytes(const TransposeShape& transpose, std::size_t element_bytes) {
  return transpose.is_identity() ? 0 : transpose.block_elements() * element_bytes;
}

}  // namespace

std::size_t PencilStage::local_offset(const Shape3& point) const {
  Shape3 local{point[0] - box.offset[0], point[1] - box.offset[1], point[2] - box.offset[2]};
  if (y_major) std::swap(local[0], local[1]);
  const Shape3 stored = stored_extent();
  return (local[0] * stored[1] + local[1]) * stored[2] + local[2];
}

PencilGeometry::PencilGeometry(const Shape3& shape, const ProcGrid& grid, int rank,
                               PencilOutput output, const Shape3& physical)
    : shape_(shape),
      physical_(physical == Shape3{} ? shape : physical),
      grid_(grid),
      rank_(rank),
      output_(output) {
  if (rank < 0 || rank >= grid.rows * grid.columns) {
    throw UsageError("rank " + std::to_string(rank) + " is not in the " + grid.to_string() +
                     " grid; expected 0 to " + std::to_string(grid.rows * grid.columns - 1));
  }
  for (std::size_t axis = 0; axis < 3; ++axis) {
    if (physical_[axis] < shape[axis]) throw std::logic_error("a padded side smaller than modes");
  }
  if (padded() && output == PencilOutput::natural) {
    throw std::logic_error("a padded pencil plan with natural output");
  }
  make_stages();
  // Each transpose takes the modes the stage before kept to the stage after's padded side.
  row_ = {stages_[0].spectral_box.extent,
          stages_[1].box.extent,
          2,
          shape[2],
          1,
          physical_[1],
          grid.columns,
          false};
  // x, gathered, is axis 1 of the y-major stage 2 and axis 0 of the x-major one (p0 = 1, where
  // the transpose is an identity).
  const bool y_major = stages_[2].y_major;
  column_ = {stages_[1].spectral_box.extent,
             stages_[2].stored_extent(),
             1,
             shape[1],
             y_major ? 1 : 0,
             physical_[0],
             grid.rows,
             y_major};
}

// n: the modes, m: the padded side. Each stage holds the padded points of the axis it
// transforms and, of the axes transformed before it, the modes.
void PencilGeometry::make_stages() {
  const auto [n0, n1, n2] = shape_;
  const auto [m0, m1, m2] = physical_;
  const Split x_part = split_range(m0, grid_.rows, row());
  const Split y_part = split_range(m1, grid_.columns, column());
  const Split z_part = split_range(n2, grid_.columns, column());
  const Split y_late = split_range(n1, grid_.rows, row());
  const BoxRange box0{{x_part.offset, y_part.offset, 0}, {x_part.count, y_part.count, m2}};
  const BoxRange box1{{x_part.offset, 0, z_part.offset}, {x_part.count, m1, z_part.count}};
  const BoxRange box2{{0, y_late.offset, z_part.offset}, {m0, y_late.count, z_part.count}};
  const auto modes_of = [](BoxRange box, std::size_t axis, std::size_t modes) {
    box.extent[axis] = modes;
    return box;
  };
  // z lines are contiguous; y lines have stride q2; x lines stride q2 in the y-major stage 2
  // (whose planes are y), n1 * q2 in the x-major one (whose "planes" are the y columns, q2
  // apart). Without a row transpose stage 0's FFT is a single 2D plan over [y][z] planes.
  const std::size_t q2 = z_part.count;
  if (has_row_transpose()) {
    stages_[0] = {box0,
                  false,
                  x_part.count,
                  y_part.count * m2,
                  {{m2, 1}},
                  {{y_part.count, m2}},
                  {2},
                  modes_of(box0, 2, n2),
                  y_part.count * n2};
  } else {
    stages_[0] = {box0,
                  false,
                  x_part.count,
                  m1 * m2,
                  {{m1, m2}, {m2, 1}},
                  {},
                  {1, 2},
                  modes_of(modes_of(box0, 2, n2), 1, n1),
                  n1 * n2};
  }
  stages_[1] = {box1,      false, x_part.count,          m1 * q2, {{m1, q2}},
                {{q2, 1}}, {1},   modes_of(box1, 1, n1), n1 * q2};
  if (has_column_transpose() || transposes_locally()) {
    stages_[2] = {box2,      true, y_late.count,          m0 * q2, {{m0, q2}},
                  {{q2, 1}}, {0},  modes_of(box2, 0, n0), n0 * q2};
  } else {
    stages_[2] = {box2, false, n1, q2, {{m0, n1 * q2}}, {{q2, 1}}, {0}, modes_of(box2, 0, n0), q2};
  }
}

const BoxRange& PencilGeometry::output_box() const {
  return output_ == PencilOutput::natural ? stages_[0].box : stages_[2].spectral_box;
}

bool PencilGeometry::transposes_locally() const {
  return !has_column_transpose() && output_ == PencilOutput::transposed && !padded() &&
         physical_[0] > 1;
}

bool PencilGeometry::output_is_y_major() const {
  return output_ == PencilOutput::transposed && stages_[2].y_major;
}

std::size_t PencilGeometry::row_block_bytes(std::size_t element_bytes) const {
  return exchanged_block_bytes(row_, element_bytes);
}

std::size_t PencilGeometry::column_block_bytes(std::size_t element_bytes) const {
  return exchanged_block_bytes(column_, element_bytes);
}

std::size_t PencilGeometry::data_elements() const {
  return std::max(
      {stages_[0].box.elements(), stages_[1].box.elements(), stages_[2].box.elements()});
}

std::size_t PencilGeometry::buffer_elements() const {
  std::size_t elements = 0;
  for (const TransposeShape* transpose : {&row_, &column_}) {
    if (!transpose->is_identity()) elements = std::max(elements, transpose->buffer_elements());
  }
  return elements;
}

namespace {

// The stages a transform passes through, in forward order: S0, S1, S2 and, for output in the
// input layout, back through S1 to S0. Transpose k sits between stage k and stage k + 1.
constexpr std::array<int, 5> kStageAt{0, 1, 2, 1, 0};

}  // namespace

std::vector<PencilSweepPlan> pencil_schedule(const PencilGeometry& geometry, bool backward,
                                             std::array<bool, 2> leaves_own_block) {
  // Forward walks stages 0..2 (0..4 back to the input layout), backward 2..4 (0..4 from it).
  const bool natural = geometry.output() == PencilOutput::natural;
  const std::size_t first = backward && !natural ? 2 : 0;
  const std::size_t last = backward || natural ? 4 : 2;
  const bool merged = !geometry.has_row_transpose();
  const std::array<bool, 4> identity{
      !geometry.has_row_transpose(), !geometry.has_column_transpose(),
      !geometry.has_column_transpose(), !geometry.has_row_transpose()};
  std::vector<PencilSweepPlan> schedule;
  int incoming = -1;
  for (std::size_t k = first; k <= last; ++k) {
    const auto index = static_cast<std::size_t>(kStageAt[k]);
    if (merged && index == 1) continue;  // S1 is S0; the row transposes around it are identities
    PencilSweepPlan sweep;
    sweep.stage = index;
    sweep.unpack = incoming;
    // Only the stages of the transform proper compute; the rest only reorder.
    sweep.computes = backward ? k >= 2 : k <= 2;
    incoming = -1;
    for (std::size_t t = k; t < last; ++t) {  // the transpose out of this stage, if any
      if (!identity[t]) {
        sweep.pack = incoming = static_cast<int>(t);
        sweep.own_in_place = sweep.unpack < 0 && leaves_own_block[kTransposeIsRow[t] ? 0 : 1];
        break;
      }
      if (!merged || kStageAt[t + 1] != 1) break;
    }
    if (sweep.unpack >= 0 || sweep.computes || sweep.pack >= 0) schedule.push_back(sweep);
  }
  if (schedule.size() < 2) throw std::logic_error("a pencil schedule has fewer than two sweeps");
  schedule.front().from_input = true;
  schedule.back().to_output = true;
  return schedule;
}

std::array<bool, 2> pencil_own_block_left(const PencilGeometry& geometry) {
  std::array<bool, 2> left{geometry.has_row_transpose(), geometry.has_column_transpose()};
  for (const bool backward : {false, true}) {
    for (const PencilSweepPlan& sweep : pencil_schedule(geometry, backward, {true, true})) {
      if (sweep.pack < 0) continue;
      bool& exchange_left = left[kTransposeIsRow[static_cast<std::size_t>(sweep.pack)] ? 0 : 1];
      exchange_left = exchange_left && sweep.own_in_place;
    }
  }
  return left;
}

}  // namespace a2afft::detail::fft
