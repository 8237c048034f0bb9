#include "report/context.hpp"

#include <mpi.h>

#include <cstring>
#include <ctime>
#include <set>

#include "git_describe.hpp"
#include "topology/topology.hpp"

namespace a2afft::report {

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return text;
}

RunContext collect_context(const Topology& topology, std::string command) {
  RunContext context;
  context.command = std::move(command);
  context.a2afft = std::string(A2AFFT_VERSION) + " (git " + A2AFFT_GIT_DESCRIBE + ")";
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
  std::set<std::string> hosts;
  for (int rank = 0; rank < topology.size(); ++rank)
    hosts.insert(topology.host_of(rank));
  context.hosts.assign(hosts.begin(), hosts.end());
  context.ranks = topology.size();
  context.layout = topology.describe_layout();
  context.numa = topology.numa_origin();
  context.oversubscribed = topology.oversubscribed();
  return context;
}

void print_context(std::ostream& out, const RunContext& context) {
  std::string hosts;
  for (const std::string& host : context.hosts)
    hosts += (hosts.empty() ? "" : ", ") + host;
  out << "# " << context.command << ", a2afft " << context.a2afft << ", " << context.date_utc
      << '\n'
      << "# MPI: " << context.mpi_library << '\n'
      << "# layout: " << context.layout << "; NUMA: " << context.numa << "; hosts: " << hosts
      << '\n';
  if (context.oversubscribed) {
    out << "# oversubscribed: more ranks than cores on a host, so these times prove correctness "
           "only\n";
  }
}

}  // namespace a2afft::report
