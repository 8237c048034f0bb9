#pragma once

// FFTW's own distributed transforms on the benchmark's problems, so one run shows a2afft and
// FFTW-MPI side by side.

#include <fftw3-mpi.h>
#include <mpi.h>

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "fft_candidate.hpp"

namespace a2afft::commands {

/// FFTW-MPI's 3D transform of `transform`'s kind, precision and fields: fftw(f)_mpi_plan_many_dft
/// (c2c) or _dft_r2c / _dft_c2r (r2c; real rows padded to 2(n2/2+1) as FFTW-MPI needs), slabs
/// along dim 0, in place, howmany = the batch (interleaved, as a2afft's). With
/// `transposed_output` the forward plan uses FFTW_MPI_TRANSPOSED_OUT and the backward
/// FFTW_MPI_TRANSPOSED_IN: the output is then stored [local n1][n0][n2], dims 0 and 1 swapped.
/// The whole transform counts as `compute`: FFTW-MPI's transposes cannot be timed apart.
/// `two_d`: shape is {1, n0, n1}, planned as FFTW-MPI's 2D transform of n0 x n1 (rank 2).
std::unique_ptr<FftCandidate> make_fftw_mpi_3d(MPI_Comm comm,
                                               const std::array<std::size_t, 3>& shape, Rigor rigor,
                                               bool transposed_output, const Transform& transform,
                                               bool two_d = false);

/// fftw_mpi_plan_dft_1d, in natural order on both sides, out of place: forward reads data() and
/// writes the output array, backward the reverse.
class FftwMpi1d final : public FftCandidate {
 public:
  FftwMpi1d(MPI_Comm comm, std::size_t n, Rigor rigor);
  ~FftwMpi1d() override;
  FftwMpi1d(const FftwMpi1d&) = delete;
  FftwMpi1d& operator=(const FftwMpi1d&) = delete;

  std::string describe() const override { return "fftw_mpi_plan_dft_1d"; }
  /// The local input, as a box of the 1 x 1 x N array (FFTW chooses the distribution).
  Box3 input_box() const override { return input_box_; }
  void load(const std::vector<Complex>& input) override;
  void forward() override;
  void backward() override;
  std::vector<Complex> gather_output() const override;
  RoundTrip round_trip(const std::vector<Complex>& input, double points) const override;
  FftTimes last_times() const override { return {0.0, last_seconds_}; }

 private:
  void release();

  MPI_Comm comm_;
  std::size_t n_;
  Box3 input_box_;
  Box3 output_box_;
  Complex* in_ = nullptr;
  Complex* out_ = nullptr;
  fftw_plan forward_ = nullptr;
  fftw_plan backward_ = nullptr;
  double last_seconds_ = 0;
};

}  // namespace a2afft::commands
