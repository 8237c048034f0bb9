#pragma once

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>
#include <vector>

#include <a2afft/tools/topology.hpp>

namespace a2afft::report {

/// What a reader of a result needs to trust and reproduce it; printed once before the runs
/// (as Google Benchmark's reporters do) and stored at the top of every JSON file.
struct RunContext {
  std::string command;
  std::string a2afft;  // the version and its git describe
  std::string mpi_library;
  std::string date_utc;
  std::vector<std::string> hosts;
  int ranks = 0;
  std::string layout;
  std::string numa;
  bool oversubscribed = false;
  // A2AFFT_EMULATED_HOSTS is set (scripts/cluster): the hosts are UTS namespaces on one machine.
  bool emulated_hosts = false;
  // A simulated build (SimGrid SMPI): "SimGrid 3.32.0 SMPI, platform NAME, P ranks, Q per node,
  // ..." (simulated_description()); "" on real hardware.
  std::string simulated;
};

/// "" in a build against a real MPI. In a simulated build (SimGrid's SMPI, known at compile
/// time) the simulator and its version, then what scripts/simulate put in A2AFFT_SIMULATED:
/// the platform, ranks, ranks per node and host speed (or that the run did not say), and
/// whether memory is folded on this rank (a2afft::FoldedMemory, `alltoall --fold-memory`).
std::string simulated_description();

/// Collective only in that every rank must have the same rank map; it calls no MPI itself
/// besides MPI_Get_library_version. Any non-empty A2AFFT_EMULATED_HOSTS marks the hosts as
/// emulated; a simulated build marks every context with simulated_description().
RunContext collect_context(const RankMap& ranks, std::string command);

/// The current time as 2026-11-21T17:16:54Z.
std::string utc_now();

/// `# key: value` lines.
void print_context(std::ostream& out, const RunContext& context);

// The JSON form: a key per field, named as the field (docs/commands.md;
// tests/golden/study_shape.json).
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(RunContext, command, a2afft, mpi_library, date_utc, hosts, ranks,
                                   layout, numa, oversubscribed, emulated_hosts, simulated)
inline nlohmann::json to_json(const RunContext& context) {
  return context;
}

}  // namespace a2afft::report
