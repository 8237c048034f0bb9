#pragma once

// The checks of an FFT benchmark row: the round trip backward(forward(x)) = N x, and the output
// against FFTW-MPI's.

#include <mpi.h>

#include <optional>
#include <vector>

#include "fft_candidate.hpp"

namespace a2afft::commands {

struct FftErrors {
  double round_trip = 0;           // max |IFFT(FFT(x))/N - x| / max |x|
  double round_trip_absolute = 0;  // max |IFFT(FFT(x))/N - x|: HPCC's maxErr
  std::optional<double> vs_reference;
};

/// Transforms `input` (`points` in all) forward, compares the gathered output with `reference`
/// (FFTW-MPI's, on rank 0) when given and hands it to `gathered_output` when asked, then
/// transforms back. A padded transform's backward(forward(x)) keeps only x's modes, so its
/// round trip is forward(backward(X)) = points X of the forward output X instead (field 0).
/// Collective.
FftErrors check_candidate(FftCandidate& plan, const std::vector<Complex>& input, double points,
                          const std::vector<Complex>* reference,
                          std::vector<Complex>* gathered_output, MPI_Comm comm);

}  // namespace a2afft::commands
