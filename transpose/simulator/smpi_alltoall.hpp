#pragma once

// SimGrid SMPI's own MPI_Alltoall algorithms, for the vendor rows (mpi:alg=NAME,
// algorithms/vendor.cpp) in the simulated build. SMPI has no MPI_T: it takes one alltoall
// algorithm for the whole simulation from its configuration (smpi/alltoall, which
// scripts/simulate --alltoall sets), so a plan cannot force one, only run the one in effect.

#include <string>
#include <vector>

namespace a2afft::detail::simulator {

/// What the running simulation offers and runs.
struct SmpiAlltoall {
  std::vector<std::string> algorithms;  // every name smpi/alltoall accepts, in SimGrid's order
  std::string in_effect;                // the one this simulation runs
  std::string unavailable;              // why these cannot be read here, or ""
};

/// Read from the running SimGrid, in the simulated build (A2AFFT_SMPI); elsewhere `unavailable`
/// says why not. Local: no MPI call.
SmpiAlltoall read_smpi_alltoall();

}  // namespace a2afft::detail::simulator
