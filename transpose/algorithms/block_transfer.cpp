#include "algorithms/block_transfer.hpp"

#include "copy_bytes.hpp"

#include <cstring>

namespace a2afft::detail::algorithms {

namespace {
constexpr int kTag = 0;
}  // namespace

BlockTransfer::BlockTransfer(MPI_Comm parent, std::size_t block_bytes)
    : comm_(mpi::Comm::duplicate(parent)),
      block_bytes_(block_bytes),
      block_type_(mpi::make_block_type(block_bytes)) {}

void BlockTransfer::copy_own(const std::byte* send, std::byte* recv) const {
  copy_bytes(block(recv, rank(), block_bytes_), block(send, rank(), block_bytes_), block_bytes_);
}

void BlockTransfer::sendrecv_blocks(const std::byte* outgoing, int destination, std::byte* incoming,
                                    int source, std::size_t blocks) const {
  const int count = static_cast<int>(blocks);
  mpi::check(MPI_Sendrecv(outgoing, count, block_type_.get(), destination, kTag, incoming, count,
                          block_type_.get(), source, kTag, comm_.get(), MPI_STATUS_IGNORE),
             "MPI_Sendrecv", {.to = destination, .from = source});
}

void BlockTransfer::send(const std::byte* send, int destination) const {
  mpi::check(MPI_Send(block(send, destination, block_bytes_), 1, block_type_.get(), destination,
                      kTag, comm_.get()),
             "MPI_Send", {.to = destination});
}

void BlockTransfer::recv(std::byte* recv, int source) const {
  mpi::check(MPI_Recv(block(recv, source, block_bytes_), 1, block_type_.get(), source, kTag,
                      comm_.get(), MPI_STATUS_IGNORE),
             "MPI_Recv", {.from = source});
}

void BlockTransfer::isend_blocks(const std::byte* outgoing, int destination, std::size_t blocks,
                                 MPI_Request* request) const {
  mpi::check(MPI_Isend(outgoing, static_cast<int>(blocks), block_type_.get(), destination, kTag,
                       comm_.get(), request),
             "MPI_Isend", {.to = destination});
}

void BlockTransfer::irecv_blocks(std::byte* incoming, int source, std::size_t blocks,
                                 MPI_Request* request) const {
  mpi::check(MPI_Irecv(incoming, static_cast<int>(blocks), block_type_.get(), source, kTag,
                       comm_.get(), request),
             "MPI_Irecv", {.from = source});
}

}  // namespace a2afft::detail::algorithms
