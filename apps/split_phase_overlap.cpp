#include "split_phase_overlap.hpp"

#include <array>

namespace a2afft::commands {
namespace {

// OSU's host compute works on 25 x 25 floats: small enough to stay in cache, so the compute
// takes the core and not the memory the exchange uses.
constexpr int kComputeDimension = 25;

struct ComputeArrays {
  std::array<float, kComputeDimension * kComputeDimension> matrix;
  std::array<float, kComputeDimension> accumulator, offset;
  ComputeArrays() {
    matrix.fill(2.0F);
    accumulator.fill(1.0F);
    offset.fill(1.0F);
  }
};

// One sweep of multiply-adds over the matrix and its transpose.
void compute_sweep(ComputeArrays& arrays) {
  for (int i = 0; i < kComputeDimension; ++i) {
    float sum = arrays.accumulator[static_cast<std::size_t>(i)];
    for (int j = 0; j < kComputeDimension; ++j) {
      sum += arrays.matrix[static_cast<std::size_t>(i * kComputeDimension + j)] *
                 arrays.matrix[static_cast<std::size_t>(j * kComputeDimension + i)] +
             arrays.offset[static_cast<std::size_t>(j)];
    }
    arrays.accumulator[static_cast<std::size_t>(i)] = sum;
  }
}

// Tallies of the second pass's timed rounds on this rank, in seconds.
struct OverlapTally {
  double overall_seconds = 0, compute_seconds = 0, init_seconds = 0, wait_seconds = 0;
};

// One round of the second pass: start(), the compute, finish(); adds to `tally` when timed.
void overlapped_round(Exchange& plan, const std::byte* send, std::byte* recv,
                      double compute_target_seconds, OverlapTally* tally) {
  const double started = MPI_Wtime();
  plan.start(send, recv);
  const double initiated = MPI_Wtime();
  dummy_compute(compute_target_seconds);
  const double computed = MPI_Wtime();
  plan.finish();
  const double finished = MPI_Wtime();
  if (tally == nullptr) return;
  tally->overall_seconds += finished - started;
  tally->init_seconds += initiated - started;
  tally->compute_seconds += computed - initiated;
  tally->wait_seconds += finished - computed;
}

}  // namespace

double dummy_compute(double seconds) {
  // Kept across calls, so the compiler cannot drop the sweeps as dead work.
  static ComputeArrays arrays;
  double elapsed_seconds = 0;
  while (elapsed_seconds < seconds) {
    const double before = MPI_Wtime();
    compute_sweep(arrays);
    elapsed_seconds += MPI_Wtime() - before;
  }
  return elapsed_seconds;
}

report::SplitPhaseRankSeconds time_split_phase(Exchange& plan, const std::byte* send,
                                               std::byte* recv, int warmup, int runs,
                                               MPI_Comm comm) {
  // First pass: the exchange alone, through the same calls as the second.
  double pure_comm_total_seconds = 0;
  for (int round = -warmup; round < runs; ++round) {
    const double started = MPI_Wtime();
    plan.start(send, recv);
    plan.finish();
    if (round >= 0) pure_comm_total_seconds += MPI_Wtime() - started;
    MPI_Barrier(comm);
  }
  report::SplitPhaseRankSeconds means;
  means.pure_comm_seconds = pure_comm_total_seconds / runs;
  // Second pass: as much compute as this rank's exchange took, so full overlap would hide it.
  OverlapTally tally;
  for (int round = -warmup; round < runs; ++round) {
    overlapped_round(plan, send, recv, means.pure_comm_seconds, round >= 0 ? &tally : nullptr);
    MPI_Barrier(comm);
  }
  means.overall_seconds = tally.overall_seconds / runs;
  means.compute_seconds = tally.compute_seconds / runs;
  means.init_seconds = tally.init_seconds / runs;
  means.wait_seconds = tally.wait_seconds / runs;
  return means;
}

}  // namespace a2afft::commands
