// Ping-pong between two ranks: the alpha-beta machine of the cost model, measured.

#include "timing/link_costs.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "exchange.hpp"
#include "make_exchange.hpp"
#include "mpi/comm.hpp"
#include "mpi/shared_window.hpp"
#include "schedule/cost_model.hpp"

namespace a2afft::detail {
namespace {

// The median of `samples` (reordered). On a shared machine one preempted repeat (a scheduler
// slice, milliseconds) would set a mean; the exchanges' own timings report medians too.
double median_seconds(std::vector<double>& samples) {
  const auto middle = samples.begin() + static_cast<std::ptrdiff_t>(samples.size() / 2);
  std::nth_element(samples.begin(), middle, samples.end());
  return *middle;
}

// Half of one round trip of `bytes` between ranks a and b of `comm`, in seconds, the median of
// 20 trips after two warm-ups, broadcast from a; the other ranks only wait for the broadcast.
double ping_pong_seconds(MPI_Comm comm, int a, int b, std::size_t bytes) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::vector<char> buffer(bytes);
  const int count = static_cast<int>(bytes);  // at most 1 MiB
  constexpr int kRepeats = 20;
  std::vector<double> trips;
  for (int repeat = -2; repeat < kRepeats; ++repeat) {
    const double start = MPI_Wtime();
    if (rank == a) {
      MPI_Send(buffer.data(), count, MPI_CHAR, b, 0, comm);
      MPI_Recv(buffer.data(), count, MPI_CHAR, b, 0, comm, MPI_STATUS_IGNORE);
    } else if (rank == b) {
      MPI_Recv(buffer.data(), count, MPI_CHAR, a, 0, comm, MPI_STATUS_IGNORE);
      MPI_Send(buffer.data(), count, MPI_CHAR, a, 0, comm);
    }
    if (repeat >= 0) trips.push_back((MPI_Wtime() - start) / 2);
  }
  double result = median_seconds(trips);
  mpi::check(MPI_Bcast(&result, 1, MPI_DOUBLE, a, comm), "MPI_Bcast(ping-pong)");
  return result;
}

// The two trips that draw the line: alpha from 8 B, beta from the slope up to 1 MiB.
constexpr std::size_t kSmall = 8, kLarge = std::size_t{1} << 20;

// alpha from 8 B, beta from the slope between 8 B and 1 MiB.
schedule::LinkCost measure_link(MPI_Comm comm, int a, int b) {
  const double small = ping_pong_seconds(comm, a, b, kSmall);
  const double large = ping_pong_seconds(comm, a, b, kLarge);
  return {small, std::max(0.0, (large - small) / static_cast<double>(kLarge - kSmall))};
}

// The sizes between the 8 B and 1 MiB trips at which measure_size_factors also times a
// ping-pong: a protocol switch (Open MPI's shared memory goes from eager to rendezvous at 4 KiB)
// or the caches bend the line that alpha and beta draw through the two ends.
constexpr std::size_t kRungBytes[] = {64, 512, 4096, 32768, 262144};
// measure_link's line (alpha, beta) bent to the trips of every rung (schedule::bent_line).
void measure_size_factors(MPI_Comm comm, int a, int b, const schedule::LinkCost& line,
                          MeasuredLinks& links) {
  std::vector<schedule::MessageTrip> trips;
  for (const std::size_t rung : kRungBytes)
    trips.push_back({static_cast<double>(rung), ping_pong_seconds(comm, a, b, rung)});
  const schedule::SizeFactors factors =
      schedule::bent_line(line, trips, static_cast<double>(kLarge));
  links.latency_factors = factors.latency;
  links.bandwidth_factors = factors.bandwidth;
}

// Every rank in `partner` (partner[r] >= 0) swaps `bytes` with its partner at once, three times
// after one warm-up; returns the slowest rank's median time of one swap, on every rank.
double concurrent_swap_seconds(MPI_Comm comm, const std::vector<int>& partner, std::size_t bytes) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const int peer = partner[static_cast<std::size_t>(rank)];
  std::vector<char> send(peer >= 0 ? bytes : 0), recv(send.size());
  const int count = static_cast<int>(send.size());  // at most 1 MiB
  constexpr int kRepeats = 3;
  std::vector<double> swaps;
  for (int repeat = -1; repeat < kRepeats; ++repeat) {
    mpi::check(MPI_Barrier(comm), "MPI_Barrier(swap)");
    const double start = MPI_Wtime();
    if (peer >= 0) {
      MPI_Sendrecv(send.data(), count, MPI_CHAR, peer, 1, recv.data(), count, MPI_CHAR, peer, 1,
                   comm, MPI_STATUS_IGNORE);
    }
    if (repeat >= 0) swaps.push_back(MPI_Wtime() - start);
  }
  double slowest = median_seconds(swaps);
  mpi::check(MPI_Allreduce(MPI_IN_PLACE, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm),
             "MPI_Allreduce(swap)");
  return slowest;
}

