#include "schedule/cost_model.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "error.hpp"
#include "registry.hpp"
#include "schedule/tra.hpp"

namespace a2afft::detail::schedule {
namespace {

// Counts, by brute force, node 0's ranks whose partner at `distance` sits on another node.
long leaving_by_brute_force(long ranks, long per_node, long distance) {
  long leaving = 0;
  for (long l = 0; l < per_node; ++l)
    leaving += (l + distance) % ranks / per_node != 0;
  return leaving;
}

TEST(CostModel, ranks_leaving_node_matches_brute_force) {
  for (long ranks = 1; ranks <= 48; ++ranks) {
    for (long per_node = 1; per_node <= ranks; ++per_node) {
      if (ranks % per_node != 0) continue;
      for (long distance = 0; distance < 2 * ranks; ++distance) {
        ASSERT_EQ(ranks_leaving_node(ranks, per_node, distance),
                  leaving_by_brute_force(ranks, per_node, distance))
            << ranks << " " << per_node << " " << distance;
      }
    }
  }
}

TEST(CostModel, tra_counts_and_time_follow_the_schedule) {
  const ModelInputs inputs{16384, 64, 1024, {1e-6, 1e-10}, {2e-6, 2e-10}};
  const ModelResult tra = model_tra(inputs, 128);
  EXPECT_EQ(tra.rounds, 254);
  EXPECT_EQ(tra.blocks, 32512);
  EXPECT_DOUBLE_EQ(tra.bytes_per_rank, 32512.0 * 1024);
  // Every round crosses nodes here, so the time is K alpha + D b beta at the inter-node rate.
  EXPECT_NEAR(tra.seconds, 254 * 2e-6 + 32512.0 * 1024 * 2e-10, 1e-12);
  // On one node nothing leaves it.
  const ModelResult one_node = model_tra({64, 64, 8, {1e-6, 1e-10}, {2e-6, 2e-10}}, 8);
  EXPECT_EQ(one_node.inter_node_messages_per_node, 0);
  EXPECT_NEAR(one_node.seconds, 14 * 1e-6 + 8.0 * 8 * 14 * 1e-10, 1e-12);
}

TEST(CostModel, tra2_sends_fewer_inter_node_messages_than_tra) {
  const ModelInputs inputs{1024, 32, 64, {0.3e-6, 1e-10}, {2e-6, 1e-10}};
  const ModelResult tra2 = model_tra2(inputs, 6, 32);
  const ModelResult direct = model_direct(inputs, "pairwise");
  EXPECT_EQ(direct.rounds, 1023);
  EXPECT_EQ(tra2.inter_node_messages_per_node, 31 * 32);
  EXPECT_LT(tra2.inter_node_messages_per_node, direct.inter_node_messages_per_node);
  EXPECT_EQ(tra2.rounds, tra_counts_by_formula(32, 6).rounds + 31);
}

// 16 ranks, nodes of 4, 1 KiB blocks, the command's default links.
ModelInputs sixteen_ranks() {
  return {16, 4, 1024, {0.5e-6, 0.05e-9}, {2e-6, 0.1e-9}};
}

// The registry rows own their cost (issue 32): each row's price is the schedule's own math.
TEST(CostModel, each_row_prices_its_defaults_with_its_schedule) {
  const ModelInputs inputs = sixteen_ranks();
  const auto price = [&](const std::string& name) { return modelled_cost(Spec{name, {}}, inputs); };
  EXPECT_EQ(price("pairwise").seconds, model_direct(inputs, "pairwise").seconds);
  EXPECT_EQ(price("factor").rounds, 15);
  EXPECT_EQ(price("tra").algorithm, "tra(radix=4)");
  EXPECT_EQ(price("tra").seconds, model_tra(inputs, default_radix(16)).seconds);
  EXPECT_EQ(price("bruck").blocks, model_tra(inputs, 2).blocks);
  EXPECT_EQ(price("tra2").algorithm, "tra2(r1=2,r2=4)");
  const Spec radix8{"tra", {{"radix", "8"}}};
  EXPECT_EQ(modelled_cost(radix8, inputs).rounds, model_tra(inputs, 8).rounds);
  EXPECT_THROW(modelled_cost(Spec{"tra", {{"radix", "17"}}}, inputs), UsageError);
}

TEST(CostModel, a_backend_without_a_cost_is_refused_naming_those_with_one) {
  try {
    modelled_cost(Spec{"mpi", {}}, sixteen_ranks());
    FAIL() << "mpi has no cost model";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("prices pairwise, nonblocking, factor, tra, bruck"),
              std::string::npos)
        << error.what();
  }
}

// What auto:mode=estimate chooses from: every radix of tra, every r1 x r2 of tra2, each once,
// each priced as modelled_cost prices it.
TEST(CostModel, priced_specs_sweep_every_radix_once) {
  const ModelInputs inputs = sixteen_ranks();
  const std::vector<PricedSpec> priced = priced_specs(inputs);
  std::set<std::string> seen;
  long tra = 0, tra2 = 0;
  for (const PricedSpec& item : priced) {
    EXPECT_TRUE(seen.insert(item.spec.to_string()).second) << item.spec.to_string();
    EXPECT_EQ(item.result.seconds, modelled_cost(item.spec, inputs).seconds);
    tra += item.spec.name == "tra";
    tra2 += item.spec.name == "tra2";
  }
  EXPECT_EQ(tra, 15);                               // radix 2..16
  EXPECT_EQ(tra2, 3 * 3);                           // r1 2..4, r2 2..4
  EXPECT_EQ(priced.front().spec.name, "pairwise");  // first in table order: wins ties
}

}  // namespace
}  // namespace a2afft::detail::schedule
