#pragma once

// The exchange backends a user chooses from: their names, parameters and defaults, and the
// grammar of specs. make_exchange() (exchange.hpp) refuses, with the reason, a spec the layout
// cannot run; a2afft/tools/backends.hpp asks the same question before any plan exists.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace a2afft {

/// One parameter a backend accepts, as `a2afft list` shows it.
struct BackendParameter {
  std::string key;            ///< as a spec sets it: `radix` in `tra:radix=4`
  std::string default_value;  ///< what it is when a spec leaves it out
  /// One line on what it does.
  std::string meaning;
};

/// One all-to-all backend: what `a2afft list` prints about it.
struct BackendInfo {
  /// What a spec names it by, e.g. `tra`.
  std::string name;
  /// One line on how it works.
  std::string summary;
  /// The paper and algorithm it implements.
  std::string source;
  /// Which node layouts it handles.
  std::string layouts;
  /// The keys a spec may set, in the order `a2afft list` shows them.
  std::vector<BackendParameter> parameters;
  /// Specs worth running, e.g. `tra:radix=4`.
  std::vector<std::string> examples;
  /// The specs the running MPI library offers, read at run time: `mpi:alg=NAME` for each
  /// algorithm its MPI_T control variable lists (Open MPI's coll_tuned_alltoall_algorithm,
  /// MPICH's MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM). The a2afft command's `--exchange all` runs
  /// each; one that cannot be forced here is refused with the reason.
  std::vector<std::string> offered;
  /// Whether Exchange::start() returns with messages in flight: "yes", "no" (all the work in
  /// start()), or "as chosen" (auto: as the backend it picks).
  std::string split_phase;
};

/// Every backend make_exchange() knows, in the order `a2afft list` shows them; the a2afft
/// command's `--exchange all` stands for each of them with its defaults and its offered specs.
std::vector<BackendInfo> backends();

/// Splits a comma-separated list of specs. An item of the form `key=value` continues the spec
/// before it (backend names never contain `=`), and commas inside parentheses do not split:
/// `tra:radix=4,tra2:r1=2,r2=4,mpi` and `node-aware:inner=(tra2:r1=2,r2=4),mpi` are 3 and 2.
std::vector<std::string> split_specs(std::string_view list);

/// The canonical text of one spec (`name:k=v,k=v`, nested specs with several parameters in
/// parentheses), after checking its grammar, backend name and keys. Throws UsageError naming the
/// text and what is valid. Values are checked by backend_refusal() and make_exchange().
std::string canonical_spec(std::string_view spec);

/// The same for the variable-size exchange of a reshape (Fft3dOptions::reshape_exchange): a
/// variable backend (`auto`, `mpi`, `neighbor`, `sparse`, `node-aggregate`) or any backend above,
/// which serves counts that happen to be uniform. Throws UsageError naming the text and what is
/// valid.
std::string canonical_reshape_spec(std::string_view spec);

}  // namespace a2afft
