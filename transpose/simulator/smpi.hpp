#pragma once

// The few things the simulated build does through SimGrid's own API (smpi.cpp holds every such
// call, and every SimGrid header the library includes, save the alltoall table's in
// smpi_alltoall.cpp). Callers ask simulator::kSimulated (smpi_rules.hpp) first, so the native
// build never reaches these: there each throws std::logic_error, naming itself.

#include <cstddef>
#include <string>

namespace a2afft::detail::simulator {

/// SimGrid's simulated clock in seconds (MPI_Wtime under SMPI): what phases are timed with in
/// the simulated build, since a steady_clock would time the simulator, not the simulated machine.
double clock_seconds();

/// The cores of the simulated host this rank runs on (SimGrid's platform), at least 1. hwloc
/// would describe the machine running the simulation instead.
int host_cores();

/// `bytes` (at least 1) of SMPI_SHARED_MALLOC memory: mapped onto the same few physical pages
/// for every buffer and rank, so the contents mean nothing (folded_memory.hpp). Never freed.
std::byte* shared_malloc(std::size_t bytes);

/// The object every rank of the simulation process shares under (`table`, `key`), made by
/// `create` at the first ask: SMPI's process-wide table of shared calls, which the ranks'
/// private copies of this library (one per rank: dlopen privatization) all see.
void* process_wide(const char* table, const std::string& key, void* (*create)());

}  // namespace a2afft::detail::simulator
