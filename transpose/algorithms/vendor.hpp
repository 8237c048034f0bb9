#pragma once

// How the vendor rows (mpi:alg=NAME, algorithms/vendor.cpp) force one of the MPI library's own
// alltoall algorithms: shared with tests/vendor, which checks that forcing takes effect.

#include <mpi.h>

#include <optional>
#include <string>
#include <vector>

#include "mpi/comm.hpp"
#include "mpi/control_variable.hpp"

namespace a2afft::detail::algorithms::vendor {

/// How the running library lets one plan force an algorithm.
enum class Forcing {
  none,                      // it cannot (a library without such a control variable)
  at_communicator_creation,  // Open MPI: when the communicator's coll module is enabled
  at_call,                   // MPICH: read at each MPI_Alltoall
  at_launch,                 // SimGrid SMPI: one algorithm for the whole simulation
};

/// What the running MPI library lets a plan force, read once through MPI_T.
struct Selector {
  Forcing forcing = Forcing::none;
  std::optional<mpi::ControlVariable> algorithm;
  std::optional<mpi::ControlVariable> fallback;  // MPICH: what a forced misfit does
  int fallback_error = 0;                        // its value `error`
  std::vector<std::string> names;                // the algorithms, the library's choice left out
  std::vector<int> values;                       // names[k]'s value
  std::string unavailable;                       // why nothing can be forced here, or ""
  std::string in_effect;  // at_launch: the algorithm this whole run uses (SMPI's smpi/alltoall)

  /// The value of algorithm `name`; throws std::out_of_range for a name it does not list.
  int value_of(const std::string& name) const;
};

/// The item names an MPICH 4.0 control variable's description lists, in value order (MPICH
/// 4.0 gives its algorithms there, not as an MPI_T enumeration).
std::vector<std::string> listed_in_description(const std::string& text);

/// The running library's selector; local MPI_T calls, legal before MPI_Init.
const Selector& selector();

/// A duplicate of `parent`; under Open MPI with algorithm `value` forced on it alone (the
/// variable is written, the communicator created, the variable restored). Collective.
mpi::Comm forced_communicator(MPI_Comm parent, std::optional<int> value);

/// Under Open MPI, why a forced algorithm would be ignored on `parent` (tuned does not serve
/// it), or "": seen once per process where it can be (3 or more ranks). Collective, agreed.
std::string tuned_refusal(MPI_Comm parent);

/// Under MPICH, forces algorithm `value` (with MPIR_CVAR_COLLECTIVE_FALLBACK=error) for the
/// life of the object and restores both after; elsewhere, or with no value, does nothing.
/// Process-wide: another thread's collectives meanwhile see the forced algorithm too.
class ForcedCall {
 public:
  explicit ForcedCall(std::optional<int> value);

 private:
  std::optional<mpi::ScopedSetting> algorithm_;
  std::optional<mpi::ScopedSetting> fallback_;
};

}  // namespace a2afft::detail::algorithms::vendor
