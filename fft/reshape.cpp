#include "reshape.hpp"

#include <mpi.h>

#include <cstdint>

#include "error.hpp"
#include "make_exchange.hpp"
#include "mpi/comm.hpp"
#include "topology/topology.hpp"

namespace a2afft::detail::fft {
namespace {

// A box as 12 integers (lower, size, order), the unit of gather_boxes.
constexpr int kBoxWords = 9 + 3;

// The decompositions' tiling problems, the same on every rank (every rank holds every box).
void check_tilings(const Shape3& shape, const std::vector<a2afft::Box3>& from,
                   const std::vector<a2afft::Box3>& to, std::string_view from_name,
                   std::string_view to_name) {
  for (const auto& [boxes, name] : {std::pair{&from, from_name}, std::pair{&to, to_name}}) {
    if (const std::string problem = tiling_problem(shape, *boxes, name); !problem.empty()) {
      throw UsageError(problem);
    }
  }
}

// The geometry of this rank's part of the reshape, the decompositions checked first.
ReshapeGeometry planned_geometry(const Topology& topology, const Shape3& shape,
                                 const a2afft::Box3& from, const a2afft::Box3& to,
                                 std::string_view from_name, std::string_view to_name) {
  const std::vector<a2afft::Box3> sources = gather_boxes(from, topology.comm());
  const std::vector<a2afft::Box3> destinations = gather_boxes(to, topology.comm());
  check_tilings(shape, sources, destinations, from_name, to_name);
  return ReshapeGeometry(shape, sources, destinations, topology.rank());
}

std::vector<std::size_t> times(const std::vector<std::size_t>& points, std::size_t bytes) {
  std::vector<std::size_t> result;
  for (const std::size_t count : points)
    result.push_back(count * bytes);
  return result;
}

}  // namespace

std::vector<a2afft::Box3> gather_boxes(const a2afft::Box3& box, MPI_Comm comm) {
  std::uint64_t mine[kBoxWords];
  for (std::size_t d = 0; d < 3; ++d) {
    mine[d] = box.lower[d];
    mine[3 + d] = box.size[d];
    mine[6 + d] = static_cast<std::uint64_t>(static_cast<std::int64_t>(box.order[d]));
    mine[9 + d] = 0;
  }
  int ranks = 0;
  MPI_Comm_size(comm, &ranks);
  std::vector<std::uint64_t> all(static_cast<std::size_t>(ranks) * kBoxWords);
  mpi::check(
      MPI_Allgather(mine, kBoxWords, MPI_UINT64_T, all.data(), kBoxWords, MPI_UINT64_T, comm),
      "MPI_Allgather(boxes)");
  std::vector<a2afft::Box3> boxes(static_cast<std::size_t>(ranks));
  for (std::size_t r = 0; r < boxes.size(); ++r) {
    const std::uint64_t* words = all.data() + r * kBoxWords;
    for (std::size_t d = 0; d < 3; ++d) {
      boxes[r].lower[d] = words[d];
      boxes[r].size[d] = words[3 + d];
      boxes[r].order[d] = static_cast<int>(static_cast<std::int64_t>(words[6 + d]));
    }
  }
  return boxes;
}

Reshape::Reshape(const Topology& topology, const Shape3& shape, const a2afft::Box3& from,
                 const a2afft::Box3& to, std::size_t element_bytes, const Spec& exchange,
                 std::string_view from_name, std::string_view to_name)
    : geometry_(planned_geometry(topology, shape, from, to, from_name, to_name)),
      element_bytes_(element_bytes) {
  if (geometry_.is_identity()) return;
  const VariableProblem problem{topology,
                                PeerBytes::packed(times(geometry_.send_points(), element_bytes)),
                                PeerBytes::packed(times(geometry_.recv_points(), element_bytes))};
  exchange_ = make_variable_exchange(exchange, problem);
  send_ = allocate_aligned(std::max<std::size_t>(1, geometry_.send_total() * element_bytes));
  recv_ = allocate_aligned(std::max<std::size_t>(1, geometry_.recv_total() * element_bytes));
}

Reshape::~Reshape() = default;

void Reshape::run(const std::byte* source, std::byte* destination) {
  if (is_identity()) return;
  const ScopedPhase timed(timer_, "reshape");
  geometry_.pack(source, send_.data(), element_bytes_);
  exchange_->run(send_.data(), recv_.data());
  geometry_.unpack(recv_.data(), destination, element_bytes_);
}

std::string Reshape::describe() const {
  return exchange_ ? exchange_->describe() : std::string("-");
}

}  // namespace a2afft::detail::fft
