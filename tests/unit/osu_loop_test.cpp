// `a2afft alltoall --stats osu` measures with osu_alltoall's own loop (apps/osu_loop.hpp): a
// fake clock and a log of calls check, by hand, which calls it times, what it divides by, and
// where its barriers fall.

#include <gtest/gtest.h>

#include <string>

#include "osu_loop.hpp"

namespace a2afft::commands {
namespace {

// A fake MPI_Wtime: the k-th call (from 1) takes k seconds, a barrier 1,000 seconds, so any
// barrier or warm-up call inside the timed sum shows in the mean.
struct FakeRun {
  double now_seconds = 0;
  int calls = 0;
  std::string log;  // B = barrier, C = call, in order

  OsuLoopCalls loop_calls() {
    return {.call =
                [this] {
                  ++calls;
                  now_seconds += calls;
                  log += 'C';
                },
            .barrier =
                [this] {
                  now_seconds += 1000;
                  log += 'B';
                },
            .seconds_now = [this] { return now_seconds; }};
  }
};

// osu_alltoall.c: one barrier, then per call t_start, the call, t_stop, a barrier; the skipped
// calls untimed; the sum over the timed calls divided by the iterations. With 2 skipped and 3
// timed calls of 1 to 5 s, the mean is (3 + 4 + 5) / 3 = 4 s: timing the warm-ups too would give
// 15 / 3 = 5 s or 15 / 5 = 3 s, a barrier inside the timing over 1,000 s.
TEST(OsuLoop, times_only_the_calls_after_the_warmup_and_barriers_after_each) {
  FakeRun run;
  EXPECT_DOUBLE_EQ(osu_loop_mean_seconds(2, 3, run.loop_calls()), 4.0);
  EXPECT_EQ(run.calls, 5);
  EXPECT_EQ(run.log, "BCBCBCBCBCB");
}

TEST(OsuLoop, no_warmup_times_every_call) {
  FakeRun run;
  EXPECT_DOUBLE_EQ(osu_loop_mean_seconds(0, 2, run.loop_calls()), 1.5);  // (1 + 2) / 2
  EXPECT_EQ(run.log, "BCBCB");
}

}  // namespace
}  // namespace a2afft::commands
