// The MPI_T implementation of ControlVariable (Open MPI, MPICH). SimGrid's SMPI has no MPI_T: the
// simulated build compiles simulator/smpi_control_variable.cpp in its place
// (transpose/CMakeLists.txt chooses); what both share is control_variable.cpp.
#include "mpi/control_variable.hpp"

#include <mpi.h>

#include "error.hpp"

namespace a2afft::detail::mpi {

namespace {

// MPI_T for the rest of the process, initialised on first use (see the header for why never
// finalised). Thread-safe through the function-local static.
// MPI_T is asked for the level MPI already provides: Open MPI 4.1's MPI_T_init_thread sets MPI's
// own thread level to the one it is asked for, so asking for SINGLE made MPI_Query_thread say
// SINGLE after an MPI_THREAD_MULTIPLE init (mpi4py's), and refused threaded plans (issue 45).
bool tools_ready() {
  static const bool ready = [] {
    int level = MPI_THREAD_SINGLE;
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (initialized != 0) MPI_Query_thread(&level);
    int provided = 0;
    return MPI_T_init_thread(level, &provided) == MPI_SUCCESS;
  }();
  return ready;
}

MPI_T_cvar_handle handle_of(void* handle) {
  return static_cast<MPI_T_cvar_handle>(handle);
}

std::vector<std::pair<int, std::string> > items_of(MPI_T_enum enumeration) {
  std::vector<std::pair<int, std::string> > items;
  if (enumeration == MPI_T_ENUM_NULL) return items;
  int count = 0;
  char name[256];
  int name_length = sizeof name;
  if (MPI_T_enum_get_info(enumeration, &count, name, &name_length) != MPI_SUCCESS) return items;
  for (int k = 0; k < count; ++k) {
    int value = 0;
    char item[256];
    int item_length = sizeof item;
    if (MPI_T_enum_get_item(enumeration, k, &value, item, &item_length) == MPI_SUCCESS) {
      items.emplace_back(value, item);
    }
  }
  return items;
}

}  // namespace

std::optional<ControlVariable> ControlVariable::find(std::string_view name) {
  int index = 0;
  const std::string wanted(name);
  if (!tools_ready() || MPI_T_cvar_get_index(wanted.c_str(), &index) != MPI_SUCCESS) {
    return std::nullopt;
  }
  char found[256], description[4096];
  int found_length = sizeof found, description_length = sizeof description;
  int verbosity = 0, binding = 0, scope = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  MPI_T_enum enumeration = MPI_T_ENUM_NULL;
  if (MPI_T_cvar_get_info(index, found, &found_length, &verbosity, &type, &enumeration, description,
                          &description_length, &binding, &scope) != MPI_SUCCESS ||
      (type != MPI_INT && type != MPI_C_BOOL) || binding != MPI_T_BIND_NO_OBJECT) {
    return std::nullopt;
  }
  MPI_T_cvar_handle handle = nullptr;
  int count = 0;
  if (MPI_T_cvar_handle_alloc(index, nullptr, &handle, &count) != MPI_SUCCESS || count != 1) {
    return std::nullopt;
  }
  ControlVariable variable;
  variable.name_ = wanted;
  variable.description_ = description;
  variable.enumeration_ = items_of(enumeration);
  variable.writable_ = scope != MPI_T_SCOPE_CONSTANT && scope != MPI_T_SCOPE_READONLY;
  variable.boolean_ = type == MPI_C_BOOL;
  variable.handle_ = handle;
  return variable;
}

ControlVariable::ControlVariable(ControlVariable&& other) noexcept
    : name_(std::move(other.name_)),
      description_(std::move(other.description_)),
      enumeration_(std::move(other.enumeration_)),
      writable_(other.writable_),
      boolean_(other.boolean_),
      handle_(std::exchange(other.handle_, nullptr)) {}

ControlVariable::~ControlVariable() {
  if (handle_ == nullptr) return;
  MPI_T_cvar_handle handle = handle_of(handle_);
  MPI_T_cvar_handle_free(&handle);
}

int ControlVariable::read() const {
  int value = 0;
  bool flag = false;
  if (MPI_T_cvar_read(handle_of(handle_), boolean_ ? static_cast<void*>(&flag) : &value) !=
      MPI_SUCCESS) {
    throw MpiError("MPI_T_cvar_read(" + name_ + ") failed");
  }
  return boolean_ ? static_cast<int>(flag) : value;
}

void ControlVariable::write(int value) const {
  bool flag = value != 0;
  if (MPI_T_cvar_write(handle_of(handle_), boolean_ ? static_cast<void*>(&flag) : &value) !=
      MPI_SUCCESS) {
    throw MpiError("MPI_T_cvar_write(" + name_ + ", " + std::to_string(value) + ") failed");
  }
}

}  // namespace a2afft::detail::mpi
