#pragma once

#include <mpi.h>

#include <map>
#include <string>

#include "timing/phase_timer.hpp"

namespace a2afft::detail {

/// One phase's seconds over the ranks of a communicator. A rank that never entered the phase
/// (a non-leader's `gather`) counts as 0 s.
struct PhaseStats {
  double min_seconds = 0.0;
  double max_seconds = 0.0;
  double mean_seconds = 0.0;
};

/// Collective: reduces every rank's phases, including phases that only some ranks recorded.
std::map<std::string, PhaseStats> reduce_phases(const PhaseTimer& timer, MPI_Comm comm);

}  // namespace a2afft::detail