// The ranks of `node`, in rank order.
std::vector<int> ranks_of_node(const Topology& topology, int node) {
  std::vector<int> ranks;
  for (int rank = 0; rank < topology.size(); ++rank)
    if (topology.node_of(rank) == node) ranks.push_back(rank);
  return ranks;
}

constexpr std::size_t kRateBytes = std::size_t{1} << 20;

// R_N: the k = min(|A|, |B|) ranks of node A each swap 1 MiB with their counterpart on node B
// at once; each node's link out carries k MiB.
void measure_injection(const Topology& topology, int other_node, MeasuredLinks& links) {
  const std::vector<int> here = ranks_of_node(topology, topology.node_of(0));
  const std::vector<int> there = ranks_of_node(topology, other_node);
  std::vector<int> partner(static_cast<std::size_t>(topology.size()), -1);
  const std::size_t pairs = std::min(here.size(), there.size());
  for (std::size_t i = 0; i < pairs; ++i) {
    partner[static_cast<std::size_t>(here[i])] = there[i];
    partner[static_cast<std::size_t>(there[i])] = here[i];
  }
  const double seconds = concurrent_swap_seconds(topology.comm(), partner, kRateBytes);
  links.injecting_ranks = static_cast<long>(pairs);
  links.node_injection_bytes_per_second =
      static_cast<double>(pairs) * static_cast<double>(kRateBytes) / seconds;
}

// The node's copy rate: rank 0's node's ranks swap 1 MiB in pairs (0-1, 2-3, ...) at once.
void measure_copy(const Topology& topology, MeasuredLinks& links) {
  const std::vector<int> here = ranks_of_node(topology, topology.node_of(0));
  std::vector<int> partner(static_cast<std::size_t>(topology.size()), -1);
  const std::size_t paired = here.size() / 2 * 2;
  for (std::size_t i = 0; i < paired; i += 2) {
    partner[static_cast<std::size_t>(here[i])] = here[i + 1];
    partner[static_cast<std::size_t>(here[i + 1])] = here[i];
  }
  const double seconds = concurrent_swap_seconds(topology.comm(), partner, kRateBytes);
  links.copying_ranks = static_cast<long>(paired);
  links.node_copy_bytes_per_second =
      static_cast<double>(paired) * static_cast<double>(kRateBytes) / seconds;
}

