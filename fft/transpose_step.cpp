#include "transpose_step.hpp"

namespace a2afft::fft {
namespace {

std::size_t axis(int a) {
  return static_cast<std::size_t>(a);
}

}  // namespace

TransposeStep::TransposeStep(const Shape3& from, const Shape3& to, Axes axes, int parts,
                             bool swap_leading)
    : from_(from),
      to_(to),
      parts_(parts),
      swap_leading_(swap_leading),
      sent_(parts_along(from, axes.split_axis, axes.split_length, parts)),
      received_(parts_along(to, axes.gather_axis, axes.gather_length, parts)) {
  // A block as the receiver stores it, padded so every rank's blocks have one size: the split
  // axis (in the receiver's order) and the gathered axis both at their largest part.
  const int split_in_to =
      swap_leading && axes.split_axis < 2 ? 1 - axes.split_axis : axes.split_axis;
  Shape3 padded = to;
  padded[axis(split_in_to)] = largest_split(axes.split_length, parts);
  padded[axis(axes.gather_axis)] = largest_split(axes.gather_length, parts);
  block_elements_ = padded[0] * padded[1] * padded[2];
}

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

void TransposeStep::pack(const std::byte* from, std::byte* send, std::size_t plane,
                         std::size_t element_bytes, int own, std::byte* own_blocks) const {
  for (int destination = 0; destination < parts_; ++destination) {
    const Part& part = sent_[static_cast<std::size_t>(destination)];
    Shape3 offset = part.offset;
    offset[0] = plane;
    const Shape3 extent{1, part.block[1], part.block[2]};
    std::byte* block_start =
        (destination == own ? own_blocks : send) +
        static_cast<std::size_t>(destination) * block_elements_ * element_bytes;
    if (swap_leading_) {
      const Shape3 stored{part.block[1], part.block[0], part.block[2]};
      copy_box_swapping_leading(from, from_, offset, block_start, stored, Shape3{0, plane, 0},
                                extent, element_bytes);
    } else {
      copy_box(from, from_, offset, block_start, part.block, Shape3{plane, 0, 0}, extent,
               element_bytes);
    }
  }
}

void TransposeStep::unpack(const std::byte* recv, std::byte* to, std::size_t plane,
                           std::size_t element_bytes) const {
  for (int source = 0; source < parts_; ++source) {
    const Part& part = received_[static_cast<std::size_t>(source)];
    Shape3 offset = part.offset;
    offset[0] = plane;
    const Shape3 extent{1, part.block[1], part.block[2]};
    copy_box(recv + static_cast<std::size_t>(source) * block_elements_ * element_bytes, part.block,
             Shape3{plane, 0, 0}, to, to_, offset, extent, element_bytes);
  }
}

}  // namespace a2afft::fft
