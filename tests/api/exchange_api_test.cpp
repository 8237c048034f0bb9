// The public all-to-all as an application uses it: only <a2afft/a2afft.hpp>, linked against the
// shared liba2afft. Every check is collective (reduced first, then asserted the same on every
// rank), so no rank leaves a test while the others wait in a collective.

#include <mpi.h>

#include <gtest/gtest.h>

#include <a2afft/a2afft.hpp>
#include "collective.hpp"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace {

using namespace a2afft::api_test;

// The byte `source` sends to `destination` at `index`: every (source, destination, index)
// within a small test differs from its neighbours, so a misplaced block shows.
std::byte pattern(int source, int destination, std::size_t index) {
  return static_cast<std::byte>((source * 131 + destination * 31 + index * 7 + index / 251) % 253);
}

void fill_send(std::byte* send, int rank, int ranks, std::size_t block_bytes) {
  for (int to = 0; to < ranks; ++to)
    for (std::size_t i = 0; i < block_bytes; ++i)
      send[static_cast<std::size_t>(to) * block_bytes + i] = pattern(rank, to, i);
}

// How a test runs the exchange: run(); start(), other work, finish(); or start(), test() until
// done, finish().
enum class Call { run, start_and_finish, start_test_finish };

// Runs `exchange` once on `send` and `recv` (its buffer_bytes() each) and returns the wrong
// bytes received over all its ranks.
long wrong_bytes_after_run(a2afft::Exchange& exchange, std::byte* send, std::byte* recv,
                           MPI_Comm comm, Call call = Call::run) {
  const int rank = rank_in(comm);
  const std::size_t block_bytes = exchange.block_bytes();
  fill_send(send, rank, exchange.ranks(), block_bytes);
  std::memset(recv, 0xEE, exchange.buffer_bytes());
  if (call == Call::run) {
    exchange.run(send, recv);
  } else if (call == Call::start_test_finish) {
    exchange.start(send, recv);
    while (!exchange.test()) {
    }
    exchange.finish();
  } else {
    exchange.start(send, recv);
    // Work of the caller's own while the messages are in flight, MPI traffic included.
    std::vector<double> work(4096, 1.0);
    for (double& value : work)
      value = value * 1.5 + 0.25;
    MPI_Barrier(comm);
    exchange.finish();
  }
  long wrong = 0;
  for (int from = 0; from < exchange.ranks(); ++from)
    for (std::size_t i = 0; i < block_bytes; ++i)
      wrong += recv[static_cast<std::size_t>(from) * block_bytes + i] != pattern(from, rank, i);
  return sum_over(wrong, comm);
}

long wrong_bytes_after_run(a2afft::Exchange& exchange, MPI_Comm comm, Call call = Call::run) {
  std::vector<std::byte> send(exchange.buffer_bytes()), recv(exchange.buffer_bytes());
  return wrong_bytes_after_run(exchange, send.data(), recv.data(), comm, call);
}

// What make_exchange threw on this rank ("" when it did not), and whether every rank threw.
struct Thrown {
  std::string message;
  bool on_every_rank = false;
};

Thrown thrown_by_make_exchange(MPI_Comm comm, std::size_t block_bytes, const std::string& spec) {
  Thrown thrown;
  long threw = 0;
  try {
    a2afft::make_exchange(comm, block_bytes, spec);
  } catch (const a2afft::Error& error) {
    thrown.message = error.what();
    threw = 1;
  }
  thrown.on_every_rank = sum_over(threw) == size_of(MPI_COMM_WORLD);
  return thrown;
}

TEST(MakeExchange, runs_like_mpi_alltoall_for_every_kind_of_backend_and_block_size) {
  const int ranks = size_of(MPI_COMM_WORLD);
  for (const char* spec : {"mpi", "pairwise", "tra:radix=2", "node-aware", "onmpml", "auto"}) {
    for (const std::size_t block_bytes : {1, 13, 4096}) {
      const auto exchange = a2afft::make_exchange(MPI_COMM_WORLD, block_bytes, spec);
      EXPECT_EQ(exchange->ranks(), ranks);
      EXPECT_EQ(exchange->block_bytes(), block_bytes);
      EXPECT_EQ(exchange->buffer_bytes(), block_bytes * static_cast<std::size_t>(ranks));
      EXPECT_FALSE(exchange->describe().empty());
      EXPECT_EQ(wrong_bytes_after_run(*exchange, MPI_COMM_WORLD), 0)
          << exchange->describe() << " with " << block_bytes << "-byte blocks";
    }
  }
}