// The gap between messages in flight together, as a round of the nonblocking rows posts them:
// a posts `count` 8 B MPI_Isend to b (b the matching MPI_Irecv), both wait, b answers once;
// (T(32) - T(1)) / 31, the best of 5 each.
double message_gap_seconds(MPI_Comm comm, int a, int b) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const auto burst = [&](int count) {
    std::vector<char> words(static_cast<std::size_t>(count) * 8);
    std::vector<MPI_Request> requests(static_cast<std::size_t>(count), MPI_REQUEST_NULL);
    double best = 1e30;
    for (int repeat = 0; repeat < 5; ++repeat) {
      const double start = MPI_Wtime();
      for (int k = 0; k < count && (rank == a || rank == b); ++k) {
        char* word = words.data() + 8 * k;
        if (rank == a) MPI_Isend(word, 8, MPI_CHAR, b, 2, comm, &requests[std::size_t(k)]);
        if (rank == b) MPI_Irecv(word, 8, MPI_CHAR, a, 2, comm, &requests[std::size_t(k)]);
      }
      MPI_Waitall(count, requests.data(), MPI_STATUSES_IGNORE);
      if (rank == b) MPI_Send(words.data(), 1, MPI_CHAR, a, 3, comm);
      if (rank == a) MPI_Recv(words.data(), 1, MPI_CHAR, b, 3, comm, MPI_STATUS_IGNORE);
      best = std::min(best, MPI_Wtime() - start);
    }
    return best;
  };
  const double one = burst(1);
  double gap = std::max(0.0, (burst(32) - one) / 31);
  mpi::check(MPI_Bcast(&gap, 1, MPI_DOUBLE, a, comm), "MPI_Bcast(gap)");
  return gap;
}

// The exchange's own cost per round: `pairwise` with 1 B blocks (P - 1 rounds of one byte)
// on the whole job, its slowest rank's best of 3 after a warm-up, less what the model charges
// its messages on `links`, per round.
double round_overhead_seconds(const Topology& topology, const MeasuredLinks& links) {
  const long ranks = topology.size();
  const std::unique_ptr<ExchangePlan> plan = make_exchange("pairwise", topology, 1);
  std::vector<std::byte> send(static_cast<std::size_t>(ranks)), recv(send.size());
  double best = 1e30;
  for (int repeat = -1; repeat < 3; ++repeat) {
    mpi::check(MPI_Barrier(topology.comm()), "MPI_Barrier(round overhead)");
    const double start = MPI_Wtime();
    plan->run(send.data(), recv.data());
    double seconds = MPI_Wtime() - start;
    mpi::check(MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, topology.comm()),
               "MPI_Allreduce(round overhead)");
    if (repeat >= 0) best = std::min(best, seconds);
  }
  const long per_node = topology.nodes_equal() ? topology.node_size(0) : 1;
  schedule::ModelInputs inputs = schedule::measured_inputs(ranks, per_node, 1, links);
  inputs.round_overhead_seconds = 0;
  const double messages = schedule::model_direct(inputs, "pairwise").seconds;
  return std::max(0.0, (best - messages) / static_cast<double>(ranks - 1));
}

// One stage of a node synchronisation: the ranks of each node make their stores to node shared
// memory visible as the shared-memory leader rows do (MPI_Win_sync, a barrier of the node,
// MPI_Win_sync), 20 in a row after 2 warm-ups; rank 0's node's slowest rank's mean per
// synchronisation, divided by ceil(log2 q) for its q ranks (a barrier's stages), on every rank.
// 0 on a node of one rank, which has no stages.
double node_sync_stage_seconds(const Topology& topology) {
  const MPI_Comm node = topology.node_comm();
  int node_ranks = 1;
  MPI_Comm_size(node, &node_ranks);
  const mpi::SharedWindow window(node, sizeof(double));
  constexpr int kSyncs = 20;
  double seconds = 0;
  for (int repeat = -2; repeat < kSyncs; ++repeat) {
    if (repeat == 0) seconds = MPI_Wtime();
    window.sync();
    mpi::check(MPI_Barrier(node), "MPI_Barrier(node sync)");
    window.sync();
  }
  seconds = (MPI_Wtime() - seconds) / kSyncs;
  mpi::check(MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, node),
             "MPI_Allreduce(node sync)");
  const double stages = std::ceil(std::log2(static_cast<double>(node_ranks)));
  double stage = stages > 0 ? seconds / stages : 0;
  mpi::check(MPI_Bcast(&stage, 1, MPI_DOUBLE, 0, topology.comm()), "MPI_Bcast(node sync)");
  return stage;
}

constexpr std::size_t kHostCopyBytes = std::size_t{64} << 20;

