#include "pencil_geometry.hpp"

#include <algorithm>
#include <utility>

#include "error.hpp"

namespace a2afft::fft {
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
                               PencilOutput output)
    : shape_(shape), grid_(grid), rank_(rank), output_(output) {
  if (rank < 0 || rank >= grid.rows * grid.columns) {
    throw UsageError("rank " + std::to_string(rank) + " is not in the " + grid.to_string() +
                     " grid; expected 0 to " + std::to_string(grid.rows * grid.columns - 1));
  }
  const auto [n0, n1, n2] = shape;
  const Split x_part = split_range(n0, grid.rows, row());
  const Split y_part = split_range(n1, grid.columns, column());
  const Split z_part = split_range(n2, grid.columns, column());
  const Split y_late = split_range(n1, grid.rows, row());
  const Box3 box0{{x_part.offset, y_part.offset, 0}, {x_part.count, y_part.count, n2}};
  const Box3 box1{{x_part.offset, 0, z_part.offset}, {x_part.count, n1, z_part.count}};
  const Box3 box2{{0, y_late.offset, z_part.offset}, {n0, y_late.count, z_part.count}};

  // z lines are contiguous; y lines have stride q2; x lines stride q2 in the y-major stage 2
  // (whose planes are y), n1 * q2 in the x-major one (whose "planes" are the y columns, q2
  // apart). Without a row transpose stage 0's FFT is a single 2D plan over [y][z] planes.
  const std::size_t q2 = z_part.count;
  stages_[0] = has_row_transpose()
                   ? PencilStage{box0,         false,
                                 x_part.count, y_part.count * n2,
                                 {{n2, 1}},    {{y_part.count, n2}}}
                   : PencilStage{box0, false, x_part.count, n1 * n2, {{n1, n2}, {n2, 1}}, {}};
  stages_[1] = {box1, false, x_part.count, n1 * q2, {{n1, q2}}, {{q2, 1}}};
  stages_[2] = has_column_transpose()
                   ? PencilStage{box2, true, y_late.count, n0 * q2, {{n0, q2}}, {{q2, 1}}}
                   : PencilStage{box2, false, n1, q2, {{n0, n1 * q2}}, {{q2, 1}}};

  row_ = {box0.extent, box1.extent, 2, n2, 1, n1, grid.columns, false};
  // x, gathered, is axis 1 of the y-major stage 2 and axis 0 of the x-major one (p0 = 1, where
  // the transpose is an identity).
  const bool y_major = stages_[2].y_major;
  column_ = {box1.extent, stages_[2].stored_extent(), 1, n1, y_major ? 1 : 0, n0, grid.rows,
             y_major};
}

const Box3& PencilGeometry::output_box() const {
  return output_ == PencilOutput::natural ? stages_[0].box : stages_[2].box;
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

}  // namespace a2afft::fft
