#include "simulator/smpi_alltoall.hpp"

#if A2AFFT_SMPI
#include <functional>
#include <string>
#include <vector>

// version.h uses base.h's macros without including it.
#include <xbt/base.h>

#include <simgrid/version.h>
#include <xbt/config.hpp>

// SimGrid keeps its table of collective algorithms (the names `smpirun --help-coll` prints) in
// an internal header, src/smpi/include/smpi_coll.hpp, but libsimgrid exports the function that
// returns it. Declared here as SimGrid 3.32's source has it: a layout read from one release, so
// only for that release; any other is told to relaunch knowing its own list (no guessing).
#if SIMGRID_VERSION_MAJOR == 3 && SIMGRID_VERSION_MINOR == 32
#define A2AFFT_SMPI_COLL_TABLE 1
namespace simgrid::smpi {
struct s_mpi_coll_description_t {
  std::string name;
  std::string description;
  void* coll;
};
namespace colls {
std::vector<s_mpi_coll_description_t>* get_smpi_coll_descriptions(const std::string& name);
}  // namespace colls
}  // namespace simgrid::smpi
#endif
#endif

namespace a2afft::detail::simulator {

#if A2AFFT_SMPI
namespace {

// SMPI's rule for a collective's algorithm: its own setting, else the selector's, else
// `default` (smpi_coll.cpp's set_collectives).
std::string smpi_alltoall_in_effect() {
  std::string name = simgrid::config::get_value<std::string>("smpi/alltoall");
  if (name.empty()) name = simgrid::config::get_value<std::string>("smpi/coll-selector");
  return name.empty() ? "default" : name;
}

}  // namespace
#endif

SmpiAlltoall read_smpi_alltoall() {
  SmpiAlltoall smpi;
#if A2AFFT_SMPI && defined(A2AFFT_SMPI_COLL_TABLE)
  smpi.in_effect = smpi_alltoall_in_effect();
  const auto* table = simgrid::smpi::colls::get_smpi_coll_descriptions("alltoall");
  if (table != nullptr) {
    for (const auto& algorithm : *table)
      smpi.algorithms.push_back(algorithm.name);
  }
  if (smpi.algorithms.empty()) smpi.unavailable = "SimGrid's table of alltoall algorithms is empty";
#elif A2AFFT_SMPI
  smpi.unavailable =
      "a2afft reads SMPI's table of alltoall algorithms as SimGrid 3.32 lays it out, and this "
      "SimGrid is " SIMGRID_VERSION_STRING;
#else
  smpi.unavailable = "not a simulated build (SimGrid SMPI)";
#endif
  return smpi;
}

}  // namespace a2afft::detail::simulator
