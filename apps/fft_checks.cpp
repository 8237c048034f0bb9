#include "fft_checks.hpp"

#include <algorithm>
#include <cmath>

#include "gather.hpp"
#include "mpi/comm.hpp"

namespace a2afft::commands {

FftErrors check_candidate(FftCandidate& plan, const std::vector<fft::Complex>& input, double points,
                          const std::vector<fft::Complex>* reference,
                          std::vector<fft::Complex>* gathered_output, MPI_Comm comm) {
  FftErrors errors;
  std::copy(input.begin(), input.end(), plan.data());
  plan.forward();
  std::vector<fft::Complex> global = plan.gather_output();
  if (reference != nullptr)
    errors.vs_reference = fft::relative_difference(global, *reference, comm);
  if (gathered_output != nullptr) *gathered_output = std::move(global);
  plan.backward();
  double worst = 0;
  double scale = 0;
  for (std::size_t i = 0; i < input.size(); ++i) {
    worst = std::max(worst, std::abs(plan.data()[i] / points - input[i]));
    scale = std::max(scale, std::abs(input[i]));
  }
  double pair[2] = {worst, scale};
  mpi::check(MPI_Allreduce(MPI_IN_PLACE, pair, 2, MPI_DOUBLE, MPI_MAX, comm),
             "MPI_Allreduce(round trip)");
  errors.round_trip_absolute = pair[0];
  errors.round_trip = pair[0] / std::max(pair[1], 1e-300);
  return errors;
}

}  // namespace a2afft::commands
