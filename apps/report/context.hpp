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
};

/// Collective only in that every rank must have the same rank map; it calls no MPI itself
/// besides MPI_Get_library_version. Any non-empty A2AFFT_EMULATED_HOSTS marks the hosts as
/// emulated.
RunContext collect_context(const RankMap& ranks, std::string command);

/// The current time as 2026-11-21T17:16:54Z.
std::string utc_now();

/// `# key: value` lines.
void print_context(std::ostream& out, const RunContext& context);

// The JSON form: a key per field, named as the field (README; tests/golden/study_shape.json).
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(RunContext, command, a2afft, mpi_library, date_utc, hosts, ranks,
                                   layout, numa, oversubscribed, emulated_hosts)
inline nlohmann::json to_json(const RunContext& context) {
  return context;
}

}  // namespace a2afft::report
