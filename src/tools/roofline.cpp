// The roofline (include/a2afft/tools/roofline.hpp): memcpy's bandwidth and FFTW's in-cache flop
// rate, each timed the same way (warm-up, then the median of several rounds, between barriers of
// the node), and the flop count every report shares.

#include <a2afft/tools/roofline.hpp>

#include <fftw3.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <memory>
#include <vector>

#include "collective_checks.hpp"
#include "fftw_plan.hpp"
#include "mpi/comm.hpp"
#include "topology/hardware.hpp"

namespace a2afft {
namespace {

constexpr int kRounds = 7;  // timed rounds of each measurement; the median is reported
constexpr std::size_t kFallbackCopyBytes = std::size_t{256} << 20;
constexpr std::size_t kLeastBytesPerRound = std::size_t{64} << 20;

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// The slowest rank's seconds of `work` in each of kRounds rounds, after one untimed round;
// only ranks for which `takes_part` is true run it, the others wait at the barriers.
template <typename Work>
std::vector<double> timed_rounds(MPI_Comm node, bool takes_part, Work&& work) {
  if (takes_part) work();
  std::vector<double> rounds;
  for (int round = 0; round < kRounds; ++round) {
    detail::mpi::check(MPI_Barrier(node), "MPI_Barrier");
    double seconds = 0;
    if (takes_part) {
      const double start = MPI_Wtime();
      work();
      seconds = MPI_Wtime() - start;
    }
    double slowest = 0;
    detail::mpi::check(MPI_Allreduce(&seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, node),
                       "MPI_Allreduce");
    rounds.push_back(slowest);
  }
  return rounds;
}

}  // namespace

std::size_t last_level_cache_bytes() {
  return detail::probe_last_level_cache_bytes();
}

CopyBandwidth measure_copy_bandwidth(MPI_Comm comm, std::size_t bytes) {
  detail::library::check_communicator(comm, "measure_copy_bandwidth");
  if (bytes == 0) {
    const std::size_t cache = last_level_cache_bytes();
    bytes = cache > 0 ? 4 * cache : kFallbackCopyBytes;
  }
  // Ranks agree on the size (hwloc could differ between nodes): the largest.
  unsigned long long agreed = bytes;
  detail::mpi::check(MPI_Allreduce(MPI_IN_PLACE, &agreed, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm),
                     "MPI_Allreduce");
  bytes = static_cast<std::size_t>(agreed);
  const detail::mpi::Comm node = detail::mpi::Comm::split_shared_memory(comm);
  // Both buffers written before timing, so no round pays for page faults.
  // The destination starts 256 bytes past a page offset equal to the source's: glibc 2.36's
  // memcpy (rep movsb) on Zen 4 copied 4-32 KiB at 5 GB/s instead of 60-100 GB/s when
  // (dst - src) mod 4096 was below 64 or so, which would make the in-cache figure a glibc quirk.
  constexpr std::size_t kSkew = 256;
  std::vector<unsigned char> from(bytes, 1);
  std::vector<unsigned char> to_buffer(bytes + kSkew, 2);
  unsigned char* const to = to_buffer.data() + kSkew;
  // A small buffer is copied several times a round, so that a round lasts long enough to time.
  const std::size_t copies = std::max<std::size_t>(1, kLeastBytesPerRound / bytes);
  volatile unsigned char sink = 0;
  const auto copy = [&] {
    for (std::size_t i = 0; i < copies; ++i) {
      std::memcpy(to, from.data(), bytes);
      sink = to[(bytes + i) / 2 % bytes];  // the copy is used, so it is not optimized away
    }
  };
  const double moved = 2.0 * static_cast<double>(bytes * copies);  // read + write
  CopyBandwidth result;
  result.bytes = bytes;
  result.node_ranks = node.size();
  result.one_core_bytes_per_second =
      moved / median(timed_rounds(node.get(), node.rank() == 0, copy));
  result.all_cores_bytes_per_second = moved / median(timed_rounds(node.get(), true, copy));
  (void)sink;
  return result;
}

double measure_fft_compute_roof(MPI_Comm comm) {
  detail::library::check_communicator(comm, "measure_fft_compute_roof");
  constexpr int kLength = 1024;
  constexpr int kBatch = 16;      // 16 x 1024 complex doubles: 256 KiB each way
  constexpr int kPerRound = 200;  // transforms per timed round: milliseconds, not microseconds
  const detail::mpi::Comm node = detail::mpi::Comm::split_shared_memory(comm);
  const std::size_t elements = std::size_t{kLength} * kBatch;
  auto* in = static_cast<fftw_complex*>(fftw_malloc(elements * sizeof(fftw_complex)));
  auto* out = static_cast<fftw_complex*>(fftw_malloc(elements * sizeof(fftw_complex)));
  const std::unique_ptr<void, void (*)(void*)> free_in(in, fftw_free);
  const std::unique_ptr<void, void (*)(void*)> free_out(out, fftw_free);
  // Every rank plans alike (FFTW_MEASURE overwrites the arrays), so wisdom stays the same on
  // every rank; out of place, where FFTW preserves the input, so repeated runs never grow the
  // values.
  auto* in_points = reinterpret_cast<Complex*>(in);
  auto* out_points = reinterpret_cast<Complex*>(out);
  const detail::fft::FftwPlan<double> plan({{kLength, 1}}, {{kBatch, kLength}}, in_points,
                                           out_points, detail::fft::Direction::forward,
                                           Rigor::measure);
  for (std::size_t i = 0; i < elements; ++i) {
    in[i][0] = std::cos(0.001 * static_cast<double>(i));
    in[i][1] = std::sin(0.003 * static_cast<double>(i));
  }
  const auto transforms = [&] {
    for (int i = 0; i < kPerRound; ++i)
      plan.execute(in_points, out_points);
  };
  const double seconds = median(timed_rounds(node.get(), node.rank() == 0, transforms));
  double rate = fft_flops(Kind::c2c, kLength, kBatch) * kPerRound / seconds;
  // Every rank of a node reports its first rank's figure.
  detail::mpi::check(MPI_Bcast(&rate, 1, MPI_DOUBLE, 0, node.get()), "MPI_Bcast");
  return rate;
}

double roofline_seconds(const TransformTraffic& traffic, const CopyBandwidth& memory,
                        double flops_per_second) {
  const double memory_seconds =
      static_cast<double>(traffic.bytes_moved) / memory.all_cores_bytes_per_second;
  return std::max(memory_seconds, traffic.flops / flops_per_second);
}

}  // namespace a2afft