// start() and finish() move what run() moves, on backends with a split phase and without;
// finish() alone and start() twice are errors.
TEST(MakeExchange, start_and_finish_overlap_where_the_backend_can_and_move_the_same_bytes) {
  for (const char* spec : {"mpi", "nonblocking", "pairwise", "onmpml"}) {
    const auto exchange = a2afft::make_exchange(MPI_COMM_WORLD, 1000, spec);
    const bool split = std::string(spec) == "mpi" || std::string(spec) == "nonblocking";
    EXPECT_EQ(exchange->overlaps(), split) << spec;
    EXPECT_EQ(wrong_bytes_after_run(*exchange, MPI_COMM_WORLD, Call::start_and_finish), 0) << spec;
    EXPECT_EQ(wrong_bytes_after_run(*exchange, MPI_COMM_WORLD, Call::start_test_finish), 0) << spec;
    EXPECT_THROW(exchange->finish(), a2afft::UsageError) << spec;
  }
  const auto exchange = a2afft::make_exchange(MPI_COMM_WORLD, 8, "nonblocking");
  std::vector<std::byte> send(exchange->buffer_bytes()), recv(exchange->buffer_bytes());
  exchange->start(send.data(), recv.data());
  EXPECT_THROW(exchange->start(send.data(), recv.data()), a2afft::UsageError);
  exchange->finish();
}

TEST(MakeExchange, the_default_spec_is_auto_and_says_what_it_chose) {
  const auto exchange = a2afft::make_exchange(MPI_COMM_WORLD, 64);
  EXPECT_EQ(exchange->describe().rfind("auto", 0), 0u) << exchange->describe();
  EXPECT_TRUE(same_on_every_rank(exchange->describe()));
  EXPECT_EQ(wrong_bytes_after_run(*exchange, MPI_COMM_WORLD), 0);
}

TEST(MakeExchange, a_bad_spec_is_the_same_error_naming_it_on_every_rank) {
  const std::pair<const char*, const char*> cases[] = {
      {"bogus", "unknown exchange 'bogus'; valid: mpi"},
      {"tra:radix=banana", "banana"},
      {"tra:frobs=2", "frobs"},
      {"tra:radix=1", "radix=1"},
      {"node-aware:inner=(tra", "node-aware:inner=(tra"},
  };
  for (const auto& [spec, named] : cases) {
    const Thrown thrown = thrown_by_make_exchange(MPI_COMM_WORLD, 8, spec);
    EXPECT_TRUE(thrown.on_every_rank) << spec;
    EXPECT_TRUE(same_on_every_rank(thrown.message)) << spec;
    EXPECT_NE(thrown.message.find(named), std::string::npos) << spec << ": " << thrown.message;
  }
}

TEST(MakeExchange, a_spec_bad_or_different_on_one_rank_is_an_error_on_every_rank) {
  const int ranks = size_of(MPI_COMM_WORLD);
  if (ranks < 2) GTEST_SKIP() << "needs two ranks";
  const bool last = rank_in(MPI_COMM_WORLD) == ranks - 1;
  for (const auto& [odd_one, named] :
       {std::pair<const char*, const char*>{"bogus", "differs from rank 0's 'pairwise'"},
        std::pair<const char*, const char*>{"tra", "spec 'tra' on rank"}}) {
    const Thrown thrown = thrown_by_make_exchange(MPI_COMM_WORLD, 8, last ? odd_one : "pairwise");
    EXPECT_TRUE(thrown.on_every_rank) << odd_one;
    EXPECT_TRUE(same_on_every_rank(thrown.message)) << odd_one;
    EXPECT_NE(thrown.message.find(named), std::string::npos) << thrown.message;
  }
}

TEST(MakeExchange, a_bad_block_size_or_communicator_is_an_error_on_every_rank) {
  const Thrown zero = thrown_by_make_exchange(MPI_COMM_WORLD, 0, "mpi");
  EXPECT_TRUE(zero.on_every_rank);
  EXPECT_NE(zero.message.find("block_bytes=0 is not valid"), std::string::npos) << zero.message;

  if (size_of(MPI_COMM_WORLD) > 1) {
    const auto mine = static_cast<std::size_t>(8 + rank_in(MPI_COMM_WORLD));
    const Thrown uneven = thrown_by_make_exchange(MPI_COMM_WORLD, mine, "mpi");
    EXPECT_TRUE(uneven.on_every_rank);
    EXPECT_TRUE(same_on_every_rank(uneven.message));
    EXPECT_NE(uneven.message.find("block_bytes differs between ranks (8 to "), std::string::npos)
        << uneven.message;
  }

  const Thrown null = thrown_by_make_exchange(MPI_COMM_NULL, 8, "mpi");
  EXPECT_TRUE(null.on_every_rank);
  EXPECT_NE(null.message.find("MPI_COMM_NULL"), std::string::npos) << null.message;
}

