#pragma once

#include "schedule/cost_model.hpp"

#include "topology/topology.hpp"

namespace a2afft::detail {

/// The links of a real machine: one message inside a node and one between nodes. A layout
/// without two ranks on one node (or without two nodes) cannot measure that link; it then holds
/// the other link's cost, and its flag is false.
struct MeasuredLinks {
  schedule::LinkCost intra{0, 0};
  schedule::LinkCost inter{0, 0};
  bool intra_measured = false;
  bool inter_measured = false;
};

/// What a message costs inside a node and between nodes of `topology`, by ping-pong: rank 0
/// with its first node neighbour and with the first rank of another node, 8 B and 1 MiB each
/// (alpha is the 8 B one-way time, beta the slope to 1 MiB). Where the layout has no such
/// neighbour, that link is copied from the other and marked unmeasured. Collective over
/// topology.comm(); the same numbers on every rank. This is auto's estimate mode's machine, and
/// what `a2afft model --measure` feeds the model.
MeasuredLinks measure_links(const Topology& topology);

}  // namespace a2afft::detail