// Seconds of the fastest of 5 runs of `copy` after one warm-up (MPI_Wtime: inside a simulator the
// host time SMPI injects, which is what the exchanges' own copies cost there).
template <typename Copy>
double best_copy_seconds(const Copy& copy) {
  double best = 1e30;
  for (int repeat = -1; repeat < 5; ++repeat) {
    const double start = MPI_Wtime();
    copy();
    if (repeat >= 0) best = std::min(best, MPI_Wtime() - start);
  }
  return best;
}

// The host's copy rate, on rank 0 alone: one 64 MiB memcpy (beyond the caches: a leader's
// node-sized buffers). A simulator that injects no host time (smpi/simulate-computation:no)
// makes the copy (nearly) free: MPI_Wtime's own few ns give a rate far beyond any memory's, or
// no time at all, which 0 says. Broadcast from rank 0.
double host_copy_bytes_per_second(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  double rate = 0;
  if (rank == 0) {
    std::vector<std::byte> from(kHostCopyBytes, std::byte{1}), to(kHostCopyBytes, std::byte{2});
    const double bulk =
        best_copy_seconds([&] { std::memcpy(to.data(), from.data(), kHostCopyBytes); });
    rate = bulk > 0 ? static_cast<double>(kHostCopyBytes) / bulk : 0;
  }
  mpi::check(MPI_Bcast(&rate, 1, MPI_DOUBLE, 0, comm), "MPI_Bcast(host copy rate)");
  return rate;
}

// What a memcpy call costs this rank beyond its bytes: 64 Ki blocks of 8 B scattered over its
// own 512 KiB, the best of 5, less their bytes at `rate`.
double block_copy_call_seconds(double rate) {
  constexpr std::size_t kCalls = std::size_t{1} << 16, kBlockBytes = 8;
  std::vector<std::byte> from(kCalls * kBlockBytes, std::byte{1}), to(from.size(), std::byte{2});
  // A run-time size, as the exchanges' block sizes are, so that each copy is a memcpy call;
  // destinations strided by a prime so that the copies are not one stream.
  volatile std::size_t block_bytes = kBlockBytes;
  const double seconds = best_copy_seconds([&] {
    const std::size_t size = block_bytes;
    for (std::size_t i = 0; i < kCalls; ++i)
      std::memcpy(to.data() + (i * 7919 % kCalls) * size, from.data() + i * size, size);
  });
  const double bytes_seconds = rate > 0 ? static_cast<double>(kCalls * kBlockBytes) / rate : 0;
  return std::max(0.0, (seconds - bytes_seconds) / static_cast<double>(kCalls));
}

// The call cost as an exchange's block-by-block copies meet it: every rank of rank 0's node
// copies at once (in an exchange they all copy, sharing the caches; in a simulator they run one
// after another on this machine, each evicting the others' data); the slowest rank's, on every
// rank.
double host_copy_call_seconds(const Topology& topology, double rate) {
  double call =
      topology.node_of(topology.rank()) == topology.node_of(0) ? block_copy_call_seconds(rate) : 0;
  mpi::check(MPI_Allreduce(MPI_IN_PLACE, &call, 1, MPI_DOUBLE, MPI_MAX, topology.comm()),
             "MPI_Allreduce(host copy call)");
  return call;
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
  if (topology.size() > 1) {
    const int peer = other_node > 0 ? other_node : same_node;
    measure_size_factors(topology.comm(), 0, peer, other_node > 0 ? links.inter : links.intra,
                         links);
  }
  if (other_node > 0) measure_injection(topology, topology.node_of(other_node), links);
  if (same_node > 0) measure_copy(topology, links);
  if (topology.size() > 1)
    links.message_overhead_seconds =
        message_gap_seconds(topology.comm(), 0, other_node > 0 ? other_node : same_node);
  links.host_copy_bytes_per_second = host_copy_bytes_per_second(topology.comm());
  links.host_copy_call_seconds = host_copy_call_seconds(topology, links.host_copy_bytes_per_second);
  if (topology.size() > 1) links.round_overhead_seconds = round_overhead_seconds(topology, links);
  links.node_sync_stage_seconds = node_sync_stage_seconds(topology);
  return links;
}

}  // namespace a2afft::detail
