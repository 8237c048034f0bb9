#include "six_step_geometry.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "error.hpp"

namespace a2afft::detail::fft {
namespace {

TEST(SixStepSplit, chooses_n1_near_the_square_root_with_p_dividing_both) {
  EXPECT_EQ(choose_six_step_split(std::size_t{1} << 20, 2).n1, std::size_t{1} << 10);
  EXPECT_EQ(choose_six_step_split(std::size_t{1} << 21, 2).n1,
            std::size_t{1} << 11);  // tie: larger
  EXPECT_EQ(choose_six_step_split(720, 1).n1 * choose_six_step_split(720, 1).n2, 720u);
  for (int p = 1; p <= 8; ++p) {
    const std::size_t n = static_cast<std::size_t>(p * p) * 77;
    const SixStepSplit split = choose_six_step_split(n, p);
    EXPECT_EQ(split.n1 * split.n2, n);
    EXPECT_EQ(split.n1 % static_cast<std::size_t>(p), 0u);
    EXPECT_EQ(split.n2 % static_cast<std::size_t>(p), 0u);
  }
  EXPECT_EQ(choose_six_step_split(720, 2, 6).n2, 120u);  // given and valid
}

TEST(SixStepSplit, impossible_lengths_name_the_rule_and_neighbours) {
  try {
    choose_six_step_split(1000, 3);
    FAIL();
  } catch (const UsageError& error) {
    const std::string text = error.what();
    EXPECT_NE(text.find("N=1000 on P=3"), std::string::npos) << text;
    EXPECT_NE(text.find("multiple of P^2 = 9; nearest valid N: 999 or 1008"), std::string::npos)
        << text;
  }
  EXPECT_THROW(choose_six_step_split(720, 2, 5), UsageError);  // P does not divide N1
  EXPECT_THROW(choose_six_step_split(720, 2, 7), UsageError);  // N1 does not divide N
  EXPECT_THROW(choose_six_step_split(720, 4, 8), UsageError);  // P does not divide N2 = 90
  EXPECT_THROW(choose_six_step_split(0, 1), UsageError);       // no points (once a crash)
}

// A library caller set Fft1dOptions::n1 and typed no flag: the message names the option, and
// lists each valid N1 once, in order (64's square root 8 was listed twice; issue 43).
TEST(SixStepSplit, a_bad_n1_names_the_library_option_and_lists_each_valid_n1_once) {
  try {
    choose_six_step_split(64, 2, 7);
    FAIL();
  } catch (const UsageError& error) {
    EXPECT_EQ(std::string(error.what()),
              "Fft1dOptions::n1=7 is not valid for N=64 on P=2: N1 must divide N with P dividing "
              "N1 and N/N1; valid N1: 2, 4, 8, 16, 32");
  }
}

TEST(SixStepGeometry, rows_and_blocks_follow_the_split) {
  const SixStepGeometry geometry(720, 2, 6);  // N1 = 6, N2 = 120
  EXPECT_EQ(geometry.split().n2, 120u);
  EXPECT_EQ(geometry.local_length(), 360u);
  EXPECT_EQ(geometry.rows1(), 3u);
  EXPECT_EQ(geometry.rows2(), 60u);
  EXPECT_EQ(geometry.block_elements(), 180u);  // N / P^2
  EXPECT_EQ(geometry.block_bytes(), 180u * sizeof(std::complex<double>));
  const SixStepGeometry chosen(std::size_t{1} << 20, 4);
  EXPECT_EQ(chosen.split().n1, std::size_t{1} << 10);  // as choose_six_step_split chooses
  EXPECT_EQ(chosen.block_elements() * 16, chosen.length());
  EXPECT_THROW(SixStepGeometry(1000, 3), UsageError);
  EXPECT_THROW(SixStepGeometry(720, 2, 5), UsageError);
}

// Every rank's input box and output indices together cover 0..N-1 once, natural or scrambled.
TEST(SixStepGeometry, inputs_and_outputs_of_all_ranks_cover_the_length_once) {
  for (const bool scrambled : {false, true}) {
    for (int p = 1; p <= 6; ++p) {
      const std::size_t n = static_cast<std::size_t>(p * p) * 12;
      const SixStepGeometry geometry(n, p, 0, scrambled);
      std::vector<int> inputs(n, 0), outputs(n, 0);
      for (int rank = 0; rank < p; ++rank) {
        const BoxRange box = geometry.input_box(rank);
        EXPECT_EQ(box.extent[2], geometry.local_length());
        for (std::size_t i = 0; i < box.extent[2]; ++i) {
          ++inputs[box.offset[2] + i];
          const std::size_t index = geometry.output_index(rank, i);
          ASSERT_LT(index, n);
          ++outputs[index];
          if (!scrambled) {
            EXPECT_EQ(index, box.offset[2] + i);
          }
        }
      }
      EXPECT_EQ(std::count(inputs.begin(), inputs.end(), 1), static_cast<long>(n)) << p;
      EXPECT_EQ(std::count(outputs.begin(), outputs.end(), 1), static_cast<long>(n)) << p;
    }
  }
  // Scrambled: rank 1's element i * N2 + k2 holds X[(N1/P + i) + N1 k2]; N1 = 6, N2 = 120.
  const SixStepGeometry scrambled(720, 2, 6, true);
  EXPECT_EQ(scrambled.output_index(1, 0), 3u);
  EXPECT_EQ(scrambled.output_index(1, 120 + 7), 4u + 6 * 7);
}

// One rank (issue 45): no exchange, one transpose at most, the columns' FFTs in place of the
// transposes around the N1 sweep, scaling in each direction's last FFTs.
TEST(SixStepSchedule, one_rank_is_columns_rows_and_one_transpose) {
  using Op = SixStepStep::Op;
  using A = SixStepArray;
  const SixStepGeometry natural(720, 1, 24);  // N1 = 24, N2 = 30
  const std::vector<SixStepStep> forward = six_step_schedule(natural, false, true);
  ASSERT_EQ(forward.size(), 3u);
  EXPECT_EQ(forward[0].op, Op::column_ffts);
  EXPECT_EQ(forward[0].from, A::input);
  EXPECT_EQ(forward[0].to, A::work);
  EXPECT_EQ(forward[0].rows, 24u);
  EXPECT_EQ(forward[0].columns, 30u);
  EXPECT_FALSE(forward[0].scaled);
  EXPECT_EQ(forward[1].op, Op::sweep);
  EXPECT_EQ(forward[1].from, A::work);
  EXPECT_EQ(forward[1].to, A::work);
  EXPECT_EQ(forward[1].rows, 24u);  // rows k1 of N2 points n2, twiddled by W_N^(n2 k1) first
  EXPECT_EQ(forward[1].columns, 30u);
  EXPECT_EQ(forward[1].side, 2);
  EXPECT_EQ(forward[1].twiddle, SixStepTwiddle::before);
  EXPECT_TRUE(forward[1].scaled);
  EXPECT_FALSE(forward[1].unpack || forward[1].pack);
  EXPECT_EQ(forward[2].op, Op::local_transpose);  // [k1][k2] -> [k2][k1]
  EXPECT_EQ(forward[2].from, A::work);
  EXPECT_EQ(forward[2].to, A::output);
  EXPECT_EQ(forward[2].rows, 24u);
  EXPECT_EQ(forward[2].columns, 30u);

  const std::vector<SixStepStep> backward = six_step_schedule(natural, true, true);
  ASSERT_EQ(backward.size(), 3u);
  EXPECT_EQ(backward[0].op, Op::local_transpose);  // [k2][k1] -> [k1][k2]
  EXPECT_EQ(backward[0].from, A::input);
  EXPECT_EQ(backward[0].to, A::work);
  EXPECT_EQ(backward[0].rows, 30u);
  EXPECT_EQ(backward[1].op, Op::sweep);
  EXPECT_EQ(backward[1].twiddle, SixStepTwiddle::conjugate_after);
  EXPECT_FALSE(backward[1].scaled);
  EXPECT_EQ(backward[2].op, Op::column_ffts);
  EXPECT_EQ(backward[2].from, A::work);
  EXPECT_EQ(backward[2].to, A::output);
  EXPECT_TRUE(backward[2].scaled);
}

TEST(SixStepSchedule, one_rank_scrambled_has_no_transpose) {
  using Op = SixStepStep::Op;
  using A = SixStepArray;
  const SixStepGeometry scrambled(720, 1, 24, true);
  const std::vector<SixStepStep> forward = six_step_schedule(scrambled, false, false);
  ASSERT_EQ(forward.size(), 2u);
  EXPECT_EQ(forward[0].op, Op::column_ffts);
  EXPECT_EQ(forward[0].to, A::output);  // the rows are then done where the output is
  EXPECT_EQ(forward[1].from, A::output);
  EXPECT_EQ(forward[1].to, A::output);
  const std::vector<SixStepStep> backward = six_step_schedule(scrambled, true, false);
  ASSERT_EQ(backward.size(), 2u);
  // Rows from the input into work, never onto the output: in place that copy would overlap.
  EXPECT_EQ(backward[0].op, Op::sweep);
  EXPECT_EQ(backward[0].from, A::input);
  EXPECT_EQ(backward[0].to, A::work);
  EXPECT_EQ(backward[1].op, Op::column_ffts);
  EXPECT_EQ(backward[1].from, A::work);
  EXPECT_EQ(backward[1].to, A::output);
}

TEST(SixStepSchedule, more_ranks_keep_the_three_exchanges) {
  for (const bool scrambled : {false, true}) {
    const SixStepGeometry geometry(720, 2, 6, scrambled);
    for (const bool backward : {false, true}) {
      const std::vector<SixStepStep> steps = six_step_schedule(geometry, backward, true);
      EXPECT_EQ(steps.size(), scrambled ? 6u : 8u);
      const auto exchanges = std::count_if(steps.begin(), steps.end(), [](const SixStepStep& s) {
        return s.op == SixStepStep::Op::exchange;
      });
      EXPECT_EQ(exchanges, scrambled ? 2 : 3);
      for (const SixStepStep& step : steps)
        EXPECT_NE(step.op, SixStepStep::Op::column_ffts);
    }
  }
}

TEST(UnitRoot, matches_long_double_and_the_exact_points_of_the_circle) {
  for (const std::size_t n : {std::size_t{1}, std::size_t{8}, std::size_t{720},
                              std::size_t{1} << 27, (std::size_t{1} << 30) + 7}) {
    for (std::size_t m = 0; m < n; m += std::max<std::size_t>(1, n / 4099)) {
      const long double angle = -2.0L * std::numbers::pi_v<long double> *
                                static_cast<long double>(m) / static_cast<long double>(n);
      const std::complex<double> root = unit_root(m, n, -1);
      EXPECT_NEAR(root.real(), static_cast<double>(std::cos(angle)), 2.3e-16) << m << "/" << n;
      EXPECT_NEAR(root.imag(), static_cast<double>(std::sin(angle)), 2.3e-16) << m << "/" << n;
      EXPECT_EQ(unit_root(m, n, 1), std::conj(root));
    }
  }
  // Quarter and eighth turns are exact or correctly rounded.
  EXPECT_EQ(unit_root(2, 8, -1), std::complex<double>(0.0, -1.0));
  EXPECT_EQ(unit_root(4, 8, -1), std::complex<double>(-1.0, 0.0));
  EXPECT_EQ(unit_root(1, 8, -1).real(), -unit_root(1, 8, -1).imag());
}

TEST(TwiddleTable, every_root_within_a_few_ulp_of_the_exact_one) {
  for (const std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{720}, std::size_t{4096},
                              std::size_t{77 * 49}, (std::size_t{1} << 27) + 3}) {
    const TwiddleTable table(n);
    const std::size_t step = std::max<std::size_t>(1, n / 100003);
    for (std::size_t m = 0; m < n; m += step) {
      const std::complex<double> exact = unit_root(m, n, -1);
      EXPECT_LT(std::abs(table(m) - exact), 5e-16) << m << "/" << n;
    }
    EXPECT_LT(std::abs(table(n - 1) - unit_root(n - 1, n, -1)), 5e-16) << n;
  }
}

}  // namespace
}  // namespace a2afft::detail::fft
