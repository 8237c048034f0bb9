// What every build's ControlVariable shares: moving and the scoped setting. Finding, reading
// and writing are mpi_t_variable.cpp's (MPI_T), or in the simulated build, which has no MPI_T,
// simulator/smpi_control_variable.cpp's.
#include "mpi/control_variable.hpp"

#include <utility>

#include "error.hpp"

namespace a2afft::detail::mpi {

// Swapped: `other` frees what this held.
ControlVariable& ControlVariable::operator=(ControlVariable&& other) noexcept {
  std::swap(name_, other.name_);
  std::swap(description_, other.description_);
  std::swap(enumeration_, other.enumeration_);
  std::swap(writable_, other.writable_);
  std::swap(boolean_, other.boolean_);
  std::swap(handle_, other.handle_);
  return *this;
}

ScopedSetting::ScopedSetting(const ControlVariable& variable, int value)
    : variable_(variable), previous_(variable.read()) {
  variable_.write(value);
}

ScopedSetting::~ScopedSetting() {
  try {
    variable_.write(previous_);
  } catch (const MpiError&) {
    // A destructor must not throw; a failed restore leaves the forced value, which the next
    // plan's own setting overrides.
  }
}

}  // namespace a2afft::detail::mpi
