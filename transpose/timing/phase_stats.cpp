#include "timing/phase_stats.hpp"

#include <set>
#include <vector>

#include "mpi/comm.hpp"

namespace a2afft::detail {

std::map<std::string, PhaseStats> reduce_phases(const PhaseTimer& timer, MPI_Comm comm) {
  int ranks = 0;
  mpi::check(MPI_Comm_size(comm, &ranks), "MPI_Comm_size");

  // Every rank learns the union of phase names, as '\n'-terminated strings.
  std::string names;
  for (const auto& [phase, seconds] : timer.seconds())
    names += phase + '\n';
  const int length = static_cast<int>(names.size());
  std::vector<int> lengths(static_cast<std::size_t>(ranks));
  mpi::check(MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, comm),
             "MPI_Allgather(phase name lengths)");
  std::vector<int> offsets(lengths.size(), 0);
  for (std::size_t r = 1; r < lengths.size(); ++r)
    offsets[r] = offsets[r - 1] + lengths[r - 1];
  std::string all_names(static_cast<std::size_t>(offsets.back() + lengths.back()), '\0');
  mpi::check(MPI_Allgatherv(names.data(), length, MPI_CHAR, all_names.data(), lengths.data(),
                            offsets.data(), MPI_CHAR, comm),
             "MPI_Allgatherv(phase names)");
  std::set<std::string> phases;
  for (std::size_t start = 0, end; (end = all_names.find('\n', start)) != std::string::npos;
       start = end + 1) {
    phases.insert(all_names.substr(start, end - start));
  }

  std::vector<double> local;
  for (const std::string& phase : phases) {
    const auto it = timer.seconds().find(phase);
    local.push_back(it == timer.seconds().end() ? 0.0 : it->second);
  }
  const int count = static_cast<int>(local.size());
  std::vector<double> low(local.size()), high(local.size()), sum(local.size());
  mpi::check(MPI_Allreduce(local.data(), low.data(), count, MPI_DOUBLE, MPI_MIN, comm),
             "MPI_Allreduce(min)");
  mpi::check(MPI_Allreduce(local.data(), high.data(), count, MPI_DOUBLE, MPI_MAX, comm),
             "MPI_Allreduce(max)");
  mpi::check(MPI_Allreduce(local.data(), sum.data(), count, MPI_DOUBLE, MPI_SUM, comm),
             "MPI_Allreduce(sum)");

  std::map<std::string, PhaseStats> result;
  std::size_t i = 0;
  for (const std::string& phase : phases) {
    result[phase] = {low[i], high[i], sum[i] / ranks};
    ++i;
  }
  return result;
}

}  // namespace a2afft::detail
