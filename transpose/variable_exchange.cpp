#include "variable_exchange.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <numeric>

#include "error.hpp"
#include "mpi/comm.hpp"
#include "topology/topology.hpp"

namespace a2afft::detail {

std::size_t PeerBytes::extent() const {
  std::size_t end = 0;
  for (std::size_t j = 0; j < bytes.size() && j < offsets.size(); ++j) {
    if (bytes[j] > 0) end = std::max(end, offsets[j] + bytes[j]);
  }
  return end;
}

std::size_t PeerBytes::total() const {
  return std::accumulate(bytes.begin(), bytes.end(), std::size_t{0});
}

PeerBytes PeerBytes::packed(std::vector<std::size_t> bytes) {
  PeerBytes peers{std::move(bytes), {}};
  std::size_t offset = 0;
  for (const std::size_t count : peers.bytes) {
    peers.offsets.push_back(offset);
    offset += count;
  }
  return peers;
}

namespace {

// What is wrong with one rank's own counts, or "".
std::string local_problem(const VariableProblem& problem) {
  const auto ranks = static_cast<std::size_t>(problem.topology.size());
  const std::pair<const char*, const std::vector<std::size_t>*> sides[] = {
      {"send bytes", &problem.send.bytes},
      {"send offsets", &problem.send.offsets},
      {"recv bytes", &problem.recv.bytes},
      {"recv offsets", &problem.recv.offsets}};
  for (const auto& [what, values] : sides) {
    if (values->size() != ranks) {
      return std::string(what) + " hold " + std::to_string(values->size()) +
             " values; expected one per rank, " + std::to_string(ranks);
    }
  }
  // Two peers writing the same receive bytes would leave one of them wrong.
  std::vector<std::size_t> peers;
  for (std::size_t j = 0; j < ranks; ++j) {
    if (problem.recv.bytes[j] > 0) peers.push_back(j);
  }
  std::sort(peers.begin(), peers.end(), [&](std::size_t a, std::size_t b) {
    return problem.recv.offsets[a] < problem.recv.offsets[b];
  });
  for (std::size_t k = 1; k < peers.size(); ++k) {
    const std::size_t before = peers[k - 1], after = peers[k];
    if (problem.recv.offsets[before] + problem.recv.bytes[before] > problem.recv.offsets[after]) {
      return "the receive segments of ranks " + std::to_string(before) + " and " +
             std::to_string(after) + " overlap (offsets " +
             std::to_string(problem.recv.offsets[before]) + " + " +
             std::to_string(problem.recv.bytes[before]) + " bytes and " +
             std::to_string(problem.recv.offsets[after]) + ")";
    }
  }
  return "";
}

void throw_agreed(const std::string& local, MPI_Comm comm) {
  if (const mpi::RankMessage error = mpi::agreed_message(local, comm); !error.empty()) {
    throw UsageError("variable-size exchange: rank " + std::to_string(error.rank) + ": " +
                     error.text);
  }
}

}  // namespace

void check_variable_problem(const VariableProblem& problem) {
  const MPI_Comm comm = problem.topology.comm();
  throw_agreed(local_problem(problem), comm);
  // What each peer says it sends us, against what we expect from it.
  const auto ranks = static_cast<std::size_t>(problem.topology.size());
  std::vector<std::uint64_t> sending(problem.send.bytes.begin(), problem.send.bytes.end());
  std::vector<std::uint64_t> sent_here(ranks);
  mpi::check(MPI_Alltoall(sending.data(), 1, MPI_UINT64_T, sent_here.data(), 1, MPI_UINT64_T, comm),
             "MPI_Alltoall(counts)");
  std::string mismatch;
  for (std::size_t j = 0; j < ranks && mismatch.empty(); ++j) {
    if (sent_here[j] == problem.recv.bytes[j]) continue;
    mismatch = "expects " + std::to_string(problem.recv.bytes[j]) + " bytes from rank " +
               std::to_string(j) + ", which sends it " + std::to_string(sent_here[j]);
  }
  throw_agreed(mismatch, comm);
}

}  // namespace a2afft::detail
