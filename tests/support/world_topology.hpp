#pragma once

// The topology MPI tests run on: MPI_COMM_WORLD with the layout the A2AFFT_* environment asks
// for (ctest sets it per test: virtual nodes of 2, uneven nodes, ...).

#include <mpi.h>

#include "topology/topology.hpp"

namespace a2afft::detail::testing_support {

inline const Topology& world_topology() {
  static const Topology instance(MPI_COMM_WORLD, LayoutRequest::from_environment());
  return instance;
}

}  // namespace a2afft::detail::testing_support
