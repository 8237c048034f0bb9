#include "transpose_step.hpp"

namespace a2afft::fft {
namespace {

std::size_t axis(int a) {
  return static_cast<std::size_t>(a);
}

}  // namespace

TransposeStep::TransposeStep(const Shape3& from, const Shape3& to, Axes axes, int parts,
                             bool swap_leading)
    : from_(from), to_(to), axes_(axes), parts_(parts), swap_leading_(swap_leading) {
  // A block as the receiver stores it, padded so every rank's blocks have one size: the split
  // axis (in the receiver's order) and the gathered axis both at their largest part.
  const int split_in_to =
      swap_leading && axes.split_axis < 2 ? 1 - axes.split_axis : axes.split_axis;
  Shape3 padded = to;
  padded[axis(split_in_to)] = largest_split(axes.split_length, parts);
  padded[axis(axes.gather_axis)] = largest_split(axes.gather_length, parts);
  block_elements_ = padded[0] * padded[1] * padded[2];
}

void TransposeStep::pack(const std::byte* from, std::byte* send, std::size_t element_bytes) const {
  for (int destination = 0; destination < parts_; ++destination) {
    const Split part = split_range(axes_.split_length, parts_, destination);
    Shape3 offset{};
    offset[axis(axes_.split_axis)] = part.offset;
    Shape3 extent = from_;
    extent[axis(axes_.split_axis)] = part.count;
    std::byte* block =
        send + static_cast<std::size_t>(destination) * block_elements_ * element_bytes;
    if (swap_leading_) {
      const Shape3 stored{extent[1], extent[0], extent[2]};
      copy_box_swapping_leading(from, from_, offset, block, stored, Shape3{}, extent,
                                element_bytes);
    } else {
      copy_box(from, from_, offset, block, extent, Shape3{}, extent, element_bytes);
    }
  }
}

void TransposeStep::unpack(const std::byte* recv, std::byte* to, std::size_t element_bytes) const {
  for (int source = 0; source < parts_; ++source) {
    const Split part = split_range(axes_.gather_length, parts_, source);
    Shape3 offset{};
    offset[axis(axes_.gather_axis)] = part.offset;
    Shape3 extent = to_;
    extent[axis(axes_.gather_axis)] = part.count;
    copy_box(recv + static_cast<std::size_t>(source) * block_elements_ * element_bytes, extent,
             Shape3{}, to, to_, offset, extent, element_bytes);
  }
}

}  // namespace a2afft::fft
