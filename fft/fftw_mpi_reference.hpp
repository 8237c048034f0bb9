#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "fftw_plan.hpp"
#include "geometry.hpp"
#include "timing/phase_timer.hpp"

namespace a2afft::fft {

/// FFTW's own distributed 3D transform (fftw_mpi_plan_dft_3d, slabs along dim 0), on the same
/// problem, so one run shows a2afft and FFTW-MPI side by side. With `transposed_output` the
/// forward plan uses FFTW_MPI_TRANSPOSED_OUT and the backward FFTW_MPI_TRANSPOSED_IN: the output
/// is then stored as [local n1][n0][n2], dims 0 and 1 swapped.
class FftwMpi3d {
 public:
  FftwMpi3d(MPI_Comm comm, const Shape3& shape, Rigor rigor, bool transposed_output);
  ~FftwMpi3d();
  FftwMpi3d(const FftwMpi3d&) = delete;
  FftwMpi3d& operator=(const FftwMpi3d&) = delete;

  const Box3& input_box() const { return input_box_; }
  /// The output box in global (n0, n1, n2) coordinates; see output_in_natural_order().
  const Box3& output_box() const { return output_box_; }
  Complex* data() { return data_; }

  void forward();
  void backward();
  /// The local output reordered row-major over output_box() (a copy for checks, never timed).
  std::vector<Complex> output_in_natural_order() const;
  /// The whole output in natural order on rank 0 (empty elsewhere); collective, untimed.
  std::vector<Complex> gather_output() const;

  std::string describe() const;
  /// The whole transform is `compute` to FFTW-MPI; its transposes cannot be timed apart.
  void attach_timer(PhaseTimer* timer) { timer_ = timer; }

 private:
  void release();

  MPI_Comm comm_;
  Shape3 shape_;
  bool transposed_output_;
  Box3 input_box_;
  Box3 output_box_;
  Complex* data_ = nullptr;
  fftw_plan forward_ = nullptr;
  fftw_plan backward_ = nullptr;
  PhaseTimer* timer_ = nullptr;
};

/// FFTW's own distributed 1D transform (fftw_mpi_plan_dft_1d), in natural order on both sides,
/// out of place: forward reads data() and writes the output array, backward the reverse.
class FftwMpi1d {
 public:
  FftwMpi1d(MPI_Comm comm, std::size_t n, Rigor rigor);
  ~FftwMpi1d();
  FftwMpi1d(const FftwMpi1d&) = delete;
  FftwMpi1d& operator=(const FftwMpi1d&) = delete;

  /// The local input, as a box of the 1 x 1 x N array (FFTW chooses the distribution).
  const Box3& input_box() const { return input_box_; }
  Complex* data() { return in_; }
  /// The whole output in natural order on rank 0 (empty elsewhere); collective, untimed.
  std::vector<Complex> gather_output() const;

  void forward();
  void backward();
  std::string describe() const { return "fftw_mpi_plan_dft_1d"; }
  void attach_timer(PhaseTimer* timer) { timer_ = timer; }

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
  PhaseTimer* timer_ = nullptr;
};

}  // namespace a2afft::fft
