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
  std::array<std::size_t, 2> lower{};  ///< the box's first global index in each dimension
  std::array<std::size_t, 2> size{};   ///< its points in each dimension (0: empty)
  std::array<int, 2> order{0, 1};      ///< its dimensions in storage, slowest first

  /// The box's points: the product of its sizes.
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

/// How an Fft2d is planned: the options every FFT shares (PlanOptions; `exchange` runs the
/// one transpose among all ranks) and the output order. r2c: real n0 x n1 input,
/// n0 x (n1/2+1) complex output.
struct Fft2dOptions : PlanOptions {
  /// Where forward() leaves its output (Fft2dOutput).
  Fft2dOutput output = Fft2dOutput::transposed;
};

/// A distributed 2D FFT of n0 x n1 points on slabs: rank r holds rows part r of dimension 0
/// (near-equal parts, the first ones one larger; ranks beyond n0 hold nothing), all of
/// dimension 1. Forward: FFTs along dimension 1 (r2c there), one transpose through an a2afft
/// exchange, FFTs along dimension 0. It is the 3D pencil engine of Fft3d on a 1 x n0 x n1
/// array and a 1 x P grid, so every kind, precision, batch, exchange and option works as
/// there; the calls mean what Fft3d's do, with Box2 for Box3, and describe() names the one
/// exchange (an Exchange::describe(), or `-` on one rank).
class Fft2d : public DistributedFft {
 public:
  /// Collective over `comm`, with the same arguments on every rank. Throws UsageError (the same
  /// message on every rank) for a zero size or any bad option, as Fft3d does.
  Fft2d(MPI_Comm comm, const std::array<std::size_t, 2>& shape, const Fft2dOptions& options = {});
  /// Collective, as construction: frees the plan's communicators, windows and arrays.
  ~Fft2d() override;
  /// Plans move; a moved-from plan may only be destroyed or assigned to.
  /// @{
  Fft2d(Fft2d&&) noexcept;
  Fft2d& operator=(Fft2d&&) noexcept;
  /// @}

  /// {n0, n1}, the global shape.
  std::array<std::size_t, 2> shape() const;
  /// The physical grid forward() takes and backward() returns: shape() padded by
  /// options.padding (shape() without padding).
  std::array<std::size_t, 2> padded_shape() const;
  /// This rank's rows of forward()'s input (real for r2c: all n1 points of each).
  Box2 input_box() const;
  /// This rank's part of the (complex, n0 x (n1/2+1) for r2c) output; see Fft2dOutput.
  Box2 output_box() const;

 private:
  std::array<std::size_t, 2> shape_;
};

}  // namespace a2afft
