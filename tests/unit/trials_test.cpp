#include <a2afft/tools/timing.hpp>

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace a2afft::timing {
namespace {

// The calls run_trials makes, as text: "p0" prepare, "w0" warm-up, "r0" timed run, "f0:2" finish
// with 2 timed runs.
struct Recorder {
  std::vector<std::string> calls;
  double seconds_per_run = 1;
  TrialCallbacks callbacks() {
    TrialCallbacks c;
    c.prepare = [this](std::size_t k) { calls.push_back("p" + std::to_string(k)); };
    c.run = [this](std::size_t k, int round) {
      calls.push_back((round < 0 ? "w" : "r") + std::to_string(k));
      return seconds_per_run;
    };
    c.finish = [this](std::size_t k, std::vector<double>& seconds) {
      calls.push_back("f" + std::to_string(k) + ":" + std::to_string(seconds.size()));
    };
    return c;
  }
};

using Calls = std::vector<std::string>;

// Interleaved: round i of every candidate before round i + 1, all prepared first and finished
// last. Sequential: one candidate finished before the next is prepared.
TEST(Trials, the_order_of_the_calls) {
  const std::pair<TrialOrder, Calls> cases[] = {
      {TrialOrder::interleaved, {"p0", "p1", "w0", "w1", "r0", "r1", "r0", "r1", "f0:2", "f1:2"}},
      {TrialOrder::sequential, {"p0", "w0", "r0", "r0", "f0:2", "p1", "w1", "r1", "r1", "f1:2"}}};
  for (const auto& [order, calls] : cases) {
    Recorder recorder;
    run_trials(2, order, {.warmup = 1, .fewest = 2, .most = 2}, recorder.callbacks());
    EXPECT_EQ(recorder.calls, calls);
  }
}

// 1 s a run. Interleaved, 2 candidates spend 2 s a round, so a 5 s budget is spent after round
// 3; sequential, each has half of it, so 3 runs each; never fewer than `fewest` or more than
// `most`.
TEST(Trials, a_budget_stops_between_the_fewest_and_the_most_rounds) {
  struct Case {
    std::size_t candidates;
    TrialOrder order;
    TrialRounds rounds;
    std::string last_call;
  };
  const Case cases[] = {
      {2, TrialOrder::interleaved, {.fewest = 1, .most = 10, .budget_seconds = 5}, "f1:3"},
      {2, TrialOrder::sequential, {.fewest = 1, .most = 10, .budget_seconds = 5}, "f1:3"},
      {1, TrialOrder::sequential, {.fewest = 4, .most = 10, .budget_seconds = 1}, "f0:4"},
      {1, TrialOrder::sequential, {.fewest = 1, .most = 2, .budget_seconds = 100}, "f0:2"}};
  for (const Case& test : cases) {
    Recorder recorder;
    run_trials(test.candidates, test.order, test.rounds, recorder.callbacks());
    EXPECT_EQ(recorder.calls.back(), test.last_call);
  }
}

TEST(Trials, median_of_odd_and_even_counts) {
  EXPECT_EQ(median({3, 1, 2}), 2);
  EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
}

}  // namespace
}  // namespace a2afft::timing
