// The cost model's terms (issue 47) against hand computation: the max-rate node injection
// ([max-rate-2016]), the node's copy rate under contention, the per-message overhead, and the
// rows' schedules priced with them; the host copy term; and the model's speed at P = 10^6.

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

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

TEST(MaxRateModel, a_gather_or_scatter_is_one_call_and_pays_the_round_overhead_once) {
  // hierarchical, P = 256, Q = ppl = 64: MPI_Gather (a binomial tree: 6 messages reach the
  // root), 3 leader rounds, MPI_Scatter (6): a2afft's own work between MPI calls is 1 + 3 + 1
  // rounds' overhead.
  ModelInputs inputs = machine(256, 64, 16);
  inputs.round_overhead_seconds = 10e-6;
  const ModelResult result = model_node_aware(inputs, {"hierarchical", 64, false, 1});
  EXPECT_EQ(result.rounds, 6 + 3 + 6);
  EXPECT_NEAR(result.terms.overhead_seconds, 5 * 10e-6, 1e-15);
}

TEST(MaxRateModel, a_gather_is_a_binomial_tree_of_n_minus_one_chunks) {
  // hierarchical on 2 nodes of 6, 1 KB blocks: each member's chunk is P = 12 blocks (12 KB).
  // The tree's root meets spans 1, 2 and 4: chunks min(s, 6 - s) = 1, 2, 2 (5 = n - 1 in all),
  // sent by members 1, 3, 5, then 2, then 4. Only the first round has several senders: 3 x 12 KB
  // through the node's 200 GB/s (0.18 us) against one rank's own 0.12 us adds 0.06 us of copy.
  const ModelResult result = model_node_aware(machine(12, 6, 1000), {"hierarchical", 6, false, 1});
  EXPECT_EQ(result.rounds, 3 + 1 + 3);
  EXPECT_NEAR(result.terms.copy_seconds, 2 * 0.06e-6, 1e-15);
  EXPECT_NEAR(result.terms.latency_seconds, 2 * 3 * 1e-6 + 2e-6, 1e-15);  // + one leader round
  const double tree_bytes = (1 + 2 + 2) * 12e3;
  const double leader_bytes = 36e3;  // the 6 x 6 blocks of the node pair
  EXPECT_NEAR(result.terms.bandwidth_seconds, 2 * tree_bytes * 1e-11 + leader_bytes * 1e-10, 1e-15);
}

