#include "simulator/smpi.hpp"

#include <stdexcept>

#if A2AFFT_SMPI
// Headers only SimGrid has: the reason this file, not its callers, tests the build.
#include <mpi.h>
#include <simgrid/host.h>

#include <algorithm>
#endif

namespace a2afft::detail::simulator {

#if A2AFFT_SMPI

double clock_seconds() {
  return MPI_Wtime();
}

int host_cores() {
  // The platforms describe no NUMA domains, so each host is one domain (hardware.cpp).
  return std::max(1, sg_host_core_count(sg_host_self()));
}

std::byte* shared_malloc(std::size_t bytes) {
  // SMPI folds nothing of size 0.
  return static_cast<std::byte*>(SMPI_SHARED_MALLOC(std::max<std::size_t>(bytes, 1)));
}

void* process_wide(const char* table, const std::string& key, void* (*create)()) {
  if (smpi_shared_known_call(table, key.c_str()) != 0) {
    return smpi_shared_get_call(table, key.c_str());
  }
  return smpi_shared_set_call(table, key.c_str(), create());
}

#else

namespace {
[[noreturn]] void native(const char* function) {
  throw std::logic_error(std::string("simulator::") + function +
                         " called outside the simulated build (callers ask kSimulated first)");
}
}  // namespace

double clock_seconds() {
  native("clock_seconds");
}
int host_cores() {
  native("host_cores");
}
std::byte* shared_malloc(std::size_t) {
  native("shared_malloc");
}
void* process_wide(const char*, const std::string&, void* (*)()) {
  native("process_wide");
}

#endif

}  // namespace a2afft::detail::simulator
