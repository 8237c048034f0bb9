// The tools' pattern check (include/a2afft/tools/verify.hpp) over the internal pattern of
// pattern.hpp, with the verdict agreed over the ranks.

#include <a2afft/tools/verify.hpp>

#include <span>

#include "mpi/comm.hpp"
#include "pattern.hpp"

namespace a2afft {
namespace {

// This rank's first failure, or "".
std::string local_failure(std::span<const std::byte> send, std::span<const std::byte> recv,
                          const std::byte* reference, int rank, int ranks,
                          std::size_t block_bytes) {
  if (auto bad = detail::verify::check_send_blocks(send, rank, ranks, block_bytes)) {
    return "send buffer was written: " + bad->describe();
  }
  if (auto bad = detail::verify::check_received_blocks(recv, rank, ranks, block_bytes)) {
    return "wrong data: " + bad->describe();
  }
  if (reference != nullptr) {
    if (auto bad = detail::verify::compare_blocks(recv, {reference, recv.size()}, block_bytes)) {
      return "differs from the reference: " + bad->describe();
    }
  }
  return {};
}

}  // namespace

void fill_pattern(void* send, int rank, int ranks, std::size_t block_bytes) {
  detail::verify::fill_send_blocks({static_cast<std::byte*>(send), block_bytes * ranks}, rank,
                                   ranks, block_bytes);
}

std::string check_pattern(MPI_Comm comm, const void* send, const void* recv, const void* reference,
                          std::size_t block_bytes) {
  int rank = 0, ranks = 0;
  detail::mpi::check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  detail::mpi::check(MPI_Comm_size(comm, &ranks), "MPI_Comm_size");
  const std::size_t bytes = block_bytes * static_cast<std::size_t>(ranks);
  const std::string failure = local_failure(
      {static_cast<const std::byte*>(send), bytes}, {static_cast<const std::byte*>(recv), bytes},
      static_cast<const std::byte*>(reference), rank, ranks, block_bytes);
  const detail::mpi::RankMessage lowest = detail::mpi::agreed_message(failure, comm);
  if (lowest.empty()) return {};
  return "rank " + std::to_string(lowest.rank) + ", " + lowest.text;
}

}  // namespace a2afft
