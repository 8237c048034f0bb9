#pragma once

#include <memory>
#include <string>
#include <vector>

#include "exchange.hpp"
#include "exchange_buffer.hpp"
#include "fftw_plan.hpp"
#include "geometry.hpp"
#include "pencil_geometry.hpp"
#include "spec.hpp"
#include "timing/phase_timer.hpp"
#include "topology/topology.hpp"
#include "transpose_step.hpp"

namespace a2afft::fft {

struct Pencil3dOptions {
  Spec row_exchange{"mpi", {}};     // for the transpose among the p1 ranks of a row
  Spec column_exchange{"mpi", {}};  // for the transpose among the p0 ranks of a column
  Rigor rigor = Rigor::estimate;
  bool natural_output = false;  // forward output back in the input layout (two more transposes)
};

/// A 3D c2c double FFT on a p0 x p1 pencil grid (DESIGN.md §4). Rank (a, b) starts with
/// dims 0 and 1 split (parts a of p0 and b of p1) and all of dim 2:
///   FFT z; row transpose (split z over p1, gather y); FFT y;
///   column transpose (split y over p0, gather x); FFT x.
/// The output stays in that layout: all of x, part a of y, part b of z, stored y-major
/// ([y][x][z], so the x FFTs run at stride z) when p0 > 1 and x-major when p0 = 1. With p1 = 1
/// the z and y FFTs are one 2D plan over contiguous planes. The grid may split a dimension into
/// more parts than it has points: some ranks then hold nothing, and take part all the same.
/// Forward is unnormalized, as in FFTW.
/// Collective construction does all planning; forward() and backward() only compute and move data,
/// in place on data().
///
/// Each stage is one sweep over its leading planes: unpack the plane from the previous exchange,
/// transform it, pack it for the next exchange. The plane stays in cache between the three, so
/// a transpose costs one pass over memory on each side instead of two.
class Pencil3d {
 public:
  Pencil3d(const Topology& topology, const Shape3& shape, const ProcGrid& grid,
           const Pencil3dOptions& options);
  ~Pencil3d();
  Pencil3d(const Pencil3d&) = delete;
  Pencil3d& operator=(const Pencil3d&) = delete;

  /// Boxes, storage order, blocks and buffers of every stage on this rank: what the plan uses.
  const PencilGeometry& geometry() const { return geometry_; }
  /// This rank's part of the input (and of the backward output), row-major in data().
  const Box3& input_box() const { return geometry_.input_box(); }
  /// This rank's part of the forward output, in global coordinates; see output_is_y_major().
  const Box3& output_box() const { return geometry_.output_box(); }
  /// True when data() holds the output as [y][x][z] rather than row-major [x][y][z].
  bool output_is_y_major() const { return geometry_.output_is_y_major(); }
  Complex* data() { return data_.data(); }
  /// The output reordered row-major over output_box(), and the reverse: for checks, untimed.
  std::vector<Complex> output_in_natural_order() const;
  void set_output_from_natural_order(const Complex* natural);
  /// The whole forward output in natural order on rank 0 (empty elsewhere); collective, untimed.
  std::vector<Complex> gather_output() const;

  void forward();
  void backward();

  /// `row=<describe>,column=<describe>` with `-` for a transpose inside one rank.
  std::string describe() const;
  /// Seconds of `compute` (FFTs) and `transpose` (pack + exchange + unpack) accumulate here.
  void attach_timer(PhaseTimer* timer) { timer_ = timer; }

 private:
  struct Transpose;
  struct Sweep;
  using StagePlans = std::array<std::array<const FftwPlan*, 3>, 2>;  // [backward][stage]
  std::vector<Sweep> compile(std::size_t first, std::size_t last, bool backward,
                             const StagePlans& plans) const;
  void sweep(const Sweep& step);

  MPI_Comm comm_;  // the topology's; it outlives the plan
  PencilGeometry geometry_;
  Pencil3dOptions options_;
  std::vector<Complex> data_;
  ComplexBuffer send_;  // from the row exchange's allocate() (else the column's)
  ComplexBuffer recv_;
  std::unique_ptr<Topology> row_topology_;
  std::unique_ptr<Topology> column_topology_;
  std::unique_ptr<Transpose> row_;
  std::unique_ptr<Transpose> column_;
  std::vector<FftwPlan> plane_plans_;  // one plane of a stage each, run at every plane
  std::vector<Sweep> forward_;         // planned at construction; forward() only walks it
  std::vector<Sweep> backward_;
  PhaseTimer* timer_ = nullptr;
};

}  // namespace a2afft::fft
