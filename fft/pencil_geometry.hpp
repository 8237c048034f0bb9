#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "geometry.hpp"
#include "transpose_step.hpp"

// What one rank of a 3D pencil FFT holds and moves at every stage: boxes, storage order,
// transposes with their padded blocks, and how the FFTs walk each stage. Pure, no MPI or FFTW,
// unit-tested in one process; Pencil3d plans from it, and the commands size their memory
// estimates from it before any plan exists.
namespace a2afft::detail::fft {

/// Bytes of one complex double, the element of a c2c double transform of one field.
inline constexpr std::size_t kComplexDoubleBytes = 16;

/// Where the forward output stays: in the layout the column transpose leaves it (all of x, y
/// split over p0, z over p1), or moved back to the input layout by two more transposes.
enum class PencilOutput { transposed, natural };

/// A loop over `count` elements `stride` elements apart in a stage's local array.
struct Loop {
  std::size_t count;
  std::size_t stride;
};

/// One stage of the transform on one rank: its box of the global array, how the box is stored,
/// and how the stage's FFTs walk it: one sweep over `planes` leading planes `plane_stride`
/// elements apart, each plane an FFT over the `transform` loops (one for lines, two for
/// planes) repeated over the `batches` loops.
struct PencilStage {
  BoxRange box;
  bool y_major = false;  // stored [y][x][z] instead of row-major [x][y][z]
  std::size_t planes = 0;
  std::size_t plane_stride = 0;
  std::vector<Loop> transform;
  std::vector<Loop> batches;
  /// The array axis (0: x, 1: y, 2: z) each `transform` loop runs along.
  std::vector<int> axes;
  /// Padded transforms: `box` is the stage's physical side (the padded points along the axes
  /// it transforms, what its FFTs run over) and `spectral_box` the modes it keeps of them,
  /// stored densely with planes `spectral_plane_stride` apart. Without padding the same.
  BoxRange spectral_box;
  std::size_t spectral_plane_stride = 0;

  /// The box's extent in the stored order.
  Shape3 stored_extent() const {
    return y_major ? Shape3{box.extent[1], box.extent[0], box.extent[2]} : box.extent;
  }
  /// Where global element `point` (inside `box`) sits in the stored local array.
  std::size_t local_offset(const Shape3& point) const;
};

/// The geometry of a 3D c2c pencil FFT of `shape` on a p0 x p1 grid, seen from `rank` (at row
/// a = rank / p1, column b = rank % p1; docs/design.md §4). Stages, in forward order:
///   0: parts a of x and b of y, all of z (the input; FFTs along z);
///   1: after the row transpose among the p1 ranks of row a: part b of z, all of y (FFTs along y);
///   2: after the column transpose among the p0 ranks of column b: part a of y, all of x
///      (FFTs along x), stored y-major when p0 > 1 so the x FFTs run at stride z over planes
///      that fit in cache, and every transpose keeps axis 0 of both sides.
/// Uneven splits pad each exchange's blocks to the largest part (the uniform block contract).
/// A grid may split a dimension into more parts than it has points (3x2x5 on 8 ranks, 1x1x1 on
/// 2): the last parts are then empty, a stage's box may hold nothing, and a row or column whose
/// ranks hold nothing still exchanges blocks of one element.
/// With p1 = 1 (slabs along x) there is no row transpose: stages 0 and 1 hold the same box and
/// stage 0's FFT is one 2D plan over contiguous [y][z] planes. With p0 = 1 there is no column
/// transpose: stage 2 holds stage 1's box, stored y-major all the same when the output is
/// transposed (transposes_locally()), so that its x FFTs run on contiguous planes that fit in
/// cache; natural and padded output keep it x-major, stage 1's own storage.
class PencilGeometry {
 public:
  /// Throws UsageError when `rank` is not one of the grid's p0 * p1 ranks. `physical`, for a
  /// padded transform, is the shape of the padded side (each axis at least shape's; the same
  /// points along an axis transformed nowhere): each stage's FFTs run over the padded points of
  /// their axes and keep `shape`'s modes, and the transposes move only those (stage 0 then holds
  /// parts of the padded x and y, stage 1 of the padded x, stage 2 of the modes of y). Padding
  /// needs output in the transposed layout. {} (the default) is `shape`: no padding.
  PencilGeometry(const Shape3& shape, const ProcGrid& grid, int rank,
                 PencilOutput output = PencilOutput::transposed, const Shape3& physical = {});

  /// The modes (the spectrum) and the padded side; the same without padding.
  const Shape3& shape() const { return shape_; }
  const Shape3& physical_shape() const { return physical_; }
  bool padded() const { return physical_ != shape_; }
  const ProcGrid& grid() const { return grid_; }
  int rank() const { return rank_; }
  int row() const { return rank_ / grid_.columns; }     // a: which part of x (and later y)
  int column() const { return rank_ % grid_.columns; }  // b: which part of y (and later z)
  PencilOutput output() const { return output_; }

