// Conformance: every registered backend, with every example spec of its registry row, against
// the vendor MPI_Alltoall on data that encodes (source, destination, byte index). Run by ctest
// for P = 1..8 and several layouts (one node, nodes of 2, uneven nodes), set through the
// A2AFFT_* environment. New backends are picked up from the registry.

#include <mpi.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "agreed.hpp"
#include "error.hpp"
#include "mpi/comm.hpp"
#include "mpi/shared_window.hpp"
#include "pattern.hpp"
#include "registry.hpp"
#include "registry_params.hpp"
#include "schedule/direct.hpp"
#include "simulator/smpi_rules.hpp"
#include "topology/topology.hpp"
#include "world_topology.hpp"

namespace a2afft::detail {
namespace {

constexpr std::size_t kBlockSizes[] = {1, 3, 16, 1000, 65536};

// kBlockSizes, or the sizes A2AFFT_TEST_BLOCK_BYTES lists (e.g. "1,3,1000": the simulated label
// leaves the largest out, whose copies dominate a simulation's wall time). A bad list fails
// every test that uses it, saying why.
std::vector<std::size_t> block_sizes() {
  const char* text = std::getenv("A2AFFT_TEST_BLOCK_BYTES");
  if (text == nullptr) return {std::begin(kBlockSizes), std::end(kBlockSizes)};
  std::vector<std::size_t> sizes;
  std::string rest = text;
  while (!rest.empty()) {
    const std::size_t comma = std::min(rest.find(','), rest.size());
    const std::string item = rest.substr(0, comma);
    rest.erase(0, comma + 1);
    char* end = nullptr;
    const unsigned long long value = std::strtoull(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || value == 0 || item[0] == '-') {
      throw std::invalid_argument("A2AFFT_TEST_BLOCK_BYTES=" + std::string(text) +
                                  ": expected positive byte counts separated by commas");
    }
    sizes.push_back(static_cast<std::size_t>(value));
  }
  if (sizes.empty()) throw std::invalid_argument("A2AFFT_TEST_BLOCK_BYTES is empty");
  return sizes;
}
constexpr std::size_t kGuardBytes = 64;
constexpr std::byte kGuard{0x5c};

const Topology& topology() {
  return testing_support::world_topology();
}

std::vector<std::string> all_example_specs() {
  std::vector<std::string> specs;
  for (const ExchangeInfo* info : registered_exchanges()) {
    for (std::string_view example : info->examples)
      specs.push_back(testing_support::quick_to_check(std::string(example)));
    // The MPI library's own algorithms (mpi:alg=NAME), read through MPI_T before MPI_Init.
    if (info->offered != nullptr) {
      for (const std::string& offered : info->offered())
        specs.push_back(offered);
    }
  }
  return specs;
}

std::string agreed_failure(const std::string& local) {
  return testing_support::agreed_failure(local, topology().comm());
}

// describe() must read the same on every rank: reports print rank 0's.
std::string describe_mismatch(const ExchangePlan& plan, const Topology& on) {
  const std::string mine = plan.describe();
  const std::string rank0 = mpi::broadcast(mine, 0, on.comm());
  return mine == rank0 ? "" : "describe() is " + mine + " here and " + rank0 + " on rank 0";
}

// Where check_exchange's buffers come from: ordinary heap memory, or the plan's allocate()
// (node shared memory for the shared-leader backends, so nothing is staged).
enum class Buffers { heap, plan };

std::string check_exchange(ExchangePlan& plan, std::size_t block_bytes,
                           const Topology& on = topology(), Buffers from = Buffers::heap) {
  const int rank = on.rank();
  const int ranks = on.size();
  const std::size_t total = block_bytes * static_cast<std::size_t>(ranks);
  // recv sits between guard bytes that no exchange may write.
  const std::size_t guarded_bytes = total + 2 * kGuardBytes;
  std::vector<std::byte> heap_send, heap_guarded;
  ExchangeBuffer plan_send, plan_guarded;
  std::span<std::byte> send, guarded;
  if (from == Buffers::plan) {
    plan_send = plan.allocate(total);
    plan_guarded = plan.allocate(guarded_bytes);
    send = bytes_of(plan_send);
    guarded = bytes_of(plan_guarded);
  } else {
    heap_send.resize(total);
    heap_guarded.resize(guarded_bytes);
    send = heap_send;
    guarded = heap_guarded;
  }
  std::fill(guarded.begin(), guarded.end(), kGuard);
  const std::span<std::byte> recv = guarded.subspan(kGuardBytes, total);

  // Twice on one plan, the second time on other data written into the same send buffer: a
  // plan must be reusable, must not depend on recv's old content, and must not read stale
  // data (a shared-memory race shows up here).
  verify::fill_send_blocks(send, rank, ranks, block_bytes);
  std::vector<std::byte> inverted(send.begin(), send.end());
  for (std::byte& byte : inverted)
    byte = ~byte;
  std::vector<std::byte> vendor(total), vendor_inverted(total);
  const auto mpi = make_exchange("mpi", on, block_bytes);
  mpi->run(send.data(), vendor.data());
  mpi->run(inverted.data(), vendor_inverted.data());
  for (int run = 0; run < 2; ++run) {
    if (run == 1) std::swap_ranges(send.begin(), send.end(), inverted.begin());
    std::fill(recv.begin(), recv.end(), std::byte{static_cast<unsigned char>(0xa0 + run)});
    plan.run(send.data(), recv.data());
    const std::string which = run == 0 ? "" : " (second run, other data)";
    if (auto bad = verify::compare_blocks(recv, run == 0 ? vendor : vendor_inverted, block_bytes)) {
      return "differs from MPI_Alltoall at " + bad->describe() + which;
    }
    if (run == 0) {
      if (auto bad = verify::check_received_blocks(recv, rank, ranks, block_bytes)) {
        return "wrong data at " + bad->describe();
      }
      if (auto bad = verify::check_send_blocks(send, rank, ranks, block_bytes)) {
        return "wrote the send buffer at " + bad->describe();
      }
    } else if (!std::equal(inverted.begin(), inverted.end(), send.begin(),
                           [](std::byte a, std::byte b) { return a == ~b; })) {
      return "wrote the send buffer" + which;
    }
    for (std::size_t i = 0; i < kGuardBytes; ++i) {
      if (guarded[i] != kGuard || guarded[kGuardBytes + total + i] != kGuard) {
        return "wrote outside the receive blocks" + which;
      }
    }
  }
  std::swap_ranges(send.begin(), send.end(), inverted.begin());  // the pattern again
  // start() and finish(): the same blocks, with other MPI traffic (a barrier on another
  // communicator) between them, as a caller overlapping its own work has.
  std::fill(recv.begin(), recv.end(), std::byte{0xa5});
  plan.start(send.data(), recv.data());
  MPI_Barrier(on.comm());
  plan.finish();
  if (auto bad = verify::compare_blocks(recv, vendor, block_bytes)) {
    return "start() and finish() differ from MPI_Alltoall at " + bad->describe();
  }
  if (auto bad = verify::check_send_blocks(send, rank, ranks, block_bytes)) {
    return "start() and finish() wrote the send buffer at " + bad->describe();
  }
  // start(), test() a few times (each call may post the next batch), then finish(). Natively
  // only: under SMPI the simulated 64-rank suite then ran past 600 s (it is test()'s own MPI
  // calls, which the native runs check on every layout).
  if (!simulator::kSimulated) {
    std::fill(recv.begin(), recv.end(), std::byte{0xa6});
    plan.start(send.data(), recv.data());
    for (int polls = 0; polls < 2 * ranks && !plan.test(); ++polls) {
    }
    plan.finish();
    if (auto bad = verify::compare_blocks(recv, vendor, block_bytes)) {
      return "start(), test() and finish() differ from MPI_Alltoall at " + bad->describe();
    }
  }
  if (!plan.can_leave_own_block()) return "";
  // run_others: every other block as before; our own block untouched, and never read from send.
  const auto own = static_cast<std::size_t>(rank) * block_bytes;
  std::fill(recv.begin(), recv.end(), std::byte{0xa7});
  std::vector<std::byte> send_without_own(send.begin(), send.end());
  std::fill_n(send_without_own.begin() + static_cast<std::ptrdiff_t>(own), block_bytes,
              std::byte{0x3c});
  plan.run_others(send_without_own.data(), recv.data());
  for (std::size_t i = 0; i < block_bytes; ++i) {
    if (recv[own + i] != std::byte{0xa7}) return "run_others wrote our own block";
  }
  std::copy_n(vendor.begin() + static_cast<std::ptrdiff_t>(own), block_bytes,
              recv.begin() + static_cast<std::ptrdiff_t>(own));
  if (auto bad = verify::compare_blocks(recv, vendor, block_bytes)) {
    return "run_others differs from MPI_Alltoall at " + bad->describe();
  }
  return "";
}

// Runs each spec at every block size; a spec the layout refuses must throw.
void expect_conformance(const std::vector<std::string>& specs, const Topology& on = topology(),
                        Buffers from = Buffers::heap) {
  for (const std::string& text : specs) {
    for (const std::size_t block_bytes : block_sizes()) {
      const ExchangeProblem problem{on, block_bytes};
      if (!exchange_refusal(parse_spec(text), problem).empty()) {
        EXPECT_THROW(make_exchange(parse_spec(text), problem), UsageError);
        continue;
      }
      const auto plan = make_exchange(parse_spec(text), problem);
      EXPECT_EQ(agreed_failure(describe_mismatch(*plan, on)), "") << text;
      EXPECT_EQ(agreed_failure(check_exchange(*plan, block_bytes, on, from)), "")
          << plan->describe() << " at " << block_bytes << " B on " << on.describe_layout()
          << (from == Buffers::plan ? ", buffers from allocate()" : "");
    }
  }
}

class Conformance : public ::testing::TestWithParam<std::string> {};

TEST_P(Conformance, matches_vendor_alltoall) {
  const std::string refusal =
      exchange_refusal(parse_spec(GetParam()), ExchangeProblem{topology(), 1});
  if (!refusal.empty()) {
    std::printf("[ refused  ] %s on %s: %s\n", GetParam().c_str(),
                topology().describe_layout().c_str(), refusal.c_str());
  }
  expect_conformance({GetParam()});
}

INSTANTIATE_TEST_SUITE_P(Registry, Conformance, ::testing::ValuesIn(all_example_specs()),
                         testing_support::SpecParamName());

// The issue asks for radices 2, 3, P-1 and P; every radix in 2..P costs little more.
TEST(TraRadices, every_radix_and_both_rotations) {
  std::vector<std::string> specs;
  for (int radix = 2; radix <= std::max(2, topology().size()); ++radix) {
    for (const char* rotation : {"mapped", "copied"}) {
      specs.push_back("tra:radix=" + std::to_string(radix) + ",rotation=" + rotation);
    }
  }
  expect_conformance(specs);
}

TEST(Tra2Radices, every_pair_of_radices) {
  const int per_node = topology().node_size(0);
  const int nodes = topology().node_count();
  std::vector<std::string> specs;
  for (int r1 = 2; r1 <= std::max(2, per_node); ++r1) {
    for (int r2 = 2; r2 <= std::max(2, nodes); ++r2) {
      specs.push_back("tra2:r1=" + std::to_string(r1) + ",r2=" + std::to_string(r2));
    }
  }
  expect_conformance(specs);
}

// The node-aware family at every group size the layout allows (1, 2, ..., all of a node), with
// inner=pairwise and inner=nonblocking; on unequal nodes each must refuse.
TEST(NodeAwareFamily, every_group_size_and_both_inner_exchanges) {
  const int per_node = topology().nodes_equal() ? topology().node_size(0) : 1;
  std::vector<std::string> specs;
  for (const char* inner : {"pairwise", "nonblocking"}) {
    const std::string tail = std::string("inner=") + inner;
    specs.push_back("hierarchical:" + tail);
    specs.push_back("node-aware:" + tail);
    specs.push_back("locality-aware:groups=numa," + tail);
    for (int size = 1; size <= per_node; ++size) {
      if (per_node % size != 0) continue;
      const std::string ppl = "ppl=" + std::to_string(size) + ",";
      specs.push_back("multileader:" + ppl + tail);
      specs.push_back("multileader-node-aware:" + ppl + tail);
      specs.push_back("locality-aware:groups=" + std::to_string(per_node / size) + "," + tail);
    }
  }
  expect_conformance(specs);
  if (!topology().nodes_equal()) {
    for (const char* name : {"hierarchical", "multileader", "node-aware", "locality-aware",
                             "multileader-node-aware"}) {
      const std::string why = exchange_refusal(parse_spec(name), {topology(), 8});
      EXPECT_NE(why.find("needs nodes of equal size"), std::string::npos) << name << ": " << why;
    }
  }
}

// Ranks numbered across nodes rather than node by node (as round-robin placement does): even
// ranks of the world first, then odd ones, each keeping its node from the world's layout.
const Topology& interleaved_topology() {
  static const mpi::Comm interleaved = mpi::Comm::split(
      topology().comm(), 0, (topology().rank() % 2) * topology().size() + topology().rank());
  static const Topology instance(topology(), interleaved.get());
  return instance;
}

TEST(NodeAwareFamily, ranks_not_numbered_by_node) {
  expect_conformance(
      {"hierarchical", "multileader:ppl=1", "node-aware", "locality-aware:groups=numa",
       "multileader-node-aware:ppl=1", "multileader-node-aware:inner=nonblocking"},
      interleaved_topology());
}

TEST(NodeAwareFamily, bad_parameters_are_errors_that_say_what_is_valid) {
  const int per_node = topology().nodes_equal() ? topology().node_size(0) : 0;
  for (const std::string& bad :
       {std::string("node-aware:inner=hierarchical"), std::string("multileader:inner=bogus"),
        std::string("multileader:ppl=0"), std::string("locality-aware:groups=x")}) {
    EXPECT_THROW(exchange_refusal(parse_spec(bad), {topology(), 8}), UsageError) << bad;
  }
  if (per_node >= 3) {  // a ppl that does not divide the node size is refused by name
    const int ppl = per_node % 2 == 0 ? per_node - 1 : 2;
    const std::string why =
        exchange_refusal(parse_spec("multileader:ppl=" + std::to_string(ppl)), {topology(), 8});
    EXPECT_NE(why.find("does not divide"), std::string::npos) << why;
  }
}

// mpml, nmpml and onmpml with 1 and 2 leaders and the NUMA default, on buffers of their own
// allocate() (no staging) and on heap buffers (staged), and with ranks not numbered by node.
// Where a node has fewer ranks than leaders, the spec must be refused.
TEST(SharedLeaders, one_two_and_default_leaders_on_shared_and_heap_buffers) {
  std::vector<std::string> specs;
  for (const char* name : {"mpml", "nmpml", "onmpml"}) {
    specs.push_back(name);
    specs.push_back(std::string(name) + ":leaders=1");
    specs.push_back(std::string(name) + ":leaders=2");
  }
  expect_conformance(specs, topology(), Buffers::plan);
  expect_conformance(specs, topology(), Buffers::heap);
  expect_conformance({"mpml:leaders=1", "nmpml", "onmpml:leaders=2"}, interleaved_topology(),
                     Buffers::plan);
}

TEST(SharedLeaders, leaders_outside_one_to_the_smallest_node_are_errors) {
  for (const char* bad : {"mpml:leaders=0", "nmpml:leaders=x", "onmpml:leaders=-1"}) {
    EXPECT_THROW(exchange_refusal(parse_spec(bad), {topology(), 8}), UsageError) << bad;
  }
  const std::vector<int>& sizes = topology().node_sizes();
  const int smallest = *std::min_element(sizes.begin(), sizes.end());
  const std::string too_many = "onmpml:leaders=" + std::to_string(smallest + 1);
  EXPECT_NE(exchange_refusal(parse_spec(too_many), {topology(), 8})
                .find("valid leaders: 1.." + std::to_string(smallest)),
            std::string::npos);
}

// Every rank of a node reads, in each peer's segment, what that peer wrote there: under SimGrid
// SMPI 3.32 MPI_Win_shared_query alone gave every rank its own segment for every peer (the
// shim in transpose/mpi/shared_window.cpp), and the shared-leader backends read wrong blocks.
TEST(SharedWindow, every_rank_reads_what_each_peer_of_its_node_wrote) {
  const MPI_Comm node = topology().node_comm();
  int local = 0, ranks = 0;
  MPI_Comm_rank(node, &local);
  MPI_Comm_size(node, &ranks);
  constexpr std::size_t kWords = 16;
  const mpi::SharedWindow window(node, kWords * sizeof(std::uint64_t));
  const auto word = [](int rank, std::size_t i) {
    return std::uint64_t{0xa2aff7} * 1000 + 100 * static_cast<std::uint64_t>(rank) + i;
  };
  auto* mine = reinterpret_cast<std::uint64_t*>(window.segment(local));
  for (std::size_t i = 0; i < kWords; ++i)
    mine[i] = word(local, i);
  window.sync();
  MPI_Barrier(node);
  window.sync();
  std::string wrong;
  for (int peer = 0; peer < ranks && wrong.empty(); ++peer) {
    const auto* theirs = reinterpret_cast<const std::uint64_t*>(window.segment(peer));
    for (std::size_t i = 0; i < kWords && wrong.empty(); ++i) {
      if (theirs[i] != word(peer, i)) {
        wrong = "local rank " + std::to_string(local) + " read word " + std::to_string(i) +
                " of local rank " + std::to_string(peer) + "'s segment wrong";
      }
    }
  }
  MPI_Barrier(node);  // nobody frees the window while a peer still reads it
  EXPECT_EQ(agreed_failure(wrong), "");
}

// A plan stays correct while buffers come and go: one freed before the run, one that outlives
// the plan, and runs on both shared and heap buffers in turn.
TEST(SharedLeaders, buffers_come_and_go) {
  const std::size_t block_bytes = 24;
  ExchangeBuffer survivor;
  {
    const auto plan = make_exchange("onmpml", topology(), block_bytes);
    { const ExchangeBuffer freed_before_the_run = plan->allocate(100); }
    survivor = plan->allocate(block_bytes * static_cast<std::size_t>(topology().size()));
    EXPECT_EQ(agreed_failure(check_exchange(*plan, block_bytes, topology(), Buffers::plan)), "");
    EXPECT_EQ(agreed_failure(check_exchange(*plan, block_bytes, topology(), Buffers::heap)), "");
  }
  std::fill(bytes_of(survivor).begin(), bytes_of(survivor).end(), std::byte{1});
  EXPECT_EQ(survivor.size(), block_bytes * static_cast<std::size_t>(topology().size()));
}

// auto decides collectively: every rank must run the same backend, or the exchange hangs.
TEST(Auto, every_rank_makes_the_same_choice) {
  for (const char* spec : {"auto:budget_ms=1", "auto:mode=estimate"}) {
    for (const std::size_t block_bytes : {std::size_t{16}, std::size_t{4096}}) {
      const auto plan = make_exchange(spec, topology(), block_bytes);
      EXPECT_EQ(agreed_failure(describe_mismatch(*plan, topology())), "");
      EXPECT_EQ(plan->describe().rfind(
                    std::string(spec) == "auto:mode=estimate" ? "auto(estimate)→" : "auto→", 0),
                0u)
          << plan->describe();
    }
  }
  EXPECT_THROW(make_exchange("auto:mode=fast", topology(), 8), UsageError);
}

// A2AFFT_WISDOM: the first plan measures and writes its decision; a second plan for the same
// key takes the file's word, shown by editing the decision in between.
TEST(Auto, wisdom_round_trips) {
  const std::string path = "auto_wisdom_test." + std::to_string(topology().size()) + ".json";
  if (topology().rank() == 0) std::remove(path.c_str());
  MPI_Barrier(MPI_COMM_WORLD);
  setenv("A2AFFT_WISDOM", path.c_str(), 1);
  const std::size_t block_bytes = 24;
  const std::string first = make_exchange("auto", topology(), block_bytes)->describe();
  const std::string chosen = first.substr(first.find("→") + std::string("→").size());
  const std::string planted = chosen == "factor" ? "pairwise" : "factor";
  std::string local;
  if (topology().rank() == 0) {
    std::ifstream in(path);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::size_t key = text.find(" | 24 B\"");
    if (key == std::string::npos) local = "no entry for 24 B blocks in " + path + ": " + text;
    // Plant another decision for the same key.
    const std::size_t value = text.find('"', text.find(':', key) + 1);
    const std::size_t end = text.find('"', value + 1);
    if (local.empty()) text.replace(value + 1, end - value - 1, planted);
    std::ofstream(path) << text;
  }
  ASSERT_EQ(agreed_failure(local), "");
  MPI_Barrier(MPI_COMM_WORLD);
  const std::string second = make_exchange("auto", topology(), block_bytes)->describe();
  unsetenv("A2AFFT_WISDOM");
  EXPECT_EQ(second, "auto→" + make_exchange(planted, topology(), block_bytes)->describe());
  if (topology().rank() == 0) std::remove(path.c_str());
}

TEST(Allocate, every_backend_gives_aligned_memory_of_the_size_asked) {
  for (const ExchangeInfo* info : registered_exchanges()) {
    const ExchangeProblem problem{topology(), 8};
    if (!exchange_refusal(parse_spec(info->name), problem).empty()) continue;
    const auto plan = make_exchange(parse_spec(info->name), problem);
    const ExchangeBuffer buffer = plan->allocate(1000);
    EXPECT_EQ(buffer.size(), 1000u) << info->name;
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(buffer.data()) % 16, 0u) << info->name;
    std::fill(bytes_of(buffer).begin(), bytes_of(buffer).end(), std::byte{7});
  }
}

TEST(OwnBlock, direct_and_shared_memory_exchanges_leave_it_and_the_others_say_so) {
  for (const ExchangeInfo* info : registered_exchanges()) {
    const ExchangeProblem problem{topology(), 8};
    if (!exchange_refusal(parse_spec(info->name), problem).empty()) continue;
    const auto plan = make_exchange(parse_spec(info->name), problem);
    std::vector<std::byte> send(8 * static_cast<std::size_t>(topology().size()));
    std::vector<std::byte> recv(send.size());
    if (!plan->can_leave_own_block()) {
      EXPECT_THROW(plan->run_others(send.data(), recv.data()), std::logic_error) << info->name;
    }
  }
  EXPECT_TRUE(make_exchange("pairwise", topology(), 8)->can_leave_own_block());
  // The shared-memory leaders copy our own block in their intra step alone, so they skip it.
  for (const char* name : {"mpml", "nmpml", "onmpml"}) {
    const ExchangeProblem problem{topology(), 8};
    if (!exchange_refusal(parse_spec(name), problem).empty()) continue;
    EXPECT_TRUE(make_exchange(parse_spec(name), problem)->can_leave_own_block()) << name;
  }
  EXPECT_FALSE(make_exchange("mpi", topology(), 8)->can_leave_own_block());
}

// overlaps() is what the registry row (and `a2afft list`) says; start() twice and finish() alone
// are errors that leave the plan usable. In simulation from 256 ranks `mpi`'s start() is one
// error instead of MPI_Ialltoall, on which SMPI 3.32 crashes (simulated.split_phase.np256).
TEST(SplitPhase, overlaps_as_the_registry_says_and_misuse_is_an_error) {
  std::vector<std::byte> send(8 * static_cast<std::size_t>(topology().size()));
  std::vector<std::byte> recv(send.size());
  const bool vendor_refused = simulator::all_at_once_crashes(topology().size());
  for (const ExchangeInfo* info : registered_exchanges()) {
    const ExchangeProblem problem{topology(), 8};
    if (!exchange_refusal(parse_spec(info->name), problem).empty()) continue;
    const auto plan = make_exchange(parse_spec(info->name), problem);
    if (info->split_phase != SplitPhase::chosen_plan) {
      EXPECT_EQ(plan->overlaps(), info->split_phase == SplitPhase::yes) << info->name;
    }
    if (vendor_refused && info->name == "mpi") {
      EXPECT_THROW(plan->start(send.data(), recv.data()), UsageError);
      EXPECT_THROW(plan->finish(), UsageError) << "a refused start() leaves nothing in flight";
      continue;
    }
    EXPECT_THROW(plan->finish(), UsageError) << info->name;
    plan->start(send.data(), recv.data());
    EXPECT_THROW(plan->start(send.data(), recv.data()), UsageError) << info->name;
    plan->finish();
  }
  EXPECT_TRUE(make_exchange("nonblocking", topology(), 8)->overlaps());
  EXPECT_FALSE(make_exchange("pairwise", topology(), 8)->overlaps());
}

TEST(TraRadices, radices_outside_two_to_p_are_errors) {
  const int ranks = topology().size();
  for (const std::string& bad : std::vector<std::string>{
           "tra:radix=1", "tra:radix=" + std::to_string(std::max(2, ranks) + 1), "tra:radix=x",
           "tra:rotation=sideways"}) {
    try {
      make_exchange(bad, topology(), 8);
      ADD_FAILURE() << bad << " accepted";
    } catch (const UsageError& error) {
      EXPECT_NE(std::string(error.what()).find("is not valid; expected"), std::string::npos)
          << error.what();
    }
  }
  if (!topology().nodes_equal()) {
    try {
      make_exchange("tra2", topology(), 8);
      ADD_FAILURE() << "tra2 ran on unequal nodes";
    } catch (const UsageError& error) {
      EXPECT_NE(std::string(error.what()).find("factor"), std::string::npos) << error.what();
    }
  }
}

// Sub-communicators of different sizes (rank 0 alone, the others together): tra:radix=3 is a bad
// value on the one-rank side only, and every rank must get the error rather than some waiting.
TEST(Exchange, a_value_bad_on_some_sub_communicators_is_an_error_on_every_rank) {
  if (topology().size() < 4) return;  // the others need room for radix 3
  const mpi::Comm part = mpi::Comm::split(topology().comm(), topology().rank() == 0 ? 0 : 1, 0);
  const Topology on(topology(), part.get());
  std::string error;
  try {
    agreed_refusal(parse_spec("tra:radix=3"), {on, 8}, topology().comm());
  } catch (const UsageError& bad) {
    error = bad.what();
  }
  EXPECT_EQ(error, "tra: radix=3 is not valid; expected a whole number from 2 to 2, or auto");
  EXPECT_EQ(agreed_refusal(parse_spec("tra:radix=2"), {on, 8}, topology().comm()), "");
}

TEST(Exchange, bad_parameter_values_are_refused_with_the_range) {
  try {
    make_exchange("nonblocking:batch=0", topology(), 8);
    FAIL() << "batch=0 accepted";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("batch=0 is not valid"), std::string::npos);
  }
  EXPECT_THROW(make_exchange("nonblocking:batch=many", topology(), 8), UsageError);
  EXPECT_THROW(make_exchange("mpi", topology(), 0), UsageError);
}

}  // namespace
}  // namespace a2afft::detail
