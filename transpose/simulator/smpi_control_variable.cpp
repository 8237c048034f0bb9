// ControlVariable in the simulated build, in place of mpi/mpi_t_variable.cpp (transpose/
// CMakeLists.txt chooses): SimGrid's SMPI 3.32 has no MPI_T, so no MPI_T call would compile here.
#include "mpi/control_variable.hpp"

namespace a2afft::detail::mpi {

// SimGrid's SMPI implements no MPI_T: no variable exists.
std::optional<ControlVariable> ControlVariable::find(std::string_view) {
  return std::nullopt;
}
ControlVariable::ControlVariable(ControlVariable&& other) noexcept = default;
ControlVariable::~ControlVariable() = default;
int ControlVariable::read() const {
  return 0;
}
void ControlVariable::write(int) const {}

}  // namespace a2afft::detail::mpi