  /// Stage 0, 1 or 2 (see the class comment).
  const PencilStage& stage(std::size_t index) const { return stages_.at(index); }
  /// This rank's part of the input (and of the backward output), row-major.
  const BoxRange& input_box() const { return stages_[0].box; }
  /// This rank's part of the forward output, in global coordinates (of the modes).
  const BoxRange& output_box() const;
  /// True when the forward output is stored [y][x][z] rather than row-major [x][y][z].
  bool output_is_y_major() const;

  bool has_row_transpose() const { return grid_.columns > 1; }
  bool has_column_transpose() const { return grid_.rows > 1; }
  /// p0 = 1 with transposed output (unpadded, x longer than 1): stage 2 is stored y-major while
  /// stage 1, on the same rank, is x-major, so the sweep into stage 2 reorders each y plane as
  /// it copies it (FFTW measured 1.2x faster on the x FFTs of a contiguous 256 x 256 plane than
  /// on the same lines 1 MiB apart, which share cache sets).
  bool transposes_locally() const;
  /// The forward transposes, stage 0 -> 1 among the p1 ranks of our row and stage 1 -> 2 among
  /// the p0 ranks of our column; inverse() of each is the way back.
  const TransposeShape& row_transpose() const { return row_; }
  const TransposeShape& column_transpose() const { return column_; }
  /// Bytes of one block of the row (column) exchange, padded to the largest part, for elements
  /// of `element_bytes` (a complex double by default; a batch of k fields moves k of them per
  /// point): what the exchange plan is made for. 0 without that transpose.
  std::size_t row_block_bytes(std::size_t element_bytes = kComplexDoubleBytes) const;
  std::size_t column_block_bytes(std::size_t element_bytes = kComplexDoubleBytes) const;

  /// Complex elements of the local work array: the largest stage (0 on a rank that holds
  /// nothing).
  std::size_t data_elements() const;
  /// Complex elements of each of the send and the receive buffer, shared by both transposes:
  /// the larger transpose's blocks. 0 without any transpose.
  std::size_t buffer_elements() const;

 private:
  void make_stages();

  Shape3 shape_;
  Shape3 physical_;
  ProcGrid grid_;
  int rank_;
  PencilOutput output_;
  std::array<PencilStage, 3> stages_;
  TransposeShape row_;
  TransposeShape column_;
};

/// The transposes between a pencil plan's stages, in the order a schedule can meet them:
/// the row transpose (stage 0 -> 1), the column transpose (1 -> 2), the column transpose back
/// (2 -> 1) and the row transpose back (1 -> 0).
inline constexpr int kRowThere = 0;
inline constexpr int kColumnThere = 1;
inline constexpr int kColumnBack = 2;
inline constexpr int kRowBack = 3;
/// Whether transposes kRowThere..kRowBack go through the row (true) or the column exchange.
inline constexpr std::array<bool, 4> kTransposeIsRow{true, false, false, true};

/// One pass over the planes of a stage (see Pencil3d): unpack a plane from the last exchange,
/// transform it (when `computes`), pack it for the next exchange, while it is in cache. The
/// plan's forward() and backward() are lists of them, each followed by its pack's exchange.
struct PencilSweepPlan {
  std::size_t stage = 0;
  int unpack = -1;  // the transpose (kRowThere..kRowBack) whose blocks it unpacks, or -1
  bool computes = false;
  int pack = -1;  // the transpose it packs for, whose exchange runs after the sweep, or -1
  // The pack puts our own block straight into the receive buffer and the exchange moves only
  // the others: only in a sweep that unpacks nothing (no unread block is overwritten), and
  // only where the exchange allows it.
  bool own_in_place = false;
  // The first sweep reads the caller's input, the last writes the caller's output; the others
  // read and write the work array where no unpack or pack does.
  bool from_input = false;
  bool to_output = false;
};

/// The sweeps of one direction of a pencil plan with `geometry`: forward walks stages 0, 1, 2
/// (and back to 1, 0 for natural output), backward the reverse, only the stages of the
/// transform proper computing. A stage whose transposes in and out are identities merges into
/// its neighbour's sweep (slabs: stage 1 is stage 0). `leaves_own_block` says, for the row and
/// the column exchange, whether it can leave our own block to the pack. Pure; Pencil3d runs
/// exactly this schedule. Throws std::logic_error if it would have fewer than two sweeps.
std::vector<PencilSweepPlan> pencil_schedule(const PencilGeometry& geometry, bool backward,
                                             std::array<bool, 2> leaves_own_block = {false, false});

/// For the row and the column exchange: whether every sweep that packs for it, in both
/// directions, would put our own block in place (pencil_schedule() with leaves_own_block set).
/// Then the exchange's caller always leaves its own block (ExchangeProblem::own_block_left), and
/// auto times its candidates that way. True for the one exchange of slabs with transposed
/// output; false for both on a 2D grid, where a sweep that unpacks also packs for each.
std::array<bool, 2> pencil_own_block_left(const PencilGeometry& geometry);

}  // namespace a2afft::detail::fft
