#pragma once

// The MPI tool information interface's control variables (MPI_T cvars, MPI 3.0 §14.3): how the
// vendor rows (mpi:alg=NAME) read which all-to-all algorithms the running MPI library offers and
// force one. SimGrid's SMPI has no MPI_T; there every lookup finds nothing.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace a2afft::detail::mpi {

/// One integer or boolean control variable bound to no MPI object, with its handle (a boolean
/// reads and writes as 0 or 1). Lookups and reads are
/// local calls, legal before MPI_Init: MPI_T is initialised once per process on first use and
/// left initialised (finalising and re-initialising MPI_T around MPI_Init is where libraries
/// differ; keeping one session is what the standard allows everywhere).
class ControlVariable {
 public:
  /// The variable named `name`, or nullopt when the library has none or it is of another type
  /// (SMPI: never).
  static std::optional<ControlVariable> find(std::string_view name);

  ControlVariable(ControlVariable&& other) noexcept;
  ControlVariable& operator=(ControlVariable&& other) noexcept;
  ControlVariable(const ControlVariable&) = delete;
  ControlVariable& operator=(const ControlVariable&) = delete;
  ~ControlVariable();

  const std::string& name() const { return name_; }
  /// MPI_T's description text (MPICH 4.0 lists its enumeration there).
  const std::string& description() const { return description_; }
  /// Its MPI_T enumeration as (value, name) pairs in the library's order; empty when it has none.
  const std::vector<std::pair<int, std::string>>& enumeration() const { return enumeration_; }
  /// False for a variable fixed at MPI_Init (scope constant or read-only).
  bool writable() const { return writable_; }

  int read() const;
  /// Throws MpiError naming the variable and the value.
  void write(int value) const;

 private:
  ControlVariable() = default;

  std::string name_;
  std::string description_;
  std::vector<std::pair<int, std::string>> enumeration_;
  bool writable_ = false;
  bool boolean_ = false;    // MPI_C_BOOL (Open MPI's flags) rather than MPI_INT
  void* handle_ = nullptr;  // MPI_T_cvar_handle, kept opaque so SMPI builds need no MPI_T type
};

/// Sets a control variable for the life of the object and restores its previous value after.
/// The variable is process-wide: another thread's MPI calls meanwhile see the value too.
class ScopedSetting {
 public:
  ScopedSetting(const ControlVariable& variable, int value);
  ~ScopedSetting();
  ScopedSetting(const ScopedSetting&) = delete;
  ScopedSetting& operator=(const ScopedSetting&) = delete;

 private:
  const ControlVariable& variable_;
  int previous_;
};

}  // namespace a2afft::detail::mpi
