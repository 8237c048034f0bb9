#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <ostream>
#include <string>
#include <string_view>
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
  // The settings in the environment that choose or change the collectives a run times (an
  // `mpi` row forced to one algorithm, a SimGrid setting), rank 0's: NAME -> value, empty when
  // none is set (reported_environment()).
  std::map<std::string, std::string> environment;
};

/// Whether an environment variable of this name changes what a2afft alltoall's rows measure, so
/// that a reader must see it next to the numbers: Open MPI's collective components and their
/// algorithms (OMPI_MCA_coll*), MPICH's alltoall controls (MPIR_CVAR_*ALLTOALL*), Intel MPI's
/// (I_MPI_ADJUST_ALLTOALL*), and SimGrid's (SMPI*, A2AFFT_SIMULATED).
bool is_reported_setting(std::string_view name);

/// The reported settings among `entries` ("NAME=value", as in `environ`), by name. Pure, so
/// that it can be tested on a made-up environment; an entry without '=' is ignored.
std::map<std::string, std::string> reported_environment(const std::vector<std::string>& entries);

/// This process's environment, as "NAME=value" entries.
std::vector<std::string> process_environment();

/// "NAME=value" pairs in name order, joined by `separator` ("" when there are none).
std::string environment_text(const std::map<std::string, std::string>& environment,
                             std::string_view separator);

/// "" in a build against a real MPI. In a simulated build (SimGrid's SMPI, known at compile
/// time) the simulator and its version, then what scripts/simulate put in A2AFFT_SIMULATED:
/// the platform, ranks, ranks per node and host speed (or that the run did not say), and
/// whether memory is folded on this rank (a2afft::FoldedMemory, `alltoall --fold-memory`).
std::string simulated_description();

/// Collective only in that every rank must have the same rank map; it calls no MPI itself
/// besides MPI_Get_library_version. Any non-empty A2AFFT_EMULATED_HOSTS marks the hosts as
/// emulated; a simulated build marks every context with simulated_description(); the
/// environment is reported_environment(process_environment()).
RunContext collect_context(const RankMap& ranks, std::string command);

/// The current time as 2026-11-21T17:16:54Z.
std::string utc_now();

/// `# key: value` lines.
void print_context(std::ostream& out, const RunContext& context);

// The JSON form: a key per field, named as the field (docs/commands.md;
// tests/golden/study_shape.json).
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(RunContext, command, a2afft, mpi_library, date_utc, hosts, ranks,
                                   layout, numa, oversubscribed, emulated_hosts, simulated,
                                   environment)
inline nlohmann::json to_json(const RunContext& context) {
  return context;
}

}  // namespace a2afft::report
