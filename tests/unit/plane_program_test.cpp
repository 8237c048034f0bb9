// The step program's executor in one process (fft/plane_program.hpp): hand-built programs of
// copies, scaling and row packing run on small arrays, checked value by value, and the bytes the
// executor reports against the fold (program_traffic) and a count made by hand.

#include "plane_program.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <numeric>
#include <vector>

namespace a2afft::detail::fft {
namespace {

constexpr std::size_t kDouble = sizeof(double);

struct Arrays {
  std::vector<double> input, output, work, send, recv;
  ProgramArrays table() {
    const auto bytes = [](std::vector<double>& v) {
      return reinterpret_cast<std::byte*>(v.data());
    };
    return {bytes(input), bytes(output), bytes(work), bytes(send), bytes(recv), nullptr, nullptr};
  }
};

std::size_t counted(const PlaneProgram<double>& program, Arrays& arrays) {
  TrafficCounter counter;
  run_program(program, arrays.table(), nullptr, &counter);
  return counter.bytes_moved();
}

TEST(PlaneProgram, copies_in_scales_and_copies_out_each_plane_in_cache) {
  // Two planes of 2 runs of 3 doubles; the input's runs lie 4 apart, the output's 3.
  Arrays arrays;
  arrays.input.resize(16);
  std::iota(arrays.input.begin(), arrays.input.end(), 1.0);
  arrays.work.resize(12);
  arrays.output.resize(12);
  Sweep<double> sweep{2, 1, false, {}};
  sweep.ops.push_back(MoveRuns{Phase::compute,
                               {ProgramArray::input, 8 * kDouble},
                               4 * kDouble,
                               {ProgramArray::work, 6 * kDouble},
                               3 * kDouble,
                               2,
                               3 * kDouble});
  sweep.ops.push_back(Scale<double>{{ProgramArray::work, 6 * kDouble}, 2, 3 * kDouble, 3, 0.5});
  sweep.ops.push_back(MoveRuns{Phase::compute,
                               {ProgramArray::work, 6 * kDouble},
                               3 * kDouble,
                               {ProgramArray::output, 6 * kDouble},
                               3 * kDouble,
                               2,
                               3 * kDouble});
  const PlaneProgram<double> program{sweep};
  // Each plane: 6 doubles read from the input, 6 written to the output; the work array and the
  // scaling stay in cache. Two planes: 2 x 96 bytes.
  EXPECT_EQ(counted(program, arrays), 192u);
  EXPECT_EQ(program_traffic(program).bytes_moved(), 192u);
  const std::vector<double> expected{0.5, 1, 1.5, 2.5, 3, 3.5, 4.5, 5, 5.5, 6.5, 7, 7.5};
  EXPECT_EQ(arrays.output, expected);
}

TEST(PlaneProgram, a_reverse_sweep_walks_the_planes_from_the_last) {
  // Each plane of 2 doubles moves one plane up in the same array (the output is the work array
  // one plane in): only from the last plane down does no plane overwrite one not yet moved.
  Arrays arrays;
  arrays.work = {1, 2, 3, 4, 5, 6, 0, 0};
  Sweep<double> sweep{3, 1, true, {}};
  sweep.ops.push_back(MoveRuns{Phase::compute,
                               {ProgramArray::work, 2 * kDouble},
                               0,
                               {ProgramArray::output, 2 * kDouble},
                               0,
                               1,
                               2 * kDouble});
  ProgramArrays table = arrays.table();
  table[static_cast<std::size_t>(ProgramArray::output)] =
      table[static_cast<std::size_t>(ProgramArray::work)] + 2 * kDouble;
  run_program(PlaneProgram<double>{sweep}, table, nullptr);
  EXPECT_EQ(arrays.work, (std::vector<double>{1, 2, 1, 2, 3, 4, 5, 6}));
}

TEST(PlaneProgram, rows_unpack_and_pack_a_chunk_at_a_time) {
  // Five rows of 4 doubles in chunks of 2 (the last of 1), two parts: row i's run b (2 doubles)
  // is at b * 10 + 2 i in the buffers. Unpack into work, scale by 10, pack into send.
  Arrays arrays;
  arrays.recv.resize(20);
  std::iota(arrays.recv.begin(), arrays.recv.end(), 0.0);
  arrays.work.resize(20);
  arrays.send.resize(20);
  const std::size_t row = 4 * kDouble;
  const std::size_t run = 2 * kDouble;
  const std::size_t block = 10 * kDouble;
  Sweep<double> sweep{5, 2, false, {}};
  sweep.ops.push_back(UnpackRows{ProgramArray::work, row, run, block, 2});
  sweep.ops.push_back(Scale<double>{{ProgramArray::work, row}, 1, 0, 4, 10.0});
  sweep.ops.push_back(PackRows{ProgramArray::work, row, run, block, 2, -1});
  const PlaneProgram<double> program{sweep};
  // Every row read from recv and written to send: 2 x 5 x 32 bytes.
  EXPECT_EQ(counted(program, arrays), 320u);
  EXPECT_EQ(program_traffic(program).bytes_moved(), 320u);
  for (std::size_t i = 0; i < 20; ++i)
    EXPECT_EQ(arrays.send[i], 10.0 * arrays.recv[i]) << i;
  EXPECT_EQ(arrays.work[6], 120.0);  // row 1, run 1: from part 1, recv[12], scaled
}

TEST(PlaneProgram, a_sweep_that_only_transforms_reads_and_writes_its_planes) {
  // Scaling in place on the work array, with nothing before or after: each plane read and
  // written once.
  Arrays arrays;
  arrays.work = {1, 2, 3, 4};
  Sweep<double> sweep{2, 1, false, {}};
  sweep.ops.push_back(Scale<double>{{ProgramArray::work, 2 * kDouble}, 1, 0, 2, 3.0});
  const PlaneProgram<double> program{sweep};
  EXPECT_EQ(counted(program, arrays), 2 * 2 * 2 * kDouble);
  EXPECT_EQ(program_traffic(program).bytes_moved(), 2 * 2 * 2 * kDouble);
  EXPECT_EQ(arrays.work, (std::vector<double>{3, 6, 9, 12}));
}

// One rank's six-step column FFTs (issue 45): 20 columns of 8 points, chunks of 16 and a last one
// of 4 (each a sweep), from the input into the output, scaled, against the DFT of each column;
// every chunk read once and written once.
TEST(PlaneProgram, column_chunks_transform_every_column_into_the_output) {
  using Complex = std::complex<double>;
  constexpr std::size_t kRows = 8, kColumns = 20;
  Arrays arrays;
  arrays.input.resize(2 * kRows * kColumns);
  arrays.output.resize(arrays.input.size());
  auto* in = reinterpret_cast<Complex*>(arrays.input.data());
  for (std::size_t i = 0; i < kRows * kColumns; ++i)
    in[i] = {std::sin(0.3 * static_cast<double>(i)), std::cos(0.7 * static_cast<double>(i))};
  const GatheredColumns<double> columns({kRows, kColumns}, kColumns, Direction::forward,
                                        Rigor::estimate);
  ASSERT_EQ(columns.width(), 16u);
  ASSERT_EQ(columns.tail_width(), 4u);
  const std::size_t column_bytes = kRows * sizeof(Complex);
  const auto sweep = [&](std::size_t first, std::size_t count, std::size_t width) {
    return Sweep<double>{count,
                         1,
                         false,
                         {ColumnChunk<double>{&columns, ProgramArray::input, ProgramArray::output,
                                              first, width * column_bytes, 0.5}}};
  };
  const PlaneProgram<double> program{sweep(0, 1, 16), sweep(1, 1, 4)};
  const std::size_t bytes = 2 * kRows * kColumns * sizeof(Complex);
  EXPECT_EQ(counted(program, arrays), bytes);
  EXPECT_EQ(program_traffic(program).bytes_moved(), bytes);
  const auto* out = reinterpret_cast<const Complex*>(arrays.output.data());
  for (std::size_t c = 0; c < kColumns; ++c) {
    for (std::size_t k = 0; k < kRows; ++k) {
      Complex sum = 0;
      for (std::size_t n = 0; n < kRows; ++n) {
        const double angle = -2 * std::numbers::pi * static_cast<double>(n * k) / kRows;
        sum += in[n * kColumns + c] * std::polar(1.0, angle);
      }
      EXPECT_LT(std::abs(out[k * kColumns + c] - 0.5 * sum), 1e-13) << c << " " << k;
    }
  }
}

}  // namespace
}  // namespace a2afft::detail::fft
