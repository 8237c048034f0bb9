#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <a2afft/topology.hpp>

namespace a2afft {

/// One parameter a backend accepts, as `a2afft list` shows it.
struct BackendParameter {
  std::string key;
  std::string default_value;
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
  /// Whether Exchange::start() returns with messages in flight: "yes", "no" (all the work in
  /// start()), or "as chosen" (auto: as the backend it picks).
  std::string split_phase;
};

/// Every backend make_exchange() knows, in the order `a2afft list` shows them; the a2afft
/// command's `--exchange all` stands for each of them with its defaults.
std::vector<BackendInfo> backends();

/// Splits a comma-separated list of specs. An item of the form `key=value` continues the spec
/// before it (backend names never contain `=`), and commas inside parentheses do not split:
/// `tra:radix=4,tra2:r1=2,r2=4,mpi` and `node-aware:inner=(tra2:r1=2,r2=4),mpi` are 3 and 2.
std::vector<std::string> split_specs(std::string_view list);

/// The canonical text of one spec (`name:k=v,k=v`, nested specs with several parameters in
/// parentheses), after checking its grammar, backend name and keys. Throws UsageError naming the
/// text and what is valid. Values are checked by backend_refusal() and make_exchange().
std::string canonical_spec(std::string_view spec);

/// Why the ranks of `ranks` cannot run `spec`, or "" when they can: what make_exchange() would
/// refuse, found without building anything (pure, no MPI, so the same on every rank). Throws
/// UsageError for an unknown name or key or a bad value.
std::string backend_refusal(std::string_view spec, const RankMap& ranks);

/// The most scratch memory (bytes) a plan of `spec` may allocate per rank beyond run()'s
/// buffers, with `block_bytes` blocks on `ranks` ranks whose largest node has
/// `largest_node_size` ranks; for memory estimates made before any plan exists. Pure. Throws
/// UsageError for an unknown backend.
double backend_scratch_bytes(std::string_view spec, int ranks, int largest_node_size,
                             std::size_t block_bytes);

}  // namespace a2afft