TEST(MakeExchange, plans_on_two_communicators_run_interleaved_in_one_program) {
  const int rank = rank_in(MPI_COMM_WORLD);
  MPI_Comm half = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  const auto on_half = a2afft::make_exchange(half, 24, "tra:radix=2");
  const auto on_world = a2afft::make_exchange(MPI_COMM_WORLD, 7, "pairwise");
  // The exchange keeps its own duplicate, so the caller's communicator can go.
  const int half_ranks = size_of(half);
  MPI_Comm_free(&half);

  EXPECT_EQ(on_half->ranks(), half_ranks);
  for (int round = 0; round < 3; ++round) {
    EXPECT_EQ(wrong_bytes_after_run(*on_world, MPI_COMM_WORLD), 0) << "round " << round;
    // Wrong bytes counted over the half, then over the world so every rank asserts the same.
    MPI_Comm counted = MPI_COMM_NULL;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &counted);
    const long wrong_here = wrong_bytes_after_run(*on_half, counted);
    MPI_Comm_free(&counted);
    EXPECT_EQ(sum_over(wrong_here), 0) << "round " << round;
  }
}

TEST(MakeExchange, allocate_gives_aligned_buffers_that_run_and_outlive_the_exchange) {
  for (const char* spec : {"pairwise", "mpml", "onmpml"}) {
    auto exchange = a2afft::make_exchange(MPI_COMM_WORLD, 40, spec);
    const a2afft::Buffer send = exchange->allocate(exchange->buffer_bytes());
    const a2afft::Buffer recv = exchange->allocate(exchange->buffer_bytes());
    EXPECT_EQ(send.size(), exchange->buffer_bytes()) << spec;
    ASSERT_NE(send.data(), nullptr) << spec;
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(send.data()) % 64, 0u) << spec;
    EXPECT_EQ(send.as<double>(), reinterpret_cast<double*>(send.data()));
    EXPECT_EQ(wrong_bytes_after_run(*exchange, send.data(), recv.data(), MPI_COMM_WORLD), 0)
        << exchange->describe() << " on its own buffers";

    exchange.reset();
    std::memset(recv.data(), 0, recv.size());  // still ours after the exchange is gone
  }
  EXPECT_EQ(a2afft::Buffer().data(), nullptr);
  EXPECT_EQ(a2afft::Buffer().size(), 0u);
}

TEST(Version, the_library_and_the_headers_agree) {
  EXPECT_STREQ(a2afft::version(), A2AFFT_VERSION);
  EXPECT_EQ(std::to_string(A2AFFT_VERSION_MAJOR) + "." + std::to_string(A2AFFT_VERSION_MINOR) +
                "." + std::to_string(A2AFFT_VERSION_PATCH),
            A2AFFT_VERSION);
  EXPECT_GT(std::strlen(a2afft::git_describe()), 0u);
}

}  // namespace

// a2afft::allocate() (issue 35): at least the bytes asked for, writable, 64-byte aligned, and
// from 2 MiB up aligned to a huge page, which madvise can then back with one.
TEST(Allocate, gives_aligned_memory_and_huge_page_alignment_from_2_mib) {
  for (const std::size_t bytes : {std::size_t{1}, std::size_t{1000}, std::size_t{3} << 20}) {
    const a2afft::Buffer buffer = a2afft::allocate(bytes);
    ASSERT_NE(buffer.data(), nullptr) << bytes;
    EXPECT_GE(buffer.size(), bytes);
    const auto address = reinterpret_cast<std::uintptr_t>(buffer.data());
    EXPECT_EQ(address % (bytes >= (std::size_t{2} << 20) ? std::size_t{2} << 20 : 64), 0u) << bytes;
    std::memset(buffer.data(), 0x5a, buffer.size());
    EXPECT_EQ(buffer.as<unsigned char>()[buffer.size() - 1], 0x5a);
  }
}
