// Ping-pong between two ranks: the alpha-beta machine of the cost model, measured.

#include "timing/link_costs.hpp"

#include <algorithm>
#include <vector>

#include "mpi/comm.hpp"

namespace a2afft::detail {
namespace {

// Half of one round trip of `bytes` between ranks a and b of `comm`, in seconds, averaged over
// 20 trips after two warm-ups, broadcast from a; the other ranks only wait for the broadcast.
double ping_pong_seconds(MPI_Comm comm, int a, int b, std::size_t bytes) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::vector<char> buffer(bytes);
  const int count = static_cast<int>(bytes);  // at most 1 MiB
  constexpr int kRepeats = 20;
  double seconds = 0;
  for (int repeat = -2; repeat < kRepeats; ++repeat) {
    const double start = MPI_Wtime();
    if (rank == a) {
      MPI_Send(buffer.data(), count, MPI_CHAR, b, 0, comm);
      MPI_Recv(buffer.data(), count, MPI_CHAR, b, 0, comm, MPI_STATUS_IGNORE);
    } else if (rank == b) {
      MPI_Recv(buffer.data(), count, MPI_CHAR, a, 0, comm, MPI_STATUS_IGNORE);
      MPI_Send(buffer.data(), count, MPI_CHAR, a, 0, comm);
    }
    if (repeat >= 0) seconds += (MPI_Wtime() - start) / 2;
  }
  double result = seconds / kRepeats;
  mpi::check(MPI_Bcast(&result, 1, MPI_DOUBLE, a, comm), "MPI_Bcast(ping-pong)");
  return result;
}

// alpha from 8 B, beta from the slope between 8 B and 1 MiB.
schedule::LinkCost measure_link(MPI_Comm comm, int a, int b) {
  constexpr std::size_t kSmall = 8, kLarge = std::size_t{1} << 20;
  const double small = ping_pong_seconds(comm, a, b, kSmall);
  const double large = ping_pong_seconds(comm, a, b, kLarge);
  return {small, std::max(0.0, (large - small) / static_cast<double>(kLarge - kSmall))};
}

}  // namespace

MeasuredLinks measure_links(const Topology& topology) {
  int same_node = -1, other_node = -1;
  for (int rank = 1; rank < topology.size(); ++rank) {
    if (topology.node_of(rank) == topology.node_of(0) && same_node < 0) same_node = rank;
    if (topology.node_of(rank) != topology.node_of(0) && other_node < 0) other_node = rank;
  }
  MeasuredLinks links;
  if (same_node > 0) links.intra = measure_link(topology.comm(), 0, same_node);
  if (other_node > 0) links.inter = measure_link(topology.comm(), 0, other_node);
  links.intra_measured = same_node > 0;
  links.inter_measured = other_node > 0;
  if (!links.intra_measured) links.intra = links.inter;
  if (!links.inter_measured) links.inter = links.intra;
  return links;
}

}  // namespace a2afft::detail
