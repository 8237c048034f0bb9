#pragma once

#include "schedule/cost_model.hpp"

#include "topology/topology.hpp"

namespace a2afft::detail {

/// The links of a real machine: the tools' type (include/a2afft/tools/model_types.hpp).
using model::MeasuredLinks;

/// What a message costs inside a node and between nodes of `topology`, by ping-pong: rank 0
/// with its first node neighbour and with the first rank of another node, 8 B and 1 MiB each
/// (alpha is the 8 B one-way time, beta the slope to 1 MiB). Where the layout has no such
/// neighbour, that link is copied from the other and marked unmeasured. Then the max-rate
/// model's node terms: the ranks of rank 0's node swap 1 MiB with their counterparts on another
/// node all at once (R_N), and with each other in pairs (the node's copy rate); the gap between
/// 32 8 B messages of rank 0 in flight at once (o); and each round's own cost: `pairwise` with
/// 1 B blocks on the whole job, less the model's price of its messages, per round; and the
/// host's copy rate and memcpy call cost on rank 0 (a 64 MiB memcpy; 8 B blocks). Collective
/// over topology.comm(); the same numbers on every rank. This is auto's estimate mode's
/// machine, and what `a2afft model --measure` feeds the model.
MeasuredLinks measure_links(const Topology& topology);

}  // namespace a2afft::detail
