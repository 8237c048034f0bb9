#pragma once

// FFTW's own serial 3D (or 2D) plan on one rank, beside a2afft's (issue 35): the yardstick of
// the local FFTs, since on one rank a2afft's transform is local FFTs and reorders only.

#include <fftw3.h>
#include <mpi.h>

#include <array>
#include <memory>
#include <string>

#include "fft_candidate.hpp"

namespace a2afft::commands {

/// FFTW's serial calls of one precision (fftw_ or fftwf_), for the reference rows. Not the
/// engine's table (fft/fftw_plan.hpp: the guru64 interface, behind the library): apps/ sees only
/// public headers, and these rows plan the whole array with FFTW's plain many-plan calls.
template <typename Real>
struct FftwApi;
template <>
struct FftwApi<double> {
  using Plan = fftw_plan;
  using FftwComplex = fftw_complex;
  static constexpr auto plan_dft = fftw_plan_many_dft;
  static constexpr auto plan_r2c = fftw_plan_many_dft_r2c;
  static constexpr auto plan_c2r = fftw_plan_many_dft_c2r;
  static constexpr auto plan_r2r = fftw_plan_many_r2r;
  static constexpr auto execute = fftw_execute;
  static constexpr auto destroy = fftw_destroy_plan;
};
template <>
struct FftwApi<float> {
  using Plan = fftwf_plan;
  using FftwComplex = fftwf_complex;
  static constexpr auto plan_dft = fftwf_plan_many_dft;
  static constexpr auto plan_r2c = fftwf_plan_many_dft_r2c;
  static constexpr auto plan_c2r = fftwf_plan_many_dft_c2r;
  static constexpr auto plan_r2r = fftwf_plan_many_r2r;
  static constexpr auto execute = fftwf_execute;
  static constexpr auto destroy = fftwf_destroy_plan;
};

/// FFTW's planner flags for a rigor: FFTW_ESTIMATE, _MEASURE or _PATIENT.
unsigned fftw_planner_flags(Rigor rigor);

/// Why FFTW's serial plan is not run on `ranks` ranks for `transform`, or "" where it is: it
/// transforms the whole array on one rank, and takes c2c, r2c and r2r on every axis, unpadded.
std::string fftw_serial_refusal(int ranks, const Transform& transform);

/// FFTW's serial plan of `transform` on the whole array of `shape` (a 2D one of shape[1] x
/// shape[2] when `two_d`): fftw(f)_plan_many_dft, _dft_r2c/_dft_c2r (rows padded to 2(n2/2+1)
/// reals, in place) or _r2r, howmany = the batch (interleaved, as a2afft's), in place, natural
/// order on both sides, on an array of `arrays`' kind. The whole transform counts as `compute`.
/// Throws UsageError where fftw_serial_refusal() says why.
std::unique_ptr<FftCandidate> make_fftw_serial_3d(MPI_Comm comm,
                                                  const std::array<std::size_t, 3>& shape,
                                                  Rigor rigor, const Transform& transform,
                                                  bool two_d, Arrays arrays);

}  // namespace a2afft::commands
