#include "schedule/factor.hpp"

namespace a2afft::schedule {
namespace {

int mod(long value, int modulus) {
  const long remainder = value % modulus;
  return static_cast<int>(remainder < 0 ? remainder + modulus : remainder);
}

}  // namespace

int factor_rounds(int ranks) {
  return ranks;
}

int factor_partner(int round, int rank, int ranks) {
  if (ranks % 2 == 1) return mod(static_cast<long>(round) - rank, ranks);
  if (round == ranks - 1) return rank;  // the concentrated self-loops
  const int odd = ranks - 1;
  if (rank == odd) {
    // The vertex whose self-loop falls in this round: 2u = round (mod odd), u = round * (odd+1)/2.
    return mod(static_cast<long>(round) * (odd + 1) / 2, odd);
  }
  const int partner = mod(static_cast<long>(round) - rank, odd);
  return partner == rank ? odd : partner;
}

std::vector<int> factor_partners(int rank, int ranks) {
  std::vector<int> partners;
  for (int round = 0; round < factor_rounds(ranks); ++round) {
    partners.push_back(factor_partner(round, rank, ranks));
  }
  return partners;
}

}  // namespace a2afft::schedule
