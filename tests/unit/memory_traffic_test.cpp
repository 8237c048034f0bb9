// The passes over memory of the plans' schedules (pencil_schedule, six_step_schedule) by the hand
// count of tests/support/traffic_oracle.hpp, against counts made by hand from the engines' steps.
// The engines' own traffic() (a fold over their step programs) is held to that hand count and to
// the bytes their executor reports in the MPI test tests/mpi/traffic_test.cpp. A is a rank's
// share of the complex array; each comment lists the steps as "source + destination" of every sweep
// and "2 x blocks x block" of every exchange (its read of send and write of recv).

#include <gtest/gtest.h>

#include "pencil_geometry.hpp"
#include "six_step_geometry.hpp"
#include "traffic_oracle.hpp"

namespace a2afft::detail::fft {
namespace {

constexpr std::size_t kComplex = 16;

std::size_t pencil_bytes(const Shape3& shape, const ProcGrid& grid, PencilOutput output,
                         bool backward, std::array<bool, 2> leaves_own_block,
                         std::size_t element_bytes = kComplex) {
  const PencilGeometry geometry(shape, grid, 0, output);
  const std::size_t side = geometry.input_box().elements() * element_bytes;
  return pencil_bytes_moved(geometry, pencil_schedule(geometry, backward, leaves_own_block),
                            element_bytes, side, side);
}

TEST(PencilTraffic, one_rank_reads_the_input_into_the_work_array_and_out_again) {
  // 1x1: no transposes. Stage 0 (z and y FFTs): input + work; stage 2 (x FFTs): work + output.
  const std::size_t a = 8 * 8 * 8 * kComplex;
  EXPECT_EQ(pencil_bytes({8, 8, 8}, {1, 1}, PencilOutput::transposed, false, {true, true}), 4 * a);
  EXPECT_EQ(pencil_bytes({8, 8, 8}, {1, 1}, PencilOutput::natural, true, {true, true}), 4 * a);
}

TEST(PencilTraffic, slabs_on_two_ranks_move_six_passes_or_five_with_the_own_block_in_place) {
  // 2x1: stage 0 input + send; column exchange 2 x 2 x A/2 (or 2 x 1 x A/2); stage 2 recv +
  // output.
  const std::size_t a = 8 * 8 * 8 * kComplex / 2;
  const PencilGeometry geometry({8, 8, 8}, {2, 1}, 0);
  const std::vector<PencilSweepPlan> schedule = pencil_schedule(geometry, false, {false, false});
  ASSERT_EQ(schedule.size(), 2u);
  EXPECT_TRUE(schedule[0].from_input && schedule[0].computes);
  EXPECT_EQ(schedule[0].pack, kColumnThere);
  EXPECT_EQ(schedule[1].unpack, kColumnThere);
  EXPECT_TRUE(schedule[1].to_output);
  EXPECT_EQ(pencil_bytes({8, 8, 8}, {2, 1}, PencilOutput::transposed, false, {false, false}),
            6 * a);
  EXPECT_EQ(pencil_bytes({8, 8, 8}, {2, 1}, PencilOutput::transposed, false, {false, true}), 5 * a);
  // Backward from the transposed layout: the same two sweeps reversed.
  EXPECT_EQ(pencil_bytes({8, 8, 8}, {2, 1}, PencilOutput::transposed, true, {false, true}), 5 * a);
}

TEST(PencilTraffic, natural_output_adds_a_transpose_back_whose_own_block_is_always_sent) {
  // 2x1 natural: stage 0 input + send; exchange 2A (A in place); stage 2 recv + send (it
  // unpacked, so its own block goes through send); exchange 2A; stage 0 again recv + output.
  const std::size_t a = 8 * 8 * 8 * kComplex / 2;
  EXPECT_EQ(pencil_bytes({8, 8, 8}, {2, 1}, PencilOutput::natural, false, {false, false}), 10 * a);
  EXPECT_EQ(pencil_bytes({8, 8, 8}, {2, 1}, PencilOutput::natural, false, {true, true}), 9 * a);
}

TEST(PencilTraffic, pencils_on_four_ranks_move_ten_passes) {
  // 2x2: stage 0 input + send; row exchange 2A; stage 1 recv + send; column exchange 2A;
  // stage 2 recv + output.
  const std::size_t a = 8 * 8 * 8 * kComplex / 4;
  EXPECT_EQ(pencil_bytes({8, 8, 8}, {2, 2}, PencilOutput::transposed, false, {false, false}),
            10 * a);
}

TEST(PencilTraffic, a_batch_scales_every_count_by_its_fields) {
  const std::size_t a = 8 * 8 * 8 * 3 * kComplex / 2;
  EXPECT_EQ(pencil_bytes({8, 8, 8}, {2, 1}, PencilOutput::transposed, false, {false, false},
                         3 * kComplex),
            6 * a);
}

TEST(PencilTraffic, r2c_reads_the_real_input_and_moves_the_half_spectrum) {
  // 8x8x8 r2c on 2x1: the complex array is 8x8x5, A = 4 x 8 x 5 x 16 = 2560 on rank 0.
  // Stage 0: real input 4 x 8 x 8 x 8 = 2048 + send 2560; column exchange: blocks of 4 (y) x 4
  // (x) x 5 points, 2 x 2 x 1280 = 5120; stage 2: recv 2560 + output 2560. 14848 = 5.8 A.
  const PencilGeometry geometry({8, 8, 5}, {2, 1}, 0);
  const std::vector<PencilSweepPlan> schedule = pencil_schedule(geometry, false, {false, false});
  EXPECT_EQ(pencil_bytes_moved(geometry, schedule, kComplex, 2048, 2560), 14848u);
}

std::size_t six_step_bytes(std::size_t n, int ranks, bool scrambled, bool backward,
                           bool leaves_own_block) {
  const SixStepGeometry geometry(n, ranks, 0, scrambled);
  return six_step_bytes_moved(geometry, six_step_schedule(geometry, backward, leaves_own_block),
                              kComplex);
}

TEST(SixStepTraffic, natural_output_is_four_transposes_three_exchanges_and_two_sweeps) {
  // N = 64 = 8 x 8 on two ranks, A = 32 x 16: transpose input -> send 2A; exchange 2A; N1 sweep
  // recv + send 2A; exchange 2A (A with our block in place); transpose recv -> work 2A; N2 sweep
  // work + send 2A; exchange 2A (or A); transpose recv -> output 2A. An exchange moves 2 blocks
  // of A/2, or 1 with our own in place.
  const std::size_t half = 64 * kComplex / 2;
  EXPECT_EQ(six_step_bytes(64, 2, false, false, false), 16 * half);
  EXPECT_EQ(six_step_bytes(64, 2, false, false, true), 14 * half);
}

TEST(SixStepTraffic, one_rank_is_three_passes_natural_and_two_scrambled) {
  // N = 64 = 8 x 8 on one rank, A = 64 x 16, whatever the exchange: forward, columns input ->
  // work 2A, rows in place on work 2A, transpose work -> output 2A; scrambled: columns input ->
  // output 2A, rows on the output 2A. Backward: transpose input -> work 2A (natural only), rows
  // -> work 2A, columns work -> output 2A. Sixteen passes before (issue 45).
  const std::size_t a = 64 * kComplex;
  for (const bool own : {false, true}) {
    EXPECT_EQ(six_step_bytes(64, 1, false, false, own), 6 * a);
    EXPECT_EQ(six_step_bytes(64, 1, false, true, own), 6 * a);
    EXPECT_EQ(six_step_bytes(64, 1, true, false, own), 4 * a);
    EXPECT_EQ(six_step_bytes(64, 1, true, true, own), 4 * a);
  }
}

TEST(SixStepTraffic, scrambled_output_skips_the_last_exchange_and_transpose) {
  // Forward: transpose 2A, exchange 2A, N1 sweep 2A, exchange 2A (A in place), transpose 2A, N2
  // sweep in place on the output 2A. Backward: N2 sweep input -> work 2A, transpose 2A,
  // exchange 2A, N1 sweep 2A, exchange 2A (A), transpose 2A.
  const std::size_t half = 64 * kComplex / 2;
  EXPECT_EQ(six_step_bytes(64, 2, true, false, false), 12 * half);
  EXPECT_EQ(six_step_bytes(64, 2, true, false, true), 11 * half);
  EXPECT_EQ(six_step_bytes(64, 2, true, true, true), 11 * half);
  const SixStepGeometry geometry(64, 2, 0, true);
  const std::vector<SixStepStep> forward = six_step_schedule(geometry, false, true);
  ASSERT_EQ(forward.size(), 6u);
  EXPECT_EQ(forward.back().op, SixStepStep::Op::sweep);
  EXPECT_EQ(forward.back().to, SixStepArray::output);
  EXPECT_TRUE(forward.back().scaled);
}

}  // namespace
}  // namespace a2afft::detail::fft
