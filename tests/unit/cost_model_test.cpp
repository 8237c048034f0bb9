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
    modelled_cost(Spec{"auto", {}}, sixteen_ranks());
    FAIL() << "auto, a choice among the others, has no cost model of its own";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what())
                  .find("does not price auto; it prices mpi, pairwise, nonblocking, factor, "
                        "factor-hier, tra, bruck"),
              std::string::npos)
        << error.what();
  }
}

// The vendor row is priced only with its schedule named: the library's own choice is unknown.
TEST(CostModel, mpi_is_priced_only_with_its_schedule_named) {
  EXPECT_THROW(modelled_cost(Spec{"mpi", {}}, sixteen_ranks()), UsageError);
  const ModelResult pair = modelled_cost(Spec{"mpi", {{"alg", "pair"}}}, sixteen_ranks());
  EXPECT_EQ(pair.algorithm, "mpi(alg=pair)");
  EXPECT_EQ(pair.rounds, 15);
  const ModelResult ring = modelled_cost(Spec{"mpi", {{"alg", "ring"}}}, sixteen_ranks());
  EXPECT_DOUBLE_EQ(ring.seconds, model_direct(sixteen_ranks(), "pairwise").seconds);
  for (const PricedSpec& priced : priced_specs(sixteen_ranks()))
    EXPECT_NE(priced.spec.name, "mpi") << "auto:mode=estimate cannot price the library's choice";
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

// The node-aware family's price, by hand on 16 ranks in nodes of 4 (1 KiB blocks): hierarchical
// gathers the node's 4 x 16 blocks to its leader as a binomial tree (a message of 16 blocks from
// rank 1, then one of 32 from rank 2, which holds rank 3's), runs 3 inter-node rounds of 16-block
// super-blocks among the 4 leaders, and scatters the same tree back.
TEST(CostModel, hierarchical_counts_gather_leader_rounds_and_scatter) {
  const ModelResult result = modelled_cost(Spec{"hierarchical", {}}, sixteen_ranks());
  const double gather = 2 * 0.5e-6 + (16 + 32) * 1024 * 0.05e-9;
  const double leader_round = 2e-6 + 16 * 1024 * 0.1e-9;
  EXPECT_EQ(result.algorithm, "hierarchical(inner=pairwise)");
  EXPECT_EQ(result.rounds, 2 + 3 + 2);
  EXPECT_EQ(result.blocks, 3 * 16 + 3 * 16);  // super-blocks out, then the scatter
  EXPECT_EQ(result.inter_node_messages_per_node, 3);
  EXPECT_NEAR(result.seconds, 2 * gather + 3 * leader_round, 1e-15);
}

// node-aware: 3 inter-node rounds of 4 blocks (each rank to its peers of equal local rank),
// then 3 intra-node rounds of 4 blocks.
TEST(CostModel, node_aware_counts_the_inter_then_the_intra_step) {
  const ModelResult result = modelled_cost(Spec{"node-aware", {}}, sixteen_ranks());
  EXPECT_EQ(result.rounds, 6);
  EXPECT_EQ(result.blocks, 3 * 4 + 3 * 4);
  EXPECT_EQ(result.inter_node_messages_per_node, 3 * 4);
  EXPECT_NEAR(result.seconds, 3 * (2e-6 + 4096 * 0.1e-9) + 3 * (0.5e-6 + 4096 * 0.05e-9), 1e-15);
}

// Where a row degenerates into another schedule, the model gives the other's price.
TEST(CostModel, node_aware_rows_degenerate_into_the_schedules_they_become) {
  const ModelInputs inputs = sixteen_ranks();
  const ModelResult pairwise = model_direct(inputs, "pairwise");
  const auto price = [&](const std::string& name, const std::string& key,
                         const std::string& value) {
    return modelled_cost(Spec{name, {{key, value}}}, inputs);
  };
  // One rank per leader and a flat exchange: pairwise among all ranks.
  EXPECT_NEAR(price("multileader", "ppl", "1").seconds, pairwise.seconds, 1e-15);
  EXPECT_EQ(price("multileader", "ppl", "1").rounds, pairwise.rounds);
  // ppl = 1 turns multileader-node-aware into node-aware.
  EXPECT_NEAR(price("multileader-node-aware", "ppl", "1").seconds,
              modelled_cost(Spec{"node-aware", {}}, inputs).seconds, 1e-15);
  // One region per node is node-aware.
  EXPECT_NEAR(price("locality-aware", "groups", "1").seconds,
              modelled_cost(Spec{"node-aware", {}}, inputs).seconds, 1e-15);
  // On one node node-aware's exchange is the intra step alone: pairwise inside the node.
  const ModelInputs one_node{4, 4, 1024, inputs.intra, inputs.inter};
  EXPECT_NEAR(modelled_cost(Spec{"node-aware", {}}, one_node).seconds,
              model_direct(one_node, "pairwise").seconds, 1e-15);
}

// mpml: one leader serves the 3 other nodes one after another: per message a gather of 16
// blocks from node memory, an inter-node message of 16 blocks, a scatter; plus its own node's
// 4 blocks and two node barriers (2 x log2 4 intra latencies). onmpml pipelines the messages.
TEST(CostModel, shared_leaders_pay_per_message_and_onmpml_pipelines) {
  const ModelInputs inputs = sixteen_ranks();
  const double copy = 16 * 1024 * 0.05e-9;
  const double send = 2e-6 + 16 * 1024 * 0.1e-9;
  const double own = 4 * 1024 * 0.05e-9;
  const double barriers = 2 * 2 * 0.5e-6;
  const ModelResult mpml = modelled_cost(Spec{"mpml", {}}, inputs);
  EXPECT_EQ(mpml.algorithm, "mpml(leaders=1)");
  EXPECT_EQ(mpml.rounds, 3);
  EXPECT_EQ(mpml.blocks, 3 * 16);
  EXPECT_EQ(mpml.inter_node_messages_per_node, 3);
  EXPECT_NEAR(mpml.seconds, 3 * (copy + send + copy) + own + barriers, 1e-15);
  const ModelResult onmpml = modelled_cost(Spec{"onmpml", {}}, inputs);
  EXPECT_NEAR(onmpml.seconds, copy + send + copy + 2 * send + barriers, 1e-15);
  // Two leaders serve ceil(3 / 2) = 2 messages each.
  EXPECT_EQ(modelled_cost(Spec{"nmpml", {{"leaders", "2"}}}, inputs).rounds, 2);
}

// A node's ranks must send Q (P - Q) blocks off the node; the schedules that forward nothing
// across nodes send exactly that, tra (radix 2) forwards some twice.
TEST(CostModel, inter_node_bytes_per_node_are_the_off_node_blocks_unless_forwarded) {
  const ModelInputs inputs = sixteen_ranks();
  const double off_node = 4.0 * (16 - 4) * 1024;
  for (const char* name : {"pairwise", "hierarchical", "multileader", "node-aware",
                           "multileader-node-aware", "mpml", "onmpml"}) {
    EXPECT_EQ(modelled_cost(Spec{name, {}}, inputs).inter_node_bytes_per_node, off_node) << name;
  }
  EXPECT_GT(model_tra(inputs, 2).inter_node_bytes_per_node, off_node);
  EXPECT_EQ(model_tra(inputs, 16).inter_node_bytes_per_node, off_node);  // radix P: direct
}

TEST(CostModel, node_aware_and_leader_rows_refuse_what_their_formulas_cannot_price) {
  const ModelInputs inputs = sixteen_ranks();
  const auto message = [&](const Spec& spec) {
    try {
      modelled_cost(spec, inputs);
    } catch (const UsageError& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message({"multileader", {{"ppl", "3"}}}).find("ppl=3 does not divide Q=4"),
            std::string::npos);
  EXPECT_NE(message({"locality-aware", {{"groups", "3"}}}).find("groups=3 does not divide Q=4"),
            std::string::npos);
  EXPECT_NE(message({"node-aware", {{"inner", "tra"}}}).find("prices inner=pairwise"),
            std::string::npos);
  EXPECT_NE(message({"onmpml", {{"leaders", "5"}}}), "no error");
}

}  // namespace
}  // namespace a2afft::detail::schedule
