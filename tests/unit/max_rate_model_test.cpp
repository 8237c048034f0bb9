// The cost model's terms (issue 47) against hand computation: the max-rate node injection
// ([max-rate-2016]), the node's copy rate under contention, the per-message overhead, and the
// rows' schedules priced with them; and the model's speed at P = 10^6.

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include <a2afft/tools/model.hpp>

#include "registry.hpp"
#include "schedule/cost_model.hpp"
#include "schedule/tra.hpp"

namespace a2afft::detail::schedule {
namespace {

// intra 1 us + 0.01 ns/B (100 GB/s per rank), inter 2 us + 0.1 ns/B (10 GB/s per rank);
// the node injects 20 GB/s and copies 200 GB/s in all; o = 0.5 us.
ModelInputs machine(long ranks, long per_node, std::size_t block_bytes) {
  ModelInputs inputs{ranks, per_node, block_bytes, {1e-6, 1e-11}, {2e-6, 1e-10}};
  inputs.node_injection_bytes_per_second = 20e9;
  inputs.node_copy_bytes_per_second = 200e9;
  inputs.message_overhead_seconds = 0.5e-6;
  return inputs;
}

TEST(MaxRateModel, one_rank_off_node_pays_alpha_and_its_own_beta) {
  const ModelTerms terms = round_terms(machine(64, 8, 1), {1e6, 1, 1, 0});
  EXPECT_DOUBLE_EQ(terms.latency_seconds, 2e-6);
  EXPECT_DOUBLE_EQ(terms.bandwidth_seconds, 1e6 * 1e-10);  // 100 us
  EXPECT_DOUBLE_EQ(terms.injection_seconds, 0);            // 1 MB / 20 GB/s = 50 us < 100 us
  EXPECT_DOUBLE_EQ(terms.overhead_seconds, 0);
}

TEST(MaxRateModel, k_ranks_off_node_share_the_injection_rate) {
  // 8 ranks x 1 MB through 20 GB/s: 400 us; each rank's own link would take 100 us.
  const ModelTerms terms = round_terms(machine(64, 8, 1), {1e6, 1, 8, 0});
  EXPECT_DOUBLE_EQ(terms.bandwidth_seconds, 100e-6);
  EXPECT_NEAR(terms.injection_seconds, 300e-6, 1e-15);
  // Gropp-Olson-Samfass: T = alpha + k m / min(R_N, k R_b).
  EXPECT_NEAR(total_seconds(terms), 2e-6 + 8 * 1e6 / std::min(20e9, 8 * 10e9), 1e-15);
}

TEST(MaxRateModel, ranks_copying_inside_a_node_share_its_memory) {
  // 64 ranks x 1 MB through 200 GB/s: 320 us; one rank alone: 10 us.
  const ModelTerms terms = round_terms(machine(64, 64, 1), {1e6, 1, 0, 64});
  EXPECT_DOUBLE_EQ(terms.latency_seconds, 1e-6);
  EXPECT_DOUBLE_EQ(terms.bandwidth_seconds, 10e-6);
  EXPECT_NEAR(terms.copy_seconds, 310e-6, 1e-15);
  EXPECT_DOUBLE_EQ(terms.injection_seconds, 0);
}

TEST(MaxRateModel, a_mixed_round_costs_its_slower_side) {
  // 1 rank off-node with 1 KB (2 us + 0.1 us) against 7 on-node (1 us + 0.01 us): off-node.
  const ModelTerms small = round_terms(machine(64, 8, 1), {1e3, 1, 1, 7});
  EXPECT_DOUBLE_EQ(small.latency_seconds, 2e-6);
  // With a copy rate of 1 GB/s the 7 on-node ranks' 7 KB take 7 us: the on-node side wins.
  ModelInputs slow_memory = machine(64, 8, 1);
  slow_memory.node_copy_bytes_per_second = 1e9;
  const ModelTerms copy_bound = round_terms(slow_memory, {1e3, 1, 1, 7});
  EXPECT_DOUBLE_EQ(copy_bound.latency_seconds, 1e-6);
  EXPECT_NEAR(total_seconds(copy_bound), 1e-6 + 7e-6, 1e-15);
}

TEST(MaxRateModel, further_messages_of_a_round_cost_the_overhead) {
  const ModelTerms terms = round_terms(machine(64, 8, 1), {100, 4, 1, 0});
  EXPECT_NEAR(terms.overhead_seconds, 3 * 0.5e-6, 1e-18);
  EXPECT_NEAR(terms.bandwidth_seconds, 400 * 1e-10, 1e-18);
}

TEST(MaxRateModel, every_round_pays_its_own_overhead) {
  ModelInputs inputs = machine(512, 64, 16);
  const ModelResult without = model_tra(inputs, 8);
  inputs.round_overhead_seconds = 10e-6;
  const ModelResult with = model_tra(inputs, 8);
  EXPECT_NEAR(with.seconds - without.seconds, static_cast<double>(with.rounds) * 10e-6, 1e-12);
  EXPECT_NEAR(with.terms.overhead_seconds - without.terms.overhead_seconds,
              static_cast<double>(with.rounds) * 10e-6, 1e-12);
  // tra2 prices each phase as its rounds of the mean message: the overhead counts them all.
  const ModelResult tra2 = model_tra2(inputs, 8, 8);
  EXPECT_NEAR(tra2.terms.overhead_seconds, static_cast<double>(tra2.rounds) * 10e-6, 1e-12);
}

TEST(MaxRateModel, zero_rates_leave_the_alpha_beta_model) {
  ModelInputs plain = machine(64, 8, 1);
  plain.node_injection_bytes_per_second = 0;
  plain.node_copy_bytes_per_second = 0;
  const ModelTerms terms = round_terms(plain, {1e6, 1, 8, 0});
  EXPECT_DOUBLE_EQ(terms.injection_seconds, 0);
  EXPECT_DOUBLE_EQ(total_seconds(terms), 2e-6 + 100e-6);
}

TEST(MaxRateModel, pairwise_by_hand_on_two_nodes_of_two) {
  // P = 4, Q = 2, 1 MB blocks. Round 1: ranks 1 and 3 leave (k = 1), 0 and 2 stay (j = 1);
  // round 2: both leave (k = 2); round 3: as round 1.
  const ModelResult result = model_direct(machine(4, 2, 1000000), "pairwise");
  const double mixed = std::max(2e-6 + 100e-6, 1e-6 + 10e-6);
  const double both = 2e-6 + 2 * 1e6 / std::min(20e9, 2 * 10e9);
  EXPECT_EQ(result.rounds, 3);
  EXPECT_NEAR(result.seconds, 2 * mixed + both, 1e-12);
  EXPECT_NEAR(result.seconds, total_seconds(result.terms), 1e-15);
  EXPECT_NEAR(result.terms.injection_seconds, 0, 1e-15);  // 2 x 1 MB / 20 GB/s = 100 us exactly
}

TEST(MaxRateModel, tra2_inter_phase_shares_the_node_link_among_all_q_ranks) {
  // Q = 64 ranks, 8 nodes, r2 = 8: one inter round of 64 blocks (the node's 7 others x ... ):
  // every one of the 64 ranks sends at once, so the phase pays 64 x bytes / R_N.
  const ModelInputs inputs = machine(512, 64, 16);
  const ModelResult tra2 = model_tra2(inputs, 8, 8);
  const Tra2Counts counts = tra2_counts(64, 8, 8, 8);
  const double inter_bytes = 16.0 * static_cast<double>(counts.inter.blocks);
  EXPECT_NEAR(tra2.terms.injection_seconds, 64 * inter_bytes / 20e9 - inter_bytes * 1e-10, 1e-12);
}

TEST(MaxRateModel, shared_leaders_copy_and_inject_l_at_a_time) {
  // 4 nodes of 4, 1 KB blocks, 2 leaders: each serves ceil(3/2) = 2 offsets of 16 KB messages.
  ModelInputs inputs = machine(16, 4, 1000);
  inputs.node_injection_bytes_per_second = 5e9;  // 2 x 16 KB / 5 GB/s > 16 KB x 0.1 ns
  const ModelResult mpml = model_shared_leaders(inputs, {"mpml(leaders=2)", 2, false});
  const double message = 16000;
  const double send_extra = 2 * message / 5e9 - message * 1e-10;
  EXPECT_NEAR(mpml.terms.injection_seconds, 2 * send_extra, 1e-15);
  EXPECT_NEAR(mpml.seconds, total_seconds(mpml.terms), 1e-15);
}

TEST(MaxRateModel, every_backend_answers_at_a_million_ranks_in_seconds) {
  const ModelInputs inputs = machine(1000000, 100, 1024);
  const auto start = std::chrono::steady_clock::now();
  for (const std::string& name : model::modelled_backends()) {
    const auto one = std::chrono::steady_clock::now();
    const ModelResult result = modelled_cost(parse_spec(name), inputs);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - one).count();
    EXPECT_GT(result.seconds, 0) << name;
    EXPECT_LT(seconds, 2.0) << name << " took " << seconds << " s at P = 10^6";
  }
  const double all =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(all, 5.0) << "every backend at P = 10^6 took " << all << " s";
  RecordProperty("seconds_every_backend_p1e6", std::to_string(all));
}

}  // namespace
}  // namespace a2afft::detail::schedule
