#pragma once

#include <mpi.h>

#include <array>
#include <cstddef>
#include <memory>
#include <string>

#include <a2afft/error.hpp>
#include <a2afft/fft.hpp>
#include <a2afft/layout.hpp>

namespace a2afft {

/// A rank's part of a global n0 x n1 array, in global coordinates: the elements
/// [lower[d], lower[d] + size[d]) of each dimension d, stored contiguously with the dimensions
/// ordered by `order` from slowest to fastest ({0, 1}: row-major). May be empty.
struct Box2 {
  std::array<std::size_t, 2> lower{};
  std::array<std::size_t, 2> size{};
  std::array<int, 2> order{0, 1};

  std::size_t elements() const { return size[0] * size[1]; }
  /// The position in local storage of global element (i0, i1), which must lie in the box.
  std::size_t local_index(const std::array<std::size_t, 2>& global) const {
    std::size_t index = 0;
    for (const int d : order)
      index = index * size[d] + (global[d] - lower[d]);
    return index;
  }
};

/// Where the forward transform of a 2D FFT leaves its output.
enum class Fft2dOutput {
  /// All of dimension 0 and part of dimension 1 on every rank, row-major: one transpose, the
  /// fastest (as FFTW_MPI_TRANSPOSED_OUT, which stores it [n1 part][n0] instead).
  transposed,
  /// The input's slabs again: one more transpose.
  natural,
};

/// How an Fft2d is planned; every field has a working default (see Fft3dOptions for the
/// meaning of the shared ones).
struct Fft2dOptions {
  /// The all-to-all of the transpose among all ranks: `auto` or any spec `a2afft list` shows.
  std::string exchange = "auto";
  Rigor rigor = Rigor::measure;
  Fft2dOutput output = Fft2dOutput::transposed;
  std::string wisdom_file;
  Scaling scaling = Scaling::none;
  LayoutRequest layout;
  /// c2c, or r2c: real n0 x n1 input, n0 x (n1/2+1) complex output.
  Kind kind = Kind::c2c;
  Precision precision = Precision::double_precision;
  /// Fields transformed together, interleaved (field fastest), >= 1.
  std::size_t batch = 1;
};

/// A distributed 2D FFT of n0 x n1 points on slabs: rank r holds rows part r of dimension 0
/// (near-equal parts, the first ones one larger; ranks beyond n0 hold nothing), all of
/// dimension 1. Forward: FFTs along dimension 1 (r2c there), one transpose through an a2afft
/// exchange, FFTs along dimension 0. It is the 3D pencil engine of Fft3d on a 1 x n0 x n1
/// array and a 1 x P grid, so every kind, precision, batch, exchange and option works as
/// there; the calls below mean what Fft3d's do, with Box2 for Box3.
class Fft2d {
 public:
  /// Collective over `comm`, with the same arguments on every rank. Throws UsageError (the same
  /// message on every rank) for a zero size or any bad option, as Fft3d does.
  Fft2d(MPI_Comm comm, const std::array<std::size_t, 2>& shape, const Fft2dOptions& options = {});
  ~Fft2d();
  Fft2d(Fft2d&&) noexcept;
  Fft2d& operator=(Fft2d&&) noexcept;
  Fft2d(const Fft2d&) = delete;
  Fft2d& operator=(const Fft2d&) = delete;

  std::array<std::size_t, 2> shape() const;
  Kind kind() const;
  Precision precision() const;
  std::size_t batch() const;
  /// This rank's rows of forward()'s input (real for r2c: all n1 points of each).
  Box2 input_box() const;
  /// This rank's part of the (complex, n0 x (n1/2+1) for r2c) output; see Fft2dOutput.
  Box2 output_box() const;
  /// Scalars of the local input and output (points times the batch), complex numbers of an
  /// in-place array, and the same in bytes.
  std::size_t input_elements() const;
  std::size_t output_elements() const;
  std::size_t in_place_elements() const;
  std::size_t input_bytes() const;
  std::size_t output_bytes() const;
  std::size_t in_place_bytes() const;

  /// As Fft3d's: in place (in == out) or out of place, 16-byte aligned arrays; the overload must
  /// fit the plan's kind and precision. Collective.
  void forward(const Complex* in, Complex* out);
  void backward(const Complex* in, Complex* out);
  void forward(const ComplexFloat* in, ComplexFloat* out);
  void backward(const ComplexFloat* in, ComplexFloat* out);
  void forward(const double* in, Complex* out);
  void backward(const Complex* in, double* out);
  void forward(const float* in, ComplexFloat* out);
  void backward(const ComplexFloat* in, float* out);
  void forward(std::nullptr_t, std::nullptr_t);
  void backward(std::nullptr_t, std::nullptr_t);
  /// Untyped, with each rank's array sizes checked on every rank (see Fft3d::execute).
  void execute(Direction direction, const void* in, std::size_t in_bytes, void* out,
               std::size_t out_bytes);

  std::size_t workspace_bytes() const;
  /// What forward() (or backward()) reads and writes in memory and computes on this rank, counted
  /// from the schedule the plan runs; see TransformTraffic. Local, no communication.
  TransformTraffic traffic(Direction direction = Direction::forward) const;
  /// The exchange that runs the transpose (an Exchange::describe()), or `-` on one rank.
  std::string describe() const;
  FftTimes last_times() const;

 private:
  struct Plan;
  std::unique_ptr<Plan> plan_;
};

}  // namespace a2afft
