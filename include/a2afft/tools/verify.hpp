#pragma once

#include <mpi.h>

#include <cstddef>
#include <string>

namespace a2afft {

/// Fills the `ranks` blocks of `block_bytes` that `rank` sends (`send` holds ranks * block_bytes
/// bytes) with a pattern that encodes source, destination and byte index in full: each 8-byte
/// word of a block is a bijective hash of (source, destination, word index), so a block that
/// lands at the wrong rank or offset differs in every word. Pure.
void fill_pattern(void* send, int rank, int ranks, std::size_t block_bytes);

/// Checks an all-to-all of pattern data on every rank of `comm`: that `send` still holds what
/// fill_pattern() wrote, that `recv` holds in block j what rank j sent to this rank, and, when
/// `reference` is not nullptr, that `recv` equals it (e.g. MPI_Alltoall's result). Returns "" when
/// all is right on every rank, else the lowest failing rank's first bad byte, e.g.
/// `rank 2, wrong data: block 1, byte 5: got 0x3c, expected 0x7a`, the same on every rank.
/// Collective over `comm`.
std::string check_pattern(MPI_Comm comm, const void* send, const void* recv, const void* reference,
                          std::size_t block_bytes);

}  // namespace a2afft
