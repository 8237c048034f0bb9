#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <a2afft/transform.hpp>

#include "geometry.hpp"

// A reshape between two decompositions of one global 3D array (issue 34): every rank holds one
// box of the array before (`from`) and one after (`to`), any tiling (bricks, pencils, slabs,
// empty boxes), each box stored in its own order. What one rank sends each peer is the
// intersection of its `from` box with the peer's `to` box, and what it receives the reverse.
// Pure, no MPI: the plan that runs it (pack, a variable-size exchange, unpack) is made from
// this, and it is unit-tested in one process.
namespace a2afft::detail::fft {

/// The intersection of two boxes (their lower corners and sizes; the order is `a`'s), empty
/// (every size 0, lower at `a`'s) when they share no point.
a2afft::Box3 intersection(const a2afft::Box3& a, const a2afft::Box3& b);

/// Why `boxes` (one per rank) do not tile an array of `shape` exactly once, or "": a box
/// reaching outside the array, two boxes sharing points, or points no box holds. The message
/// names the boxes' ranks and corners and calls the boxes `which` (e.g. "input"). An order
/// that is not a permutation of {0, 1, 2} is a problem too. O(P^2) pairs, pure.
std::string tiling_problem(const Shape3& shape, const std::vector<a2afft::Box3>& boxes,
                           std::string_view which);

/// `lower` and `size` of a box as text: `[0:4, 2:6, 0:8)`.
std::string box_to_string(const a2afft::Box3& box);

/// One rank's part of a reshape from the `from` decomposition to the `to` one (both tilings of
/// `shape`; see tiling_problem()). Each peer's part of the exchange buffers holds the points of
/// its sub-box in row-major order of the global axes, whatever either side's storage order, so
/// the two sides agree without knowing each other's order. Peers' parts follow in rank order.
class ReshapeGeometry {
 public:
  /// Throws std::logic_error when the vectors' sizes differ or `rank` is not one of them (the
  /// caller checks tilings first and names them to the user).
  ReshapeGeometry(const Shape3& shape, std::vector<a2afft::Box3> from, std::vector<a2afft::Box3> to,
                  int rank);

  /// True when every rank's `from` box is its `to` box, stored alike: nothing to move anywhere.
  bool is_identity() const { return identity_; }
  /// The points this rank sends each peer (its own part included), and receives from each.
  const std::vector<std::size_t>& send_points() const { return send_points_; }
  const std::vector<std::size_t>& recv_points() const { return recv_points_; }
  /// The sum of each (the points of this rank's `from` box, and of its `to` box).
  std::size_t send_total() const { return send_total_; }
  std::size_t recv_total() const { return recv_total_; }

  /// Copies this rank's `from` array (stored as its `from` box says) into `buffer`, each peer's
  /// sub-box at its place (row-major, peers in rank order); `element_bytes` per point.
  void pack(const std::byte* source, std::byte* buffer, std::size_t element_bytes) const;
  /// The reverse on the receiving side: `buffer` (peers' parts in rank order) into this rank's
  /// `to` array, stored as its `to` box says.
  void unpack(const std::byte* buffer, std::byte* destination, std::size_t element_bytes) const;

 private:
  bool identity_ = true;
  a2afft::Box3 from_;
  a2afft::Box3 to_;
  std::vector<a2afft::Box3> send_boxes_;  // per peer: my from ∩ peer's to
  std::vector<a2afft::Box3> recv_boxes_;  // per peer: peer's from ∩ my to
  std::vector<std::size_t> send_points_;
  std::vector<std::size_t> recv_points_;
  std::size_t send_total_ = 0;
  std::size_t recv_total_ = 0;
};

}  // namespace a2afft::detail::fft
