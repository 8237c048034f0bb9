#include "reshape_geometry.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace a2afft::detail::fft {
namespace {

bool is_permutation_of_axes(const std::array<int, 3>& order) {
  std::array<int, 3> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  return sorted == std::array<int, 3>{0, 1, 2};
}

bool same_box(const a2afft::Box3& a, const a2afft::Box3& b) {
  return a.lower == b.lower && a.size == b.size && (a.elements() == 0 || a.order == b.order);
}

// Calls copy(stored, canonical, points) for every run of `sub` (inside `box`): `stored` the
// run's first point in `box`'s storage, `canonical` in the row-major order of `sub`. Runs are
// rows along axis 2 where the box stores axis 2 fastest (both engine layouts do), else points.
template <typename Copy>
void for_each_run(const a2afft::Box3& box, const a2afft::Box3& sub, Copy copy) {
  const std::size_t run = box.order[2] == 2 ? sub.size[2] : 1;
  if (run == 0) return;
  std::size_t canonical = 0;
  for (std::size_t i = 0; i < sub.size[0]; ++i)
    for (std::size_t j = 0; j < sub.size[1]; ++j)
      for (std::size_t k = 0; k < sub.size[2]; k += run) {
        const std::array<std::size_t, 3> at{sub.lower[0] + i, sub.lower[1] + j, sub.lower[2] + k};
        copy(box.local_index(at), canonical, run);
        canonical += run;
      }
}

}  // namespace

a2afft::Box3 intersection(const a2afft::Box3& a, const a2afft::Box3& b) {
  a2afft::Box3 result;
  result.order = a.order;
  result.lower = a.lower;
  for (std::size_t d = 0; d < 3; ++d) {
    const std::size_t low = std::max(a.lower[d], b.lower[d]);
    const std::size_t high = std::min(a.lower[d] + a.size[d], b.lower[d] + b.size[d]);
    if (high <= low) return {a.lower, {0, 0, 0}, a.order};
    result.lower[d] = low;
    result.size[d] = high - low;
  }
  return result;
}

std::string box_to_string(const a2afft::Box3& box) {
  std::string text = "[";
  for (std::size_t d = 0; d < 3; ++d) {
    text += (d == 0 ? "" : ", ") + std::to_string(box.lower[d]) + ":" +
            std::to_string(box.lower[d] + box.size[d]);
  }
  return text + ")";
}

std::string tiling_problem(const Shape3& shape, const std::vector<a2afft::Box3>& boxes,
                           std::string_view which) {
  const std::string kind(which);
  const auto named = [&](std::size_t rank) {
    return "rank " + std::to_string(rank) + "'s " + kind + " box " + box_to_string(boxes[rank]);
  };
  std::size_t covered = 0;
  for (std::size_t rank = 0; rank < boxes.size(); ++rank) {
    const a2afft::Box3& box = boxes[rank];
    if (!is_permutation_of_axes(box.order)) {
      return named(rank) + " has order {" + std::to_string(box.order[0]) + ", " +
             std::to_string(box.order[1]) + ", " + std::to_string(box.order[2]) +
             "}; expected a permutation of {0, 1, 2}";
    }
    for (std::size_t d = 0; d < 3 && box.elements() > 0; ++d) {
      if (box.lower[d] + box.size[d] > shape[d]) {
        return named(rank) + " reaches outside the " + shape_to_string(shape) + " array";
      }
    }
    covered += box.elements();
  }
  for (std::size_t a = 0; a < boxes.size(); ++a) {
    if (boxes[a].elements() == 0) continue;
    for (std::size_t b = a + 1; b < boxes.size(); ++b) {
      if (intersection(boxes[a], boxes[b]).elements() > 0) {
        return named(a) + " and " + named(b) + " overlap; each point must be in one box";
      }
    }
  }
  const std::size_t total = shape[0] * shape[1] * shape[2];
  if (covered != total) {
    return "the " + kind + " boxes hold " + std::to_string(covered) + " of the " +
           std::to_string(total) + " points of the " + shape_to_string(shape) +
           " array; together they must hold every point once";
  }
  return {};
}

ReshapeGeometry::ReshapeGeometry(const Shape3& shape, std::vector<a2afft::Box3> from,
                                 std::vector<a2afft::Box3> to, int rank) {
  (void)shape;  // the tilings were checked against it; the boxes carry the rest
  if (from.size() != to.size() || rank < 0 || static_cast<std::size_t>(rank) >= from.size()) {
    throw std::logic_error("a reshape of mismatched decompositions");
  }
  const auto me = static_cast<std::size_t>(rank);
  from_ = from[me];
  to_ = to[me];
  for (std::size_t peer = 0; peer < from.size(); ++peer) {
    identity_ = identity_ && same_box(from[peer], to[peer]);
    send_boxes_.push_back(intersection(from_, to[peer]));
    recv_boxes_.push_back(intersection(from[peer], to_));
    send_points_.push_back(send_boxes_.back().elements());
    recv_points_.push_back(recv_boxes_.back().elements());
    send_total_ += send_points_.back();
    recv_total_ += recv_points_.back();
  }
}

void ReshapeGeometry::pack(const std::byte* source, std::byte* buffer,
                           std::size_t element_bytes) const {
  std::size_t start = 0;
  for (std::size_t peer = 0; peer < send_boxes_.size(); ++peer) {
    std::byte* part = buffer + start * element_bytes;
    for_each_run(from_, send_boxes_[peer],
                 [&](std::size_t stored, std::size_t canonical, std::size_t points) {
                   std::memcpy(part + canonical * element_bytes, source + stored * element_bytes,
                               points * element_bytes);
                 });
    start += send_points_[peer];
  }
}

void ReshapeGeometry::unpack(const std::byte* buffer, std::byte* destination,
                             std::size_t element_bytes) const {
  std::size_t start = 0;
  for (std::size_t peer = 0; peer < recv_boxes_.size(); ++peer) {
    const std::byte* part = buffer + start * element_bytes;
    for_each_run(to_, recv_boxes_[peer],
                 [&](std::size_t stored, std::size_t canonical, std::size_t points) {
                   std::memcpy(destination + stored * element_bytes,
                               part + canonical * element_bytes, points * element_bytes);
                 });
    start += recv_points_[peer];
  }
}

}  // namespace a2afft::detail::fft
