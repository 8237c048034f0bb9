#pragma once

#include <mpi.h>

#include <vector>

#include "fftw_plan.hpp"
#include "geometry.hpp"

namespace a2afft::fft {

/// Collective: rank 0 receives every rank's row-major local box and returns the whole global
/// array (other ranks get an empty vector). For checks and tests, never on a timed path.
std::vector<Complex> gather_global(const Complex* local, const Box3& box, const Shape3& shape,
                                   MPI_Comm comm);

}  // namespace a2afft::fft
