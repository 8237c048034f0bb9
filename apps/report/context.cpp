#include "report/context.hpp"

#include <mpi.h>

#include <cstdlib>
#include <cstring>
#include <ctime>
#include <set>

#include <unistd.h>  // environ

#include <a2afft/tools/simulation.hpp>
#include <a2afft/version.hpp>

namespace a2afft::report {

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return text;
}

std::string simulated_description() {
#if A2AFFT_SMPI
  const char* settings = std::getenv("A2AFFT_SIMULATED");
  return std::string("SimGrid ") + A2AFFT_SIMGRID_VERSION + " SMPI, " +
         (settings != nullptr && *settings != '\0'
              ? settings
              : "platform and host speed not stated (run it through scripts/simulate)") +
         // Said wherever the run is: folded buffers' times are a timing-only run's.
         (memory_folded()
              ? ", memory folded (SMPI_SHARED_MALLOC: contents meaningless, timing only)"
              : "");
#else
  return "";
#endif
}

bool is_reported_setting(std::string_view name) {
  // MPICH's controls that pick an all-to-all algorithm all hold ALLTOALL
  // (MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM, MPIR_CVAR_IALLTOALL_...); its hundreds of others
  // (MPIR_CVAR_POLLS_BEFORE_YIELD, which the tests set) do not change the rows and are left out.
  const bool mpich = name.starts_with("MPIR_CVAR_") && name.find("ALLTOALL") != name.npos;
  // SimGrid's MPI_Alltoall is chosen by smpirun's --cfg=smpi/alltoall, which scripts/simulate
  // names in the "simulated" line and column; SMPI_* variables are SMPI's own bookkeeping
  // (SMPI_GLOBAL_SIZE, set in every simulated rank), not settings.
  return name.starts_with("OMPI_MCA_coll") || mpich || name.starts_with("I_MPI_ADJUST_ALLTOALL");
}

std::map<std::string, std::string> reported_environment(const std::vector<std::string>& entries) {
  std::map<std::string, std::string> settings;
  for (const std::string& entry : entries) {
    const std::size_t equals = entry.find('=');
    if (equals == std::string::npos) continue;
    const std::string name = entry.substr(0, equals);
    if (is_reported_setting(name)) settings[name] = entry.substr(equals + 1);
  }
  return settings;
}

std::vector<std::string> process_environment() {
  std::vector<std::string> entries;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry)
    entries.emplace_back(*entry);
  return entries;
}

std::string environment_text(const std::map<std::string, std::string>& environment,
                             std::string_view separator) {
  std::string text;
  for (const auto& [name, value] : environment)
    text += (text.empty() ? "" : std::string(separator)) + name + "=" + value;
  return text;
}

RunContext collect_context(const RankMap& ranks, std::string command) {
  RunContext context;
  context.command = std::move(command);
  context.a2afft = std::string(version()) + " (git " + git_describe() + ")";
  char library[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(library, &length);
  context.mpi_library.assign(library, strnlen(library, static_cast<std::size_t>(length)));
  if (const auto newline = context.mpi_library.find('\n'); newline != std::string::npos) {
    context.mpi_library.resize(newline);
  }
  while (!context.mpi_library.empty() && context.mpi_library.back() == ' ') {
    context.mpi_library.pop_back();
  }
  context.date_utc = utc_now();
  const std::set<std::string> hosts(ranks.host_of_rank.begin(), ranks.host_of_rank.end());
  context.hosts.assign(hosts.begin(), hosts.end());
  context.ranks = ranks.size();
  context.layout = ranks.layout;
  context.numa = ranks.numa_origin;
  context.oversubscribed = ranks.oversubscribed;
  const char* emulated = std::getenv("A2AFFT_EMULATED_HOSTS");
  context.emulated_hosts = emulated != nullptr && *emulated != '\0';
  context.simulated = simulated_description();
  context.environment = reported_environment(process_environment());
  return context;
}

void print_context(std::ostream& out, const RunContext& context) {
  std::string hosts;
  for (const std::string& host : context.hosts)
    hosts += (hosts.empty() ? "" : ", ") + host;
  // On the hosts line itself, so that nobody quotes these numbers as a real cluster's.
  const char* emulated =
      context.emulated_hosts ? " (emulated hosts: UTS namespaces on one machine)" : "";
  out << "# " << context.command << ", a2afft " << context.a2afft << ", " << context.date_utc
      << '\n'
      << "# MPI: " << context.mpi_library << '\n'
      << "# layout: " << context.layout << "; NUMA: " << context.numa << "; hosts: " << hosts
      << emulated << '\n';
  // Its own line, right under the hosts: these hosts and times are SimGrid's, not a machine's.
  if (!context.simulated.empty()) out << "# simulated: " << context.simulated << '\n';
  // Beside the numbers: an `mpi` row forced to one algorithm is that algorithm's, not the
  // library's choice.
  if (!context.environment.empty())
    out << "# environment: " << environment_text(context.environment, ", ") << '\n';
  if (context.oversubscribed) {
    out << "# oversubscribed: more ranks than cores on a host, so these times prove correctness "
           "only\n";
  }
}

}  // namespace a2afft::report
