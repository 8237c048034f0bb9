#include "transpose_step.hpp"

namespace a2afft::fft {
namespace {

std::size_t axis(int a) {
  return static_cast<std::size_t>(a);
}

}  // namespace

TransposeStep::TransposeStep(const Shape3& from, const Shape3& to, Axes axes, int parts, int me)
    : from_(from), to_(to), axes_(axes), parts_(parts), me_(me) {
  Shape3 padded = from;
  padded[axis(axes.split_axis)] = largest_split(axes.split_length, parts);
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
    copy_box(from, from_, offset,
             send + static_cast<std::size_t>(destination) * block_elements_ * element_bytes, extent,
             Shape3{}, extent, element_bytes);
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
