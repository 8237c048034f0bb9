#pragma once

// What the a2afft command asks of the backends before it plans anything: whether a layout can
// run a spec, and how much scratch a plan may take. Part of a2afft::tools.

#include <cstddef>
#include <string>
#include <string_view>

#include <a2afft/backends.hpp>
#include <a2afft/tools/topology.hpp>

namespace a2afft {

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
