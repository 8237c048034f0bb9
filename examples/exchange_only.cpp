// a2afft as a plain all-to-all: plan an exchange on MPI_COMM_WORLD, fill every block with bytes
// that encode (source rank, destination rank, byte index), run it, and check every byte that
// arrived. Prints the backend that ran and PASS or FAIL; exits non-zero on failure.
//
//     mpiexec -n 4 ./exchange_only [spec] [block_bytes]     (defaults: auto, 1000)

#include <mpi.h>

#include <a2afft/a2afft.hpp>

#include <cstddef>
#include <cstdio>
#include <string>

namespace {

// The byte that `source` sends to `destination` at `index` of its block.
std::byte pattern(int source, int destination, std::size_t index) {
  return static_cast<std::byte>((source * 131 + destination * 31 + index * 7 + index / 256) % 251);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const std::string spec = argc > 1 ? argv[1] : "auto";
  const std::size_t block_bytes = argc > 2 ? std::stoul(argv[2]) : 1000;

  long wrong = 0;
  try {
    // Planning is collective and happens once; run() can then be called as often as needed.
    const auto exchange = a2afft::make_exchange(MPI_COMM_WORLD, block_bytes, spec);
    // Memory from allocate() saves the shared-memory backends a copy; any memory works.
    const a2afft::Buffer send = exchange->allocate(exchange->buffer_bytes());
    const a2afft::Buffer recv = exchange->allocate(exchange->buffer_bytes());
    for (int to = 0; to < exchange->ranks(); ++to) {
      for (std::size_t i = 0; i < block_bytes; ++i) {
        send.data()[to * block_bytes + i] = pattern(rank, to, i);
      }
    }

    exchange->run(send.data(), recv.data());

    for (int from = 0; from < exchange->ranks(); ++from) {
      for (std::size_t i = 0; i < block_bytes; ++i) {
        if (recv.data()[from * block_bytes + i] != pattern(from, rank, i)) ++wrong;
      }
    }
    long wrong_anywhere = 0;
    MPI_Allreduce(&wrong, &wrong_anywhere, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
      std::printf("exchange: %s, %d ranks, %zu-byte blocks\n", exchange->describe().c_str(),
                  exchange->ranks(), exchange->block_bytes());
      std::printf("%s: %ld wrong bytes\n", wrong_anywhere == 0 ? "PASS" : "FAIL", wrong_anywhere);
    }
    wrong = wrong_anywhere;
  } catch (const a2afft::Error& error) {
    // Every rank throws the same message, so rank 0 can speak for all of them.
    if (rank == 0) std::printf("FAIL: %s\n", error.what());
    wrong = -1;
  }
  // The exchange and its buffers are gone (end of the try block) before MPI_Finalize.
  MPI_Finalize();
  return wrong == 0 ? 0 : 1;
}
