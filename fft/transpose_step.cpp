#include "transpose_step.hpp"

#include <algorithm>

namespace a2afft::detail::fft {
namespace {

std::size_t axis(int a) {
  return static_cast<std::size_t>(a);
}

}  // namespace

std::size_t TransposeShape::block_elements() const {
  // A block as the receiver stores it: the split axis (in the receiver's order) and the
  // gathered axis both at their largest part.
  const int split_in_to = swap_leading && split_axis < 2 ? 1 - split_axis : split_axis;
  Shape3 padded = to;
  padded[axis(split_in_to)] = largest_split(split_length, parts);
  padded[axis(gather_axis)] = largest_split(gather_length, parts);
  // A row (column) whose ranks hold nothing, with more parts than points on the third axis,
  // still exchanges: one element keeps the block uniform and at least one byte.
  return std::max<std::size_t>(padded[0] * padded[1] * padded[2], 1);
}

TransposeShape TransposeShape::inverse() const {
  return {to, from, gather_axis, gather_length, split_axis, split_length, parts, swap_leading};
}

TransposeStep::TransposeStep(const TransposeShape& shape)
    : shape_(shape),
      block_elements_(shape.block_elements()),
      sent_(parts_along(shape.from, shape.split_axis, shape.split_length, shape.parts)),
      received_(parts_along(shape.to, shape.gather_axis, shape.gather_length, shape.parts)) {}

std::vector<TransposeStep::Part> TransposeStep::parts_along(const Shape3& shape, int split_axis,
                                                            std::size_t length, int parts) {
  std::vector<Part> result;
  for (int index = 0; index < parts; ++index) {
    const Split part = split_range(length, parts, index);
    Part p{shape, {}};
    p.block[axis(split_axis)] = part.count;
    p.offset[axis(split_axis)] = part.offset;
    result.push_back(p);
  }
  return result;
}

std::size_t TransposeStep::pack(const std::byte* from, std::byte* send, std::size_t plane,
                                std::size_t element_bytes, int own, std::byte* own_blocks) const {
  std::size_t bytes = 0;
  for (int destination = 0; destination < shape_.parts; ++destination) {
    const Part& part = sent_[static_cast<std::size_t>(destination)];
    Shape3 offset = part.offset;
    offset[0] = plane;
    const Shape3 extent{1, part.block[1], part.block[2]};
    bytes += extent[1] * extent[2] * element_bytes;
    std::byte* block_start =
        (destination == own ? own_blocks : send) +
        static_cast<std::size_t>(destination) * block_elements_ * element_bytes;
    if (shape_.swap_leading) {
      const Shape3 stored{part.block[1], part.block[0], part.block[2]};
      copy_box_swapping_leading(from, shape_.from, offset, block_start, stored, Shape3{0, plane, 0},
                                extent, element_bytes);
    } else {
      copy_box(from, shape_.from, offset, block_start, part.block, Shape3{plane, 0, 0}, extent,
               element_bytes);
    }
  }
  return bytes;
}

std::size_t TransposeStep::unpack(const std::byte* recv, std::byte* to, std::size_t plane,
                                  std::size_t element_bytes) const {
  std::size_t bytes = 0;
  for (int source = 0; source < shape_.parts; ++source) {
    const Part& part = received_[static_cast<std::size_t>(source)];
    Shape3 offset = part.offset;
    offset[0] = plane;
    const Shape3 extent{1, part.block[1], part.block[2]};
    bytes += extent[1] * extent[2] * element_bytes;
    copy_box(recv + static_cast<std::size_t>(source) * block_elements_ * element_bytes, part.block,
             Shape3{plane, 0, 0}, to, shape_.to, offset, extent, element_bytes);
  }
  return bytes;
}

}  // namespace a2afft::detail::fft
