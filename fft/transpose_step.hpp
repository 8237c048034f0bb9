#pragma once

#include <cstddef>
#include <vector>

#include "geometry.hpp"

// One global transpose's local reordering: pack and unpack. Pure, no MPI, unit-tested in one
// process by moving the blocks by hand.
namespace a2afft::detail::fft {

/// One global transpose among the `parts` ranks of a communicator, seen from one of them. The
/// local array of shape `from` holds all of axis `split_axis` and our part of axis
/// `gather_axis`; afterwards the array of shape `to` holds our part of `split_axis` and all of
/// `gather_axis`. Axis 0 of both arrays is never split nor gathered among several parts
/// (packing goes one leading plane at a time); `swap_leading` stores axes 0 and 1 of `to`
/// swapped (`to` and `gather_axis` are in the stored order), so a transpose can trade the
/// leading axis as well.
struct TransposeShape {
  Shape3 from{};
  Shape3 to{};
  int split_axis = 0;
  std::size_t split_length = 0;  // global length of the split axis
  int gather_axis = 0;
  std::size_t gather_length = 0;  // global length of the gathered axis
  int parts = 1;
  bool swap_leading = false;

  /// Elements of one block, padded so that every rank's blocks have one size (the uniform
  /// exchange contract): the split and the gathered axis both at their largest part, and at
  /// least one element when the ranks of the exchange hold nothing (axis 0 empty).
  std::size_t block_elements() const;
  /// The send (or receive) buffer: one block per part.
  std::size_t buffer_elements() const { return block_elements() * static_cast<std::size_t>(parts); }
  bool is_identity() const { return parts == 1; }
  /// The way back: `to` -> `from`, the gathered axis split again. Same blocks, same size.
  TransposeShape inverse() const;
};

/// A TransposeShape's pack -> exchange -> unpack, with the exchange left to the caller: pack
/// fills the P send blocks (block j to rank j), unpack reads the P received blocks (block j
/// from rank j). Both go one leading plane at a time: Pencil3d does each right after (or
/// before) that plane's FFT, while the plane is still in cache.
class TransposeStep {
 public:
  explicit TransposeStep(const TransposeShape& shape);

  const TransposeShape& shape() const { return shape_; }
  /// Elements of one padded block; the same on every rank of the communicator.
  std::size_t block_elements() const { return block_elements_; }
  std::size_t buffer_elements() const {
    return block_elements_ * static_cast<std::size_t>(shape_.parts);
  }
  bool is_identity() const { return shape_.is_identity(); }

  /// Leading plane `plane` of `from` -> its parts of the send blocks; block `own` (our rank in
  /// the exchange, or -1) goes to `own_blocks` instead (the receive buffer, for an exchange
  /// that leaves our own block to us). Returns the bytes copied.
  std::size_t pack(const std::byte* from, std::byte* send, std::size_t plane,
                   std::size_t element_bytes, int own = -1, std::byte* own_blocks = nullptr) const;
  /// The received blocks' parts of leading plane `plane` -> that plane of `to`. Returns the bytes
  /// copied.
  std::size_t unpack(const std::byte* recv, std::byte* to, std::size_t plane,
                     std::size_t element_bytes) const;

 private:
  // One rank's part of the local array: its block's shape (in the array's order) and where it
  // starts in the array. Computed once; pack and unpack only add the plane.
  struct Part {
    Shape3 block;
    Shape3 offset;
  };
  static std::vector<Part> parts_along(const Shape3& shape, int split_axis, std::size_t length,
                                       int parts);

  TransposeShape shape_;
  std::size_t block_elements_;
  std::vector<Part> sent_;      // parts of `from` by destination
  std::vector<Part> received_;  // parts of `to` by source
};

}  // namespace a2afft::detail::fft
