#pragma once

#include <vector>

// 1-factorization of the complete graph with self-loops (seed hierarchical-factor-alltoall §2).
// Pure math, no MPI.
namespace a2afft::schedule {

/// Rounds of the factor algorithm on `ranks` ranks: `ranks` for odd counts (round i pairs u
/// with (i - u) mod P, the self-loop of u falls in round 2u mod P); for even counts P-1
/// exchange rounds on the odd graph of P-1 vertices, with the vertex P-1 taking each round's
/// self-loop, plus one last round in which every rank meets itself.
int factor_rounds(int ranks);

/// The partner of `rank` in `round`; `rank` itself means a local copy.
int factor_partner(int round, int rank, int ranks);

/// The partners of `rank` in round order: every rank, itself included, exactly once.
std::vector<int> factor_partners(int rank, int ranks);

}  // namespace a2afft::schedule
