#pragma once

// `a2afft alltoall --stats osu`: osu_alltoall's own timing loop, so that its figures are measured
// as osu_alltoall measures them, not only computed alike. OSU Micro-Benchmarks 5.3,
// mpi/collective/osu_alltoall.c (github.com/forresti/osu-micro-benchmarks at 993f966):
//
//     MPI_Barrier(MPI_COMM_WORLD); timer = 0.0;
//     for (i = 0; i < options.iterations + options.skip; i++) {
//         t_start = MPI_Wtime(); MPI_Alltoall(...); t_stop = MPI_Wtime();
//         if (i >= options.skip) timer += t_stop - t_start;
//         MPI_Barrier(MPI_COMM_WORLD);
//     }
//     latency = (timer * 1e6) / options.iterations;
//
// One call after another on the same two buffers, its warm-up calls just before; `-i N -x M`
// set the iterations and skip of every size (osu_coll.c's set_num_iterations and
// set_num_warmup set the large-message ones too), as --iters N --warmup M do. a2afft's own
// runs are interleaved with the other exchanges' by default, which left their caches cold: at
// 1 MiB on 2 ranks six interleaved plans' buffers (48 MiB) are past this VM's 32 MiB L3, and
// the mean was 1.7x osu_alltoall's (docs/results/vendor-baselines.md).

#include <functional>

namespace a2afft::commands {

/// What osu_alltoall's loop does, given as calls: the timed call, the barrier and the clock
/// (MPI_Wtime in the command; a fake clock in the unit test).
struct OsuLoopCalls {
  std::function<void()> call;
  std::function<void()> barrier;
  std::function<double()> seconds_now;
};

/// osu_alltoall's loop above with `warmup` skipped and `runs` timed calls: this rank's mean
/// seconds per timed call (osu_alltoall's per-rank latency, before its MPI_Reduce over ranks).
/// `runs` is at least 1 (the command's --iters).
double osu_loop_mean_seconds(int warmup, int runs, const OsuLoopCalls& calls);

}  // namespace a2afft::commands
