#include "osu_loop.hpp"

namespace a2afft::commands {

double osu_loop_mean_seconds(int warmup, int runs, const OsuLoopCalls& calls) {
  calls.barrier();
  double timed_seconds = 0;
  for (int i = 0; i < runs + warmup; ++i) {
    const double start = calls.seconds_now();
    calls.call();
    const double stop = calls.seconds_now();
    if (i >= warmup) timed_seconds += stop - start;
    // After the call, as OSU's: the next call starts as this rank leaves the barrier.
    calls.barrier();
  }
  return timed_seconds / runs;
}

}  // namespace a2afft::commands
