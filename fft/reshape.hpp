#pragma once

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <a2afft/transform.hpp>

#include "exchange.hpp"
#include "reshape_geometry.hpp"
#include "spec.hpp"
#include "timing/phase_timer.hpp"
#include "variable_exchange.hpp"

namespace a2afft::detail {
class Topology;
}

// A reshape between two decompositions of a global 3D array, run: each rank packs what each
// peer's destination box holds of its source box, one variable-size exchange moves the parts
// (only to real partners), each rank unpacks into its destination box. Planned at construction
// (the boxes gathered and checked, the counts, the exchange); run() only moves data.
namespace a2afft::detail::fft {

class Reshape {
 public:
  /// Collective over `topology`'s ranks: every rank passes its own `from` and `to` box of the
  /// `shape` array (lower corner, size and storage order; any tiling, empty boxes included).
  /// Throws UsageError on every rank when either decomposition does not tile the array exactly
  /// once, naming the ranks and boxes (`from_name` and `to_name` say what to call them, e.g.
  /// "input" and "pencil"), or when `exchange` cannot run the counts. Where every rank's `from`
  /// is its `to`, stored alike, it plans nothing: is_identity(), and run() copies nothing.
  Reshape(const Topology& topology, const Shape3& shape, const a2afft::Box3& from,
          const a2afft::Box3& to, std::size_t element_bytes, const Spec& exchange,
          std::string_view from_name = "source", std::string_view to_name = "destination");
  ~Reshape();
  Reshape(const Reshape&) = delete;
  Reshape& operator=(const Reshape&) = delete;

  bool is_identity() const { return geometry_.is_identity(); }
  /// `source` (the `from` box's points, stored in its order) into `destination` (the `to`
  /// box's); they must not overlap. Collective; timed as phase `reshape`.
  void run(const std::byte* source, std::byte* destination);
  /// The exchange's describe(), or `-` for an identity.
  std::string describe() const;
  /// Bytes of the pack and unpack buffers.
  std::size_t workspace_bytes() const { return send_.size() + recv_.size(); }
  void attach_timer(PhaseTimer* timer) { timer_ = timer; }

 private:
  ReshapeGeometry geometry_;
  std::size_t element_bytes_;
  std::unique_ptr<VariableExchangePlan> exchange_;
  ExchangeBuffer send_;
  ExchangeBuffer recv_;
  PhaseTimer* timer_ = nullptr;
};

/// Every rank's `box`, gathered on every rank (rank order). Collective over `comm`.
std::vector<a2afft::Box3> gather_boxes(const a2afft::Box3& box, MPI_Comm comm);

}  // namespace a2afft::detail::fft
