#include "timing/phase_timer.hpp"

#include <gtest/gtest.h>

namespace a2afft::detail {
namespace {

TEST(PhaseTimer, adds_per_phase_and_clear_keeps_the_entries_at_zero) {
  PhaseTimer timer;
  timer.add("pack", 1.5);
  timer.add("pack", 0.5);
  timer.add("inter", 3);
  EXPECT_DOUBLE_EQ(timer.seconds().at("pack"), 2.0);
  EXPECT_DOUBLE_EQ(timer.seconds().at("inter"), 3.0);
  timer.clear();
  ASSERT_EQ(timer.seconds().size(), 2u);
  EXPECT_EQ(timer.seconds().at("pack"), 0.0);
  { const ScopedPhase timed(&timer, "pack"); }
  EXPECT_GE(timer.seconds().at("pack"), 0.0);
  { const ScopedPhase untimed(nullptr, "never"); }  // no timer: records nothing
  EXPECT_EQ(timer.seconds().count("never"), 0u);
}

}  // namespace
}  // namespace a2afft::detail
