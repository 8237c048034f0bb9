// Conformance of the variable-size exchanges: every variable backend, with every example spec
// of its registry row, against the vendor MPI_Alltoallv called here directly, on data that
// encodes (source, destination, byte index), for counts that are uneven, sparse, with empty
// peers, an empty rank, all empty, uniform, and at offsets out of rank order with gaps. The
// uniform backends serve the uniform counts and refuse the others with the reason. Run by ctest
// for P = 1..8 and several layouts (one node, nodes of 2, uneven nodes) set through the
// A2AFFT_* environment, and with every message a derived datatype (A2AFFT_MPI_MAX_COUNT).

#include <mpi.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "agreed.hpp"
#include "error.hpp"
#include "mpi/comm.hpp"
#include "registry.hpp"
#include "topology/topology.hpp"
#include "world_topology.hpp"

namespace a2afft::detail {
namespace {

const Topology& topology() {
  return testing_support::world_topology();
}

std::string agreed_failure(const std::string& local) {
  return testing_support::agreed_failure(local, topology().comm());
}

// Byte k of what rank `source` sends rank `destination`: a hash of all three, so that a
// segment at the wrong rank or offset differs almost everywhere.
std::byte pattern(int source, int destination, std::size_t k) {
  std::uint64_t x = (static_cast<std::uint64_t>(source) << 44) ^
                    (static_cast<std::uint64_t>(destination) << 24) ^ k;
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return static_cast<std::byte>(x ^ (x >> 31));
}

// A case: bytes from source to destination on P ranks, and whether segments sit packed in
// rank order or in reverse order with gaps between them.
struct Case {
  std::string name;
  std::function<std::size_t(int source, int destination, int ranks)> bytes;
  bool scrambled = false;
};

const std::vector<Case>& cases() {
  static const std::vector<Case> all = {
      {"uneven_sparse",
       [](int s, int d, int) -> std::size_t {
         return (s * 7 + d * 3) % 5 == 0 ? 0 : 1 + (s * 13 + d * 29) % 50;
       }},
      {"an_empty_rank",  // rank 1 sends and receives nothing; the others mostly do
       [](int s, int d, int) -> std::size_t {
         return s == 1 || d == 1 ? 0 : 3 + (s * 5 + d) % 11;
       }},
      {"all_empty", [](int, int, int) -> std::size_t { return 0; }},
      {"uniform", [](int, int, int) -> std::size_t { return 24; }},
      {"neighbours_only_large",  // a reshape's few partners: rank +-1, tens of KiB, odd sizes
       [](int s, int d, int ranks) -> std::size_t {
         const int step = (d - s + ranks) % ranks;
         return step == 1 || step == ranks - 1 || step == 0 ? 40000 + 7 * s + 3 * d : 0;
       }},
      {"scrambled_offsets",
       [](int s, int d, int) -> std::size_t { return (s + d) % 3 == 0 ? 0 : 1 + (s + 2 * d) % 9; },
       true},
  };
  return all;
}

// One side's bytes and offsets: packed in rank order, or in reverse rank order with a 5-byte
// gap before each segment (gaps must stay untouched).
PeerBytes side_of(const std::vector<std::size_t>& bytes, bool scrambled) {
  if (!scrambled) return PeerBytes::packed(bytes);
  PeerBytes side{bytes, std::vector<std::size_t>(bytes.size())};
  std::size_t offset = 0;
  for (std::size_t j = bytes.size(); j-- > 0;) {
    offset += 5;
    side.offsets[j] = offset;
    offset += bytes[j];
  }
  return side;
}

// Whether a uniform backend can serve the case on `ranks` ranks: one block size, at least one
// byte, for every pair, in rank order. (On one rank some uneven cases are uniform by accident.)
bool uniform_on(const Case& c, int ranks) {
  const std::size_t block_bytes = c.bytes(0, 0, ranks);
  for (int s = 0; s < ranks; ++s) {
    for (int d = 0; d < ranks; ++d) {
      if (c.bytes(s, d, ranks) != block_bytes) return false;
    }
  }
  return block_bytes > 0 && !c.scrambled;
}

VariableProblem problem_of(const Case& c, const Topology& on = topology()) {
  const int rank = on.rank(), ranks = on.size();
  std::vector<std::size_t> send, recv;
  for (int peer = 0; peer < ranks; ++peer) {
    send.push_back(c.bytes(rank, peer, ranks));
    recv.push_back(c.bytes(peer, rank, ranks));
  }
  return {on, side_of(send, c.scrambled), side_of(recv, c.scrambled)};
}

constexpr std::size_t kGuardBytes = 64;
constexpr std::byte kGuard{0x5c};

// The reference: MPI_Alltoallv itself (int counts suffice for these cases).
std::vector<std::byte> vendor_alltoallv(const VariableProblem& problem,
                                        const std::vector<std::byte>& send) {
  const auto ints = [](const std::vector<std::size_t>& values) {
    return std::vector<int>(values.begin(), values.end());
  };
  std::vector<std::byte> recv(problem.recv.extent() + 1, kGuard);
  const auto sc = ints(problem.send.bytes), sd = ints(problem.send.offsets);
  const auto rc = ints(problem.recv.bytes), rd = ints(problem.recv.offsets);
  MPI_Alltoallv(send.data(), sc.data(), sd.data(), MPI_BYTE, recv.data(), rc.data(), rd.data(),
                MPI_BYTE, problem.topology.comm());
  return recv;
}

// Runs `plan` twice (the second time on other data) and checks every received byte against
// MPI_Alltoallv and the pattern, that send is untouched, and that nothing outside the receive
// segments (gaps, guards) was written.
std::string check_plan(VariableExchangePlan& plan, const VariableProblem& problem) {
  const int rank = problem.topology.rank();
  const auto ranks = static_cast<std::size_t>(problem.topology.size());
  std::vector<std::byte> send(problem.send.extent() + 1, std::byte{0x33});
  for (std::size_t j = 0; j < ranks; ++j) {
    for (std::size_t k = 0; k < problem.send.bytes[j]; ++k) {
      send[problem.send.offsets[j] + k] = pattern(rank, static_cast<int>(j), k);
    }
  }
  for (int run = 0; run < 2; ++run) {
    if (run == 1) {
      for (std::byte& byte : send)
        byte = ~byte;
    }
    const std::vector<std::byte> original = send;
    const std::vector<std::byte> vendor = vendor_alltoallv(problem, send);
    std::vector<std::byte> guarded(problem.recv.extent() + 2 * kGuardBytes, kGuard);
    plan.run(send.data(), guarded.data() + kGuardBytes);
    const std::span<const std::byte> recv(guarded.data() + kGuardBytes, problem.recv.extent());
    const std::string which = run == 0 ? "" : " (second run, other data)";
    if (send != original) return "wrote the send buffer" + which;
    std::vector<bool> inside(recv.size(), false);
    for (std::size_t j = 0; j < ranks; ++j) {
      for (std::size_t k = 0; k < problem.recv.bytes[j]; ++k) {
        const std::size_t at = problem.recv.offsets[j] + k;
        inside[at] = true;
        std::byte expected = pattern(static_cast<int>(j), rank, k);
        if (run == 1) expected = ~expected;
        if (recv[at] != expected || vendor[at] != expected) {
          return "byte " + std::to_string(k) + " from rank " + std::to_string(j) + " is " +
                 std::to_string(static_cast<unsigned>(recv[at])) + ", expected " +
                 std::to_string(static_cast<unsigned>(expected)) +
                 (vendor[at] != expected ? " (and MPI_Alltoallv disagrees too)" : "") + which;
        }
      }
    }
    for (std::size_t i = 0; i < guarded.size(); ++i) {
      const bool in_recv = i >= kGuardBytes && i < kGuardBytes + recv.size();
      if (in_recv && inside[i - kGuardBytes]) continue;
      if (guarded[i] != kGuard) {
        return "wrote outside the receive segments, at byte " + std::to_string(i) + which;
      }
    }
  }
  return "";
}

std::vector<std::string> variable_example_specs() {
  std::vector<std::string> specs;
  for (const VariableExchangeInfo* info : registered_variable_exchanges()) {
    for (std::string_view example : info->examples)
      specs.emplace_back(example);
  }
  return specs;
}

class VariableConformance : public ::testing::TestWithParam<std::string> {};

TEST_P(VariableConformance, matches_vendor_alltoallv_on_every_case) {
  for (const Case& c : cases()) {
    const VariableProblem problem = problem_of(c);
    const std::string refusal = variable_exchange_refusal(parse_spec(GetParam()), problem);
    if (!refusal.empty()) {  // only a platform's reason (neighbor under SimGrid), never counts
      EXPECT_TRUE(A2AFFT_SMPI) << GetParam() << " refused " << c.name << ": " << refusal;
      EXPECT_THROW(make_variable_exchange(GetParam(), problem), UsageError);
      continue;
    }
    const auto plan = make_variable_exchange(GetParam(), problem);
    const std::string described = plan->describe();
    EXPECT_EQ(agreed_failure(described == mpi::broadcast(described, 0, topology().comm())
                                 ? ""
                                 : "describe() differs from rank 0's: " + described),
              "");
    EXPECT_EQ(agreed_failure(check_plan(*plan, problem)), "")
        << described << " on " << c.name << ", " << topology().describe_layout();
  }
}

std::string spec_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  for (char& ch : name) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Registry, VariableConformance,
                         ::testing::ValuesIn(variable_example_specs()), spec_name);

// Every uniform backend (its first example) serves the uniform case, and refuses every other
// case with the reason, on every rank alike. A name in both tables (mpi, auto) is the variable
// row's: MPI_Alltoallv, not MPI_Alltoall.
TEST(UniformBackends, serve_uniform_counts_and_refuse_the_others_with_the_reason) {
  for (const ExchangeInfo* info : registered_exchanges()) {
    if (find_variable_exchange(info->name) != nullptr) continue;
    const Spec spec = parse_spec(info->examples.front());
    for (const Case& c : cases()) {
      const VariableProblem problem = problem_of(c);
      const std::string layout_refusal = exchange_refusal(spec, topology().layout());
      const std::string refusal = variable_exchange_refusal(spec, problem);
      const bool uniform = uniform_on(c, topology().size());
      if (c.name == "uniform") {
        EXPECT_TRUE(uniform);
      }
      if (uniform && layout_refusal.empty()) {
        ASSERT_EQ(refusal, "") << spec.to_string();
        const auto plan = make_variable_exchange(spec, problem);
        EXPECT_EQ(agreed_failure(check_plan(*plan, problem)), "")
            << plan->describe() << " serving uniform counts on " << topology().describe_layout();
        continue;
      }
      EXPECT_NE(refusal, "") << spec.to_string() << " accepted " << c.name;
      if (!layout_refusal.empty()) continue;
      EXPECT_TRUE(refusal.find("uniform backend") != std::string::npos) << refusal;
      EXPECT_THROW(make_variable_exchange(spec, problem), UsageError) << spec.to_string();
    }
  }
}

TEST(VariableAuto, every_rank_makes_the_same_choice) {
  for (const Case& c : cases()) {
    const VariableProblem problem = problem_of(c);
    const auto plan = make_variable_exchange("auto:budget_ms=1", problem);
    const std::string described = plan->describe();
    EXPECT_EQ(agreed_failure(described == mpi::broadcast(described, 0, topology().comm())
                                 ? ""
                                 : "auto chose " + described + " here, unlike rank 0"),
              "");
    EXPECT_EQ(described.rfind("auto→", 0), 0u) << described;
    EXPECT_EQ(agreed_failure(check_plan(*plan, problem)), "") << described << " on " << c.name;
  }
}

// Ranks numbered across nodes (round-robin placement): even ranks first, then odd ones, each
// keeping its node; node-aggregate's leaders and segment orders must not assume blocks.
TEST(NodeAggregate, ranks_not_numbered_by_node) {
  static const mpi::Comm interleaved = mpi::Comm::split(
      topology().comm(), 0, (topology().rank() % 2) * topology().size() + topology().rank());
  static const Topology on(topology(), interleaved.get());
  for (const Case& c : cases()) {
    const VariableProblem problem = problem_of(c, on);
    const auto plan = make_variable_exchange("node-aggregate", problem);
    EXPECT_EQ(agreed_failure(check_plan(*plan, problem)), "") << c.name;
  }
}

// Bad problems and specs: one UsageError on every rank, saying what is wrong.
std::string error_of(const std::function<void()>& work) {
  try {
    work();
  } catch (const UsageError& error) {
    return error.what();
  }
  return "";
}

TEST(VariableProblems, inconsistent_counts_are_an_error_on_every_rank) {
  const int ranks = topology().size();
  VariableProblem problem = problem_of(cases()[0]);
  // The last rank expects one byte more from rank 0 than rank 0 sends it.
  if (topology().rank() == ranks - 1) {
    problem.recv.bytes[0] += 1;
    problem.recv.offsets = PeerBytes::packed(problem.recv.bytes).offsets;
  }
  const std::string error = error_of([&] { make_variable_exchange("sparse", problem); });
  EXPECT_NE(error.find("rank " + std::to_string(ranks - 1) + ": expects"), std::string::npos)
      << error;

  VariableProblem short_counts = problem_of(cases()[0]);
  short_counts.send.bytes.push_back(1);
  EXPECT_NE(error_of([&] {
              make_variable_exchange("mpi", short_counts);
            }).find("one per rank, " + std::to_string(ranks)),
            std::string::npos);

  VariableProblem overlapping = problem_of(cases()[3]);  // uniform, 24 bytes each
  if (ranks >= 2) overlapping.recv.offsets[1] = 10;
  const std::string overlap = error_of([&] { make_variable_exchange("mpi", overlapping); });
  EXPECT_EQ(overlap.find("overlap") != std::string::npos, ranks >= 2) << overlap;
}

TEST(VariableProblems, unknown_names_and_bad_values_say_what_is_valid) {
  const VariableProblem problem = problem_of(cases()[0]);
  const std::string unknown = error_of([&] { make_variable_exchange("bogus", problem); });
  EXPECT_NE(unknown.find("valid variable-size exchanges: mpi, neighbor, sparse"), std::string::npos)
      << unknown;
  EXPECT_NE(error_of([&] {
              make_variable_exchange("sparse:batch=0", problem);
            }).find("batch=0 is not valid"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              make_variable_exchange("neighbor:batch=2", problem);
            }).find("has no parameter 'batch'"),
            std::string::npos);
}

}  // namespace
}  // namespace a2afft::detail
