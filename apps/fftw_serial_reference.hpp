#pragma once

// FFTW's own serial 3D (or 2D) plan on one rank, beside a2afft's (issue 35): the yardstick of
// the local FFTs, since on one rank a2afft's transform is local FFTs and reorders only.

#include <fftw3.h>
#include <mpi.h>

#include <array>
#include <memory>
#include <string>

#include <a2afft/tools/fftw_api.hpp>

#include "fft_candidate.hpp"

namespace a2afft::commands {

/// Why FFTW's serial plan is not run on `ranks` ranks for `transform`, or "" where it is: it
/// transforms the whole array on one rank, and takes c2c, r2c and r2r on every axis, unpadded.
std::string fftw_serial_refusal(int ranks, const BenchmarkTransform& transform);

/// FFTW's serial plan of `transform` on the whole array of `shape` (a 2D one of shape[1] x
/// shape[2] when `two_d`): fftw(f)_plan_many_dft, _dft_r2c/_dft_c2r (rows padded to 2(n2/2+1)
/// reals, in place) or _r2r, howmany = the batch (interleaved, as a2afft's), in place, natural
/// order on both sides, on an array of `arrays`' kind. The whole transform counts as `compute`.
/// Throws UsageError where fftw_serial_refusal() says why.
std::unique_ptr<FftCandidate> make_fftw_serial_3d(MPI_Comm comm,
                                                  const std::array<std::size_t, 3>& shape,
                                                  Rigor rigor, const BenchmarkTransform& transform,
                                                  bool two_d, Arrays arrays);

}  // namespace a2afft::commands
