#include "fft_checks.hpp"

#include <algorithm>
#include <cmath>

#include <a2afft/tools/fft_tools.hpp>

namespace a2afft::commands {
namespace {

// After forward() into `first` (gathered on rank 0) and backward(): forward() again, against
// `points` times `first`.
void padded_round_trip(FftCandidate& plan, const std::vector<Complex>& first, double points,
                       FftErrors& errors, MPI_Comm comm) {
  plan.forward();
  const std::vector<Complex> again = plan.gather_output();
  double pair[2] = {0, 0};  // on rank 0, which holds the gathered outputs
  for (std::size_t i = 0; i < again.size(); ++i) {
    pair[0] = std::max(pair[0], std::abs(again[i] / points - first[i]));
    pair[1] = std::max(pair[1], std::abs(first[i]));
  }
  MPI_Bcast(pair, 2, MPI_DOUBLE, 0, comm);
  errors.round_trip_absolute = pair[0];
  errors.round_trip = pair[0] / std::max(pair[1], 1e-300);
}

}  // namespace

FftErrors check_candidate(FftCandidate& plan, const std::vector<Complex>& input, double points,
                          const std::vector<Complex>* reference,
                          std::vector<Complex>* gathered_output, MPI_Comm comm) {
  FftErrors errors;
  plan.load(input);
  plan.forward();
  std::vector<Complex> global = plan.gather_output();
  if (reference != nullptr) errors.vs_reference = relative_difference(global, *reference, comm);
  if (gathered_output != nullptr) *gathered_output = std::move(global);
  plan.backward();
  if (plan.transform().padded()) {
    padded_round_trip(plan, gathered_output != nullptr ? *gathered_output : global, points, errors,
                      comm);
    return errors;
  }
  const RoundTrip local = plan.round_trip(input, points);
  double pair[2] = {local.worst, local.scale};
  MPI_Allreduce(MPI_IN_PLACE, pair, 2, MPI_DOUBLE, MPI_MAX, comm);
  errors.round_trip_absolute = pair[0];
  errors.round_trip = pair[0] / std::max(pair[1], 1e-300);
  return errors;
}

}  // namespace a2afft::commands
