#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "exchange.hpp"
#include "geometry.hpp"

namespace a2afft::fft {

/// One global transpose among the `parts` ranks of a communicator, as pack -> exchange ->
/// unpack. The local array of shape `from` holds all of axis `split_axis` and our part of
/// axis `gather_axis`; afterwards the array of shape `to` holds our part of `split_axis` and
/// all of `gather_axis`. Blocks are padded to the largest part so the uniform exchange contract
/// holds with uneven splits. Axis 0 of both arrays is never split nor gathered, so packing and
/// unpacking go one leading plane at a time: Pencil3d does each right after (or before) that
/// plane's FFT, while the plane is still in cache.
class TransposeStep {
 public:
  struct Axes {
    int split_axis;
    std::size_t split_length;  // global length of the split axis
    int gather_axis;
    std::size_t gather_length;  // global length of the gathered axis
  };

  TransposeStep(const Shape3& from, const Shape3& to, Axes axes, int parts,
                bool swap_leading = false);

  /// Elements of one padded block; the same on every rank of the communicator.
  std::size_t block_elements() const { return block_elements_; }
  std::size_t buffer_elements() const { return block_elements_ * static_cast<std::size_t>(parts_); }
  bool is_identity() const { return parts_ == 1; }

  /// Leading plane `plane` of `from` -> its parts of the send blocks; block `own` (our rank in
  /// the exchange, or -1) goes to `own_blocks` instead (the receive buffer, for an exchange
  /// that leaves our own block to us).
  void pack(const std::byte* from, std::byte* send, std::size_t plane, std::size_t element_bytes,
            int own = -1, std::byte* own_blocks = nullptr) const;
  /// The received blocks' parts of leading plane `plane` -> that plane of `to`.
  void unpack(const std::byte* recv, std::byte* to, std::size_t plane,
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

  Shape3 from_;
  Shape3 to_;
  int parts_;
  bool swap_leading_;
  std::size_t block_elements_;
  std::vector<Part> sent_;      // parts of `from` by destination
  std::vector<Part> received_;  // parts of `to` by source
};

}  // namespace a2afft::fft
