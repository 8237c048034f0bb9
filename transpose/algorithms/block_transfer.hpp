#pragma once

#include <mpi.h>

#include <cstddef>

#include "mpi/comm.hpp"
#include "mpi/datatype.hpp"

namespace a2afft::detail::algorithms {

/// Pointer to block `index` of a buffer of equal blocks; size_t arithmetic past 2^31 bytes.
inline const std::byte* block(const std::byte* buffer, int index, std::size_t block_bytes) {
  return buffer + static_cast<std::size_t>(index) * block_bytes;
}
inline std::byte* block(std::byte* buffer, int index, std::size_t block_bytes) {
  return buffer + static_cast<std::size_t>(index) * block_bytes;
}

/// Moves whole blocks of one plan between ranks on the plan's private communicator, so tags
/// never collide with another plan's. Counts are in blocks of one committed datatype, so
/// neither a block nor a message of many blocks needs an int byte count.
class BlockTransfer {
 public:
  BlockTransfer(MPI_Comm parent, std::size_t block_bytes);

  int rank() const { return comm_.rank(); }
  int size() const { return comm_.size(); }
  std::size_t block_bytes() const { return block_bytes_; }

  /// Our own block from `send` to `recv`, without MPI.
  void copy_own(const std::byte* send, std::byte* recv) const;
  /// Sends our block for `destination` and receives the block `source` has for us.
  void sendrecv(const std::byte* send, int destination, std::byte* recv, int source) const {
    sendrecv_blocks(block(send, destination, block_bytes_), destination,
                    block(recv, source, block_bytes_), source, 1);
  }
  /// Sends `blocks` contiguous blocks from `outgoing` and receives as many into `incoming`.
  void sendrecv_blocks(const std::byte* outgoing, int destination, std::byte* incoming, int source,
                       std::size_t blocks) const;
  /// One way: block `destination` of `send` to rank `destination`; block `source` of `recv`
  /// from rank `source`.
  void send(const std::byte* send, int destination) const;
  void recv(std::byte* recv, int source) const;
  /// Block `destination` of `send` to rank `destination`, and block `source` of `recv` from it.
  void isend(const std::byte* send, int destination, MPI_Request* request) const {
    isend_blocks(block(send, destination, block_bytes_), destination, 1, request);
  }
  void irecv(std::byte* recv, int source, MPI_Request* request) const {
    irecv_blocks(block(recv, source, block_bytes_), source, 1, request);
  }
  /// `blocks` contiguous blocks to `destination`, or from `source`, as one message.
  void isend_blocks(const std::byte* outgoing, int destination, std::size_t blocks,
                    MPI_Request* request) const;
  void irecv_blocks(std::byte* incoming, int source, std::size_t blocks,
                    MPI_Request* request) const;

 private:
  mpi::Comm comm_;
  std::size_t block_bytes_;
  mpi::Datatype block_type_;  // one block, so n blocks always go as count n
};

}  // namespace a2afft::detail::algorithms
