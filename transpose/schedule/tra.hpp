#pragma once

#include <vector>

// The tunable-radix all-to-all (TRA) schedule of [tra-2024] §III, and the
// counts K (rounds) and D (blocks sent per rank) of its Propositions 1-4. Pure math, no MPI.
// Blocks are numbered by distance i = (destination - source) mod P; round (x, z) carries the
// blocks whose x-th base-r digit is z to the rank z * r^x further on.
namespace a2afft::detail::schedule {

/// Number of base-`radix` digits of `value` (0 for 0), by integer arithmetic.
int radix_digits(long value, long radix);
/// The `position`-th base-`radix` digit of `value`.
long radix_digit(long value, int position, long radix);
/// radix^exponent; the caller keeps it within long.
long integer_power(long radix, int exponent);

/// One round that carries at least one block.
struct TraRound {
  int position;              // x: the digit this round works on
  long value;                // z: the digit's value, 1 <= z < r
  long distance;             // z * r^x: send to rank + distance, receive from rank - distance
  std::vector<long> blocks;  // the distances i < P whose x-th digit is z, ascending
};

/// The non-empty rounds for `ranks` >= 1 and 2 <= `radix`, x ascending then z ascending.
std::vector<TraRound> tra_rounds(long ranks, long radix);

/// The rank `distance` further on, and the one `distance` back, modulo `ranks`: round (x, z)
/// sends to rank_after(rank, z r^x) and receives from rank_before(rank, z r^x); the block at
/// distance i leaves for rank_after(rank, i) and arrives from rank_before(rank, i).
long rank_after(long rank, long distance, long ranks);
long rank_before(long rank, long distance, long ranks);

/// The way of the block at distance i: one hop per non-zero base-r digit, lowest digit first.
struct TraHops {
  int count = 0;
  int first_position = -1;  // the digit of its first hop (it leaves the send buffer); -1: none
  int last_position = -1;   // the digit of its last hop (it lands in the receive buffer)
};
TraHops tra_hops(long distance, long radix);

/// K and D.
struct TraCounts {
  long rounds = 0;
  long blocks = 0;
  bool operator==(const TraCounts&) const = default;
};

/// K and D by the closed forms: Propositions 1 and 2 when P = r^w, 3 and 4 when P < r^w.
TraCounts tra_counts_by_formula(long ranks, long radix);
/// K and D by counting the schedule (no block lists, so it runs for P up to millions).
TraCounts tra_counts_by_schedule(long ranks, long radix);
/// Proposition 4's h: the blocks round (x, z) carries.
long tra_round_blocks_by_formula(long ranks, long radix, int position, long value);

/// TRA2 on `nodes` nodes of `ranks_per_node` ranks: phase 1 is TRA among a node's ranks with
/// super-blocks of `nodes` blocks, phase 2 TRA among equal local ranks with super-blocks of
/// `ranks_per_node` blocks. Blocks are counted in plain blocks (super-blocks times their size).
struct Tra2Counts {
  TraCounts intra;  // K1, D1
  TraCounts inter;  // K2, D2
};
Tra2Counts tra2_counts(long ranks_per_node, long nodes, long intra_radix, long inter_radix);

/// The default radix ceil(sqrt(P)), at least 2: the knee of the K and D curves (§III-B).
long default_radix(long ranks);

}  // namespace a2afft::detail::schedule
