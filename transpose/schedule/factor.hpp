#pragma once

#include <vector>

#include <a2afft/tools/model_types.hpp>

// 1-factorization of the complete graph with self-loops ([hier-factor-2002] §2).
// Pure math, no MPI.
namespace a2afft::detail::schedule {

/// Rounds of the factor algorithm on `ranks` ranks: `ranks` for odd counts (round i pairs u
/// with (i - u) mod P, the self-loop of u falls in round 2u mod P); for even counts P-1
/// exchange rounds on the odd graph of P-1 vertices, with the vertex P-1 taking each round's
/// self-loop, plus one last round in which every rank meets itself.
int factor_rounds(int ranks);

/// The partner of `rank` in `round`; `rank` itself means a local copy.
int factor_partner(int round, int rank, int ranks);

/// The partners of `rank` in round order: every rank, itself included, exactly once.
std::vector<int> factor_partners(int rank, int ranks);

/// How a factor schedule loads the network ports of nodes: the tools' type (model_types.hpp).
using model::FactorNodeLoad;

/// The flat factor schedule's load, counted round by round (P^2 work).
FactorNodeLoad factor_node_load(const std::vector<int>& node_sizes);

}  // namespace a2afft::detail::schedule

// ClusteredAllToAll, the hierarchical factor algorithm ([hier-factor-2002] §3, Fig. 2, Theorem 1),
// for nodes of any sizes. Nodes are ordered by size, then id (the paper's U < V). Phase k runs over
// the active nodes A (those with more than `done` ranks), `current` = the smallest active size;
// round i of the phase pairs active node a with (i - a) mod |A| (a 1-factor with self-loops); in a
// pair U <= V each rank u of U with done <= l(u) < current talks to every rank v of V, one per
// step: a two-way exchange when U != V, a one-way send u -> v inside a node. A node is in one pair
// per round and one of its ranks talks per step: single-ported nodes.
namespace a2afft::detail::schedule {

/// One step of ClusteredAllToAll as one rank does it.
struct ClusteredOp {
  enum Kind { exchange, send, receive, copy };
  long step;  // global step number, from 0
  Kind kind;
  int peer_node;
  int peer_local;
  bool operator==(const ClusteredOp&) const = default;
};

/// The steps of rank `local` of `node`, in step order. `node_sizes` may differ.
std::vector<ClusteredOp> clustered_ops(const std::vector<int>& node_sizes, int node, int local);

/// Theorem 1: the number of steps is the most messages a node sends, max size(U) * P.
long clustered_steps(const std::vector<int>& node_sizes);

/// Steps in which a rank of `node` exchanges with another node: size(U) * (P - size(U)), one
/// per pair of its ranks with a rank elsewhere (each exchange carries both directions).
long clustered_inter_node_steps(const std::vector<int>& node_sizes, int node);

/// ClusteredAllToAll's load by Theorem 1's closed forms: one rank per node talks at a time.
FactorNodeLoad clustered_node_load(const std::vector<int>& node_sizes);

}  // namespace a2afft::detail::schedule
