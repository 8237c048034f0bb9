#pragma once

#include <cstddef>
#include <string>

#include <a2afft/model.hpp>

// The alpha-beta (Hockney) model of the exchanges: a message of m bytes costs alpha + m*beta,
// with separate costs inside a node and between nodes. Ranks are numbered node by node, Q per
// node. A round costs what its slowest message costs, so a round in which any rank talks to
// another node is charged at the inter-node rate. Pure math, no MPI.
namespace a2afft::schedule {

// The inputs and results are the public ones (a2afft/model.hpp), which forwards here.
using model::LinkCost;
using model::ModelInputs;
using model::ModelResult;

/// tra with `radix`; radix P gives the direct schedule's counts.
ModelResult model_tra(const ModelInputs& inputs, long radix);
/// tra2 with radices r1 (among a node's Q ranks) and r2 (among the N nodes).
ModelResult model_tra2(const ModelInputs& inputs, long intra_radix, long inter_radix);
/// The direct algorithms (pairwise, nonblocking, factor): P-1 rounds of one block each.
ModelResult model_direct(const ModelInputs& inputs, const std::string& algorithm);

/// How many of a node's ranks send to another node in a round with shift `distance`.
long ranks_leaving_node(long ranks, long ranks_per_node, long distance);

}  // namespace a2afft::schedule