TEST(MaxRateModel, factor_hier_runs_each_node_round_as_a_wavefront) {
  // 2 nodes of 4, 1 MB blocks: node 0 meets itself, then node 1, each a wavefront of 7 message
  // times whose widths are 1, 2, 3, 4, 3, 2, 1 ranks. Off-node a width of w takes 2 us + 100 us,
  // plus w x 50 us - 100 us of the node's 20 GB/s beyond it (w = 3, 4); inside, 1 us + 10 us,
  // plus w x 5 us - 10 us of its 200 GB/s copy rate.
  const ModelResult result = model_factor_hier(machine(8, 4, 1000000));
  EXPECT_EQ(result.algorithm, "factor-hier");
  EXPECT_EQ(result.rounds, 2 * 7);
  EXPECT_EQ(result.blocks, 7);
  EXPECT_EQ(result.inter_node_messages_per_node, 4 * 4);
  EXPECT_NEAR(result.terms.injection_seconds, 2 * 50e-6 + 100e-6, 1e-12);
  EXPECT_NEAR(result.terms.copy_seconds, 2 * 5e-6 + 10e-6, 1e-12);
  EXPECT_NEAR(result.seconds, 7 * 102e-6 + 200e-6 + 7 * 11e-6 + 20e-6, 1e-12);
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

TEST(MaxRateModel, shared_leaders_synchronise_the_node_twice_in_log2_q_stages) {
  // 4 nodes of 4: each sync is ceil(log2 4) = 2 stages, of one 1 us intra-node zero-byte message
  // when the stage is not measured, of the measured 3 us when it is: 2 x 2 x (3 - 1) us more.
  // The measured stage reaches the model as model --measure passes it (measured_inputs).
  MeasuredLinks links;
  links.intra = {1e-6, 1e-11};
  links.inter = {2e-6, 1e-10};
  const SharedLeaderModel row{"onmpml(leaders=1)", 1, true};
  const ModelResult alpha = model_shared_leaders(measured_inputs(16, 4, 1000, links), row);
  links.node_sync_stage_seconds = 3e-6;
  const ModelResult measured = model_shared_leaders(measured_inputs(16, 4, 1000, links), row);
  EXPECT_NEAR(measured.terms.latency_seconds - alpha.terms.latency_seconds, 8e-6, 1e-15);
  EXPECT_NEAR(measured.seconds - alpha.seconds, 8e-6, 1e-15);
}

// SimGrid 3.32's default smpi/lat-factor (src/simgrid/sg_config.cpp), as the platforms state it.
std::vector<SizeFactor> smpi_latency_factors() {
  return {{65472, 11.6436}, {15424, 3.48845}, {9376, 2.59299}, {5776, 2.18796}, {3484, 1.88101},
          {1426, 1.61075},  {732, 1.9503},    {257, 1.95341},  {0, 2.01467}};
}

TEST(NetworkModel, a_message_takes_the_factor_of_the_largest_threshold_below_its_size) {
  // NetworkSmpiModel::get_latency_factor: size > threshold, 1 when no threshold is below.
  const std::vector<SizeFactor> factors = smpi_latency_factors();
  EXPECT_DOUBLE_EQ(size_factor(factors, 16), 2.01467);
  EXPECT_DOUBLE_EQ(size_factor(factors, 257), 2.01467);  // not above 257
  EXPECT_DOUBLE_EQ(size_factor(factors, 258), 1.95341);
  EXPECT_DOUBLE_EQ(size_factor(factors, 2048), 1.61075);
  EXPECT_DOUBLE_EQ(size_factor(factors, 1 << 20), 11.6436);
  EXPECT_DOUBLE_EQ(size_factor(factors, 0), 1);
  EXPECT_DOUBLE_EQ(size_factor({}, 16), 1);
}

TEST(NetworkModel, factors_scale_alpha_and_rates_and_reverse_flows_slow_the_links_out) {
  ModelInputs inputs = machine(64, 8, 1);
  inputs.latency_factors = {{0, 2}};
  inputs.bandwidth_factors = {{0, 0.5}};
  inputs.reverse_flow_share = 0.05;
  // Off-node, one rank, 1 MB: alpha 2 us x 2; beta 0.1 ns/B x 1.05 / 0.5 = 210 us; R_N's
  // 20 GB/s x 0.5 / 1.05 gives one rank 105 us, less than its own 210: no injection.
  const ModelTerms off = round_terms(inputs, {1e6, 1, 1, 0});
  EXPECT_DOUBLE_EQ(off.latency_seconds, 4e-6);
  EXPECT_NEAR(off.bandwidth_seconds, 210e-6, 1e-15);
  EXPECT_DOUBLE_EQ(off.injection_seconds, 0);
  // 8 ranks: 8 MB through 9.524 GB/s = 840 us, 630 us beyond each rank's own 210.
  EXPECT_NEAR(round_terms(inputs, {1e6, 1, 8, 0}).injection_seconds, 630e-6, 1e-12);
  // On-node (the loopback is no shared link): alpha 1 us x 2, 0.01 ns/B / 0.5 = 20 us.
  const ModelTerms on = round_terms(inputs, {1e6, 1, 0, 1});
  EXPECT_DOUBLE_EQ(on.latency_seconds, 2e-6);
  EXPECT_NEAR(on.bandwidth_seconds, 20e-6, 1e-15);
}

TEST(NetworkModel, switch_link_flows_by_hand_on_two_switches_of_four_nodes) {
  // 8 nodes of 4 ranks (32), 4 nodes per switch: nodes 0-3 behind switch 0, 4-7 behind 1.
  EXPECT_EQ(switch_link_flows(32, 4, 4, 4), 4);    // node 3's 4 ranks reach node 4
  EXPECT_EQ(switch_link_flows(32, 4, 4, 16), 16);  // every node of switch 0 reaches switch 1
  EXPECT_EQ(switch_link_flows(32, 4, 4, 2), 2);    // half of node 3 spills onto node 4
  EXPECT_EQ(switch_link_flows(32, 4, 4, 6), 6);    // node 2: 2 ranks; node 3: 4 ranks
  EXPECT_EQ(switch_link_flows(32, 4, 4, 0), 0);
  EXPECT_EQ(switch_link_flows(32, 4, 8, 16), 0);  // one switch holds every node
  EXPECT_EQ(switch_link_flows(32, 4, 0, 16), 0);  // no switch level
}

TEST(NetworkModel, the_busiest_switch_link_bounds_an_off_node_round) {
  ModelInputs inputs = machine(512, 8, 1);
  inputs.nodes_per_switch = 4;
  inputs.switch_link_bytes_per_second = 10e9;
  // 8 ranks leave with 1 MB each (R_N: 400 us), 16 ranks' messages cross one switch link:
  // 16 MB / 10 GB/s = 1.6 ms, 1.5 ms beyond each rank's own 100 us.
  const ModelTerms terms = round_terms(inputs, {1e6, 1, 8, 0, 16});
  EXPECT_NEAR(terms.injection_seconds, 1.5e-3, 1e-12);
  // Fewer crossing than R_N needs: R_N stays the bound.
  EXPECT_NEAR(round_terms(inputs, {1e6, 1, 8, 0, 2}).injection_seconds, 300e-6, 1e-12);
}

TEST(NetworkModel, tra_charges_its_rounds_switch_links) {
  // P = 32, 8 nodes of 4, 4 nodes per switch, radix 32 (the direct shift): summed by hand over
  // the 31 distances with switch_link_flows, each round max(own, R_N share, switch share).
  ModelInputs inputs = machine(32, 4, 1000);
  inputs.nodes_per_switch = 4;
  inputs.switch_link_bytes_per_second = 1e9;
  double expected = 0;
  for (long d = 1; d < 32; ++d) {
    const long leaving = ranks_leaving_node(32, 4, d);
    const auto crossing = static_cast<double>(switch_link_flows(32, 4, 4, d));
    const double off =
        std::max({1000 * 1e-10, static_cast<double>(leaving) * 1000 / 20e9, crossing * 1000 / 1e9});
    const double on = 1e-6 + 1000 * 1e-11;
    expected += leaving == 0 ? on : leaving == 4 ? 2e-6 + off : std::max(2e-6 + off, on);
  }
  EXPECT_NEAR(model_tra(inputs, 32).seconds, expected, 1e-12);
}

TEST(NetworkModel, shared_leaders_charge_each_rounds_switch_link) {
  // 8 nodes of 2, 4 nodes per switch, one leader: round j sends offset j + 1 from every node;
  // from switch 0's nodes 0-3, offsets 1..7 put 1, 2, 3, 4, 3, 2, 1 messages on the link to
  // switch 1. A message is Q^2 = 4 blocks of 1 KB: 4 us per message through 1 GB/s, beyond
  // its own 0.4 us (R_N's share, 0.2 us, is less).
  ModelInputs inputs = machine(16, 2, 1000);
  inputs.nodes_per_switch = 4;
  inputs.switch_link_bytes_per_second = 1e9;
  const ModelResult mpml = model_shared_leaders(inputs, {"mpml(leaders=1)", 1, false});
  EXPECT_NEAR(mpml.terms.injection_seconds, (4.0 * 16 - 7 * 0.4) * 1e-6, 1e-12);
}

// The host copy term: 10 GB/s and 5 ns a memcpy call.
ModelInputs copying(long ranks, long per_node, std::size_t block_bytes) {
  ModelInputs inputs = machine(ranks, per_node, block_bytes);
  inputs.host_copy_bytes_per_second = 10e9;
  inputs.host_copy_call_seconds = 5e-9;
  return inputs;
}

TEST(NetworkModel, a_measured_bend_sets_the_factor_from_its_size_to_the_next) {
  // Line 1 us + 1 ns/B. At 1 KB the trip is 2.02 us (on the line's 2 us, within 5%): 1. At 4 KB
  // a rendezvous makes it 8 us, 3 us above the line: latency factor (8 - 4) / 1 = 4. At 64 KB
  // it is 33 us against 66 us (caches): bandwidth factor 64 / (33 - 1) = 2.
  const SizeFactors factors =
      bent_line({1e-6, 1e-9}, {{1000, 2.02e-6}, {4000, 8e-6}, {64000, 33e-6}}, 1e6);
  ASSERT_EQ(factors.latency.size(), 4u);
  EXPECT_DOUBLE_EQ(size_factor(factors.latency, 1000), 1);
  EXPECT_DOUBLE_EQ(size_factor(factors.latency, 3999), 1);
  EXPECT_NEAR(size_factor(factors.latency, 4000), 4, 1e-9);
  EXPECT_NEAR(size_factor(factors.latency, 63999), 4, 1e-9);
  EXPECT_DOUBLE_EQ(size_factor(factors.latency, 64000), 1);
  EXPECT_NEAR(size_factor(factors.bandwidth, 64000), 2, 1e-9);
  EXPECT_DOUBLE_EQ(size_factor(factors.bandwidth, 1e6), 1);  // the line's own end
  // Carried by MeasuredLinks into the model's inputs (as model --measure and
  // auto:mode=estimate take them), a 4 KB message takes the measured trip.
  MeasuredLinks links;
  links.intra = links.inter = {1e-6, 1e-9};
  links.latency_factors = factors.latency;
  links.bandwidth_factors = factors.bandwidth;
  const ModelInputs inputs = measured_inputs(2, 2, 4000, links);
  EXPECT_NEAR(total_seconds(round_terms(inputs, {4000, 1, 0, 1})), 8e-6, 1e-15);
  EXPECT_NEAR(total_seconds(round_terms(inputs, {64000, 1, 0, 1})), 33e-6, 1e-15);
}

TEST(HostCopy, calls_and_bytes_by_hand) {
  // 100 calls moving 1 MB: 100 x 5 ns + 1 MB / 10 GB/s = 0.5 us + 100 us.
  EXPECT_NEAR(host_copy_seconds(copying(8, 8, 1), 100, 1e6), 100.5e-6, 1e-15);
  EXPECT_DOUBLE_EQ(host_copy_seconds(machine(8, 8, 1), 100, 1e6), 0);  // not given: free
}

TEST(HostCopy, tra_packs_only_rounds_of_more_than_one_block) {
  // P = 8, radix 2: three rounds of the 4 distances with bit k set, 12 blocks packed;
  // radix 8: seven rounds of one block each, none packed.
  EXPECT_EQ(tra_packed_blocks(8, 2), 12);
  EXPECT_EQ(tra_packed_blocks(8, 8), 0);
  // P = 9, radix 3: two digit positions, values 1 and 2 of each, 3 blocks a round.
  EXPECT_EQ(tra_packed_blocks(9, 3), 12);
}

TEST(HostCopy, tra_radix_2_copies_its_own_block_and_packs_twice) {
  // P = 8, 16 B blocks: 1 + 2 x 12 = 25 calls of 16 B: 25 x 5 ns + 400 B / 10 GB/s.
  const ModelResult with = model_tra(copying(8, 8, 16), 2);
  const ModelResult without = model_tra(machine(8, 8, 16), 2);
  EXPECT_NEAR(with.terms.host_copy_seconds, 125e-9 + 40e-9, 1e-18);
  EXPECT_NEAR(with.seconds - without.seconds, 165e-9, 1e-15);
  EXPECT_NEAR(with.seconds, total_seconds(with.terms), 1e-15);
}

TEST(HostCopy, the_hierarchical_leader_copies_its_whole_node_twice) {
  // P = 256, Q = ppl = 64, 4 KiB blocks: the leader transposes the gathered 64 x 256 blocks into
  // super-blocks (256 calls of 64 blocks), back out per member (16,384 calls of one block), and
  // its inner pairwise copies its own super-block (1 call of 64^2 blocks).
  const ModelResult result =
      model_node_aware(copying(256, 64, 4096), {"hierarchical", 64, false, 1});
  const double calls = 256 + 16384 + 1;
  const double bytes = (2.0 * 64 * 256 + 64 * 64) * 4096;
  EXPECT_NEAR(result.terms.host_copy_seconds, calls * 5e-9 + bytes / 10e9, 1e-12);
  // 134 MB through one memcpy: 15.1 ms on its own, more than the leaders' 3 x 16 MiB messages.
  EXPECT_GT(result.terms.host_copy_seconds, 0.015);
}

TEST(HostCopy, node_aware_transposes_twice_on_every_rank) {
  // ppl = 1, two-step over regions of Q = 4 groups, P = 16: two transposes of the 16 blocks
  // (16 calls each) and the two inner pairwise's own blocks (4 blocks, then 4 blocks).
  const ModelResult result = model_node_aware(copying(16, 4, 100), {"node-aware", 1, true, 4});
  EXPECT_NEAR(result.terms.host_copy_seconds, 34 * 5e-9 + 40 * 100 / 10e9, 1e-15);
}

TEST(HostCopy, shared_leaders_gather_and_scatter_are_host_copies) {
  // 4 nodes of 4, 1 leader, 1 KB blocks: 3 messages, each a gather of 4 runs of 4 blocks and a
  // scatter of 16 single blocks; every rank pulls its own node's 4 blocks: 64 calls, 100 blocks.
  // The node's shared-memory rate no longer applies (the copies are memcpys).
  const ModelResult mpml = model_shared_leaders(copying(16, 4, 1000), {"mpml", 1, false});
  EXPECT_NEAR(mpml.terms.host_copy_seconds, 64 * 5e-9 + 100 * 1000 / 10e9, 1e-15);
  EXPECT_DOUBLE_EQ(mpml.terms.copy_seconds, 0);
}

TEST(NetworkModel, xor_pairs_send_a_whole_switch_to_one_other_switch) {
  // P = 8, 4 nodes of 2, 2 nodes (4 ranks) per switch, 1 KB blocks, switch links 1 GB/s.
  // d = 1: on-node (1 us + 0.01 us); d = 2, 3: both ranks of node 0 leave (2 us + 0.1 us; R_N's
  // share 0.1 us is no more); d = 4..7: all 4 ranks of switch 0 go to switch 1 through one link,
  // 4 KB / 1 GB/s = 4 us (2 us + 4 us).
  ModelInputs inputs = machine(8, 2, 1000);
  inputs.nodes_per_switch = 2;
  inputs.switch_link_bytes_per_second = 1e9;
  const ModelResult pairs = model_xor_pairs(inputs, "mpi(alg=pair)");
  EXPECT_EQ(pairs.rounds, 7);
  EXPECT_NEAR(pairs.seconds, 1.01e-6 + 2 * 2.1e-6 + 4 * 6e-6, 1e-12);
  EXPECT_THROW(model_xor_pairs(machine(12, 4, 1000), "mpi(alg=pair)"), std::invalid_argument);
}

TEST(MaxRateModel, every_backend_answers_at_a_million_ranks_in_seconds) {
  const ModelInputs inputs = copying(1000000, 100, 1024);
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
