#pragma once

#include <mpi.h>

#include <vector>

#include "fftw_plan.hpp"
#include "geometry.hpp"

namespace a2afft::detail::fft {

/// Collective: rank 0 receives every rank's row-major local box and returns the whole global
/// array (other ranks get an empty vector). For checks and tests, never on a timed path.
std::vector<Complex> gather_global(const Complex* local, const Box3& box, const Shape3& shape,
                                   MPI_Comm comm);

/// Max |got - reference| / max |reference| over two gathered arrays on rank 0 (where both are
/// whole), shared with every rank of `comm`. Collective; 0 when `reference` is empty.
double relative_difference(const std::vector<Complex>& got, const std::vector<Complex>& reference,
                           MPI_Comm comm);

}  // namespace a2afft::detail::fft
