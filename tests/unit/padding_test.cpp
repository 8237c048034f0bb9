// The pure math of padded transforms (fft/padding.hpp) and the padded pencil geometry: where
// each mode goes, that padding then truncating gives the modes back, that in place and out of
// place agree (the engine pads and truncates in its work array), and that a padded plan's
// stages keep the padded points only along the axes they transform.

#include "padding.hpp"

#include <gtest/gtest.h>

#include <complex>
#include <vector>

#include "pencil_geometry.hpp"

namespace a2afft::detail::fft {
namespace {

using Complex = std::complex<double>;

TEST(Padding, padded_size_is_mpi4py_ffts_floor) {
  EXPECT_EQ(padded_size(64, 1.5), 96u);
  EXPECT_EQ(padded_size(5, 1.5), 7u);
  EXPECT_EQ(padded_size(7, 2), 14u);
  EXPECT_EQ(padded_size(9, 1), 9u);
}

TEST(Padding, modes_keep_their_frequencies) {
  const PaddedAxis even = padded_axis(6, 9, false);  // 0 1 2 | -3 -2 -1
  EXPECT_TRUE(even.nyquist);
  EXPECT_EQ(even.low(), 3u);
  const std::vector<std::size_t> even_at{0, 1, 2, 6, 7, 8};
  for (std::size_t k = 0; k < 6; ++k)
    EXPECT_EQ(even.padded_index(k), even_at[k]) << k;
  const PaddedAxis odd = padded_axis(5, 7, false);  // 0 1 2 | -2 -1
  EXPECT_FALSE(odd.nyquist);
  EXPECT_EQ(odd.low(), 3u);
  EXPECT_EQ(odd.padded_index(3), 5u);
  const PaddedAxis half = padded_axis(8, 12, true);  // r2c: modes 0..4 of 0..6
  EXPECT_EQ(half.modes, 5u);
  EXPECT_EQ(half.padded, 7u);
  EXPECT_TRUE(half.nyquist);
  EXPECT_EQ(half.padded_index(4), 4u);
  EXPECT_TRUE(padded_axis(8, 8, false).is_identity());
  EXPECT_FALSE(padded_axis(8, 8, false).nyquist);
}

// A plane resize of `planes` planes along axis 0, padding axes 1 and 2 (the second half for r2c).
PlaneResize resize_of(std::size_t planes, const PaddedAxis& y, const PaddedAxis& z,
                      std::size_t batch) {
  PlaneResize resize;
  resize.padded_shape = {planes, y.padded, z.padded};
  resize.modes_shape = {planes, y.modes, z.modes};
  resize.axes = {PaddedAxis{planes, planes}, y, z};
  resize.transformed = {false, true, true};
  resize.values_per_point = batch;
  return resize;
}

std::vector<Complex> numbered(std::size_t count) {
  std::vector<Complex> values(count);
  for (std::size_t i = 0; i < count; ++i)
    values[i] = {double(i + 1), 0.5 * double(i % 7)};
  return values;
}

std::size_t count_of(const Shape3& shape, std::size_t batch) {
  return shape[0] * shape[1] * shape[2] * batch;
}

const std::size_t kPlanes = 3;

struct Case {
  PaddedAxis y;
  PaddedAxis z;
  std::size_t batch;
};

const Case kCases[] = {
    {padded_axis(6, 9, false), padded_axis(5, 7, false), 1},  // even y, odd z
    {padded_axis(4, 8, false), padded_axis(8, 12, true), 2},  // r2c z with a Nyquist mode
    {padded_axis(5, 5, false), padded_axis(6, 9, false), 1},  // y transformed, not padded
    {padded_axis(7, 10, false), padded_axis(7, 7, false), 3},
};

// Backward then forward: each Nyquist mode is split and added back, every other one moved there
// and back; what lies between the modes on the padded side is zero.
TEST(Padding, truncating_a_padded_plane_gives_its_modes_back) {
  for (const Case& c : kCases) {
    const PlaneResize resize = resize_of(kPlanes, c.y, c.z, c.batch);
    std::vector<Complex> modes = numbered(count_of(resize.modes_shape, c.batch));
    if (c.z.half && c.z.nyquist) {
      // A real array's spectrum: at z's Nyquist mode, Hermitian along y (the other axis the
      // plane transforms), a[-k] = conj(a[k]).
      const std::vector<Complex> given = modes;
      const std::size_t ny = c.y.modes, nz = c.z.modes;
      for (std::size_t p = 0; p < kPlanes; ++p) {
        for (std::size_t y = 0; y < ny; ++y) {
          for (std::size_t f = 0; f < c.batch; ++f) {
            const auto at = [&](std::size_t row) {
              return ((p * ny + row) * nz + nz - 1) * c.batch + f;
            };
            modes[at(y)] = (given[at(y)] + std::conj(given[at((ny - y) % ny)])) / 2.0;
          }
        }
      }
    }
    std::vector<Complex> padded(count_of(resize.padded_shape, c.batch), Complex{99, 99});
    for (std::size_t plane = 0; plane < kPlanes; ++plane)
      pad_plane(modes.data(), padded.data(), resize, plane);
    // Every value written; z's gap between the positive and the negative modes all zeros (but
    // for +n/2, which holds half of an even n's Nyquist mode).
    const std::size_t gap = c.z.padded - c.z.modes;
    const std::size_t first_zero = c.z.low() + (c.z.nyquist && !c.z.half ? 1 : 0);
    for (std::size_t i = 0; i < padded.size(); ++i) {
      ASSERT_NE(padded[i], (Complex{99, 99})) << "value " << i << " never written";
      const std::size_t z = (i / c.batch) % c.z.padded;
      if (z >= first_zero && z < c.z.low() + gap) {
        ASSERT_EQ(padded[i], Complex{}) << "value " << i;
      }
    }
    std::vector<Complex> back(modes.size());
    for (std::size_t plane = 0; plane < kPlanes; ++plane)
      truncate_plane(padded.data(), back.data(), resize, plane);
    for (std::size_t i = 0; i < modes.size(); ++i)
      ASSERT_LT(std::abs(back[i] - modes[i]), 1e-12) << "value " << i;
  }
}

// The engine truncates in its work array (planes in increasing order) and pads there (planes in
// reverse): the same values as between two arrays.
TEST(Padding, in_place_equals_out_of_place) {
  for (const Case& c : kCases) {
    const PlaneResize resize = resize_of(kPlanes, c.y, c.z, c.batch);
    const std::size_t padded_count = count_of(resize.padded_shape, c.batch);
    const std::size_t modes_count = count_of(resize.modes_shape, c.batch);
    std::vector<Complex> source = numbered(padded_count);
    std::vector<Complex> apart(modes_count);
    std::vector<Complex> copy = source;
    for (std::size_t plane = 0; plane < kPlanes; ++plane)
      truncate_plane(copy.data(), apart.data(), resize, plane);
    std::vector<Complex> in_place = source;
    for (std::size_t plane = 0; plane < kPlanes; ++plane)
      truncate_plane(in_place.data(), in_place.data(), resize, plane);
    EXPECT_EQ(std::vector<Complex>(in_place.begin(), in_place.begin() + long(modes_count)), apart);

    std::vector<Complex> padded_apart(padded_count);
    for (std::size_t plane = 0; plane < kPlanes; ++plane)
      pad_plane(apart.data(), padded_apart.data(), resize, plane);
    std::vector<Complex> padded_in_place(padded_count);
    std::copy(apart.begin(), apart.end(), padded_in_place.begin());
    for (std::size_t plane = kPlanes; plane-- > 0;)
      pad_plane(padded_in_place.data(), padded_in_place.data(), resize, plane);
    EXPECT_EQ(padded_in_place, padded_apart);
  }
}

// Each stage holds the padded points of the axes it transforms and the modes of those
// transformed before: the input is a part of the padded grid, the output of the modes, and
// every transpose takes one stage's modes to the next stage's padded side.
TEST(PencilGeometry, padded_stages_pad_only_the_axes_they_transform) {
  const Shape3 modes{6, 5, 4};  // r2c's complex points along z
  const Shape3 padded{9, 7, 7};
  for (const ProcGrid grid : {ProcGrid{2, 3}, ProcGrid{3, 1}, ProcGrid{1, 2}, ProcGrid{1, 1}}) {
    std::size_t input = 0, output = 0;
    for (int rank = 0; rank < grid.rows * grid.columns; ++rank) {
      const PencilGeometry geometry(modes, grid, rank, PencilOutput::transposed, padded);
      SCOPED_TRACE(grid.to_string() + " rank " + std::to_string(rank));
      EXPECT_TRUE(geometry.padded());
      input += geometry.input_box().elements();
      output += geometry.output_box().elements();
      const PencilStage& s0 = geometry.stage(0);
      EXPECT_EQ(s0.box.extent[2], 7u);
      EXPECT_EQ(s0.spectral_box.extent[2], 4u);
      EXPECT_EQ(geometry.stage(1).box.extent[1], 7u);
      EXPECT_EQ(geometry.stage(1).spectral_box.extent[1], 5u);
      EXPECT_EQ(geometry.stage(2).box.extent[0], 9u);
      EXPECT_EQ(geometry.stage(2).spectral_box.extent[0], 6u);
      const auto stored = [](const PencilStage& stage, const BoxRange& box) {
        return stage.y_major ? Shape3{box.extent[1], box.extent[0], box.extent[2]} : box.extent;
      };
      if (geometry.has_row_transpose()) {
        EXPECT_EQ(geometry.row_transpose().from, s0.spectral_box.extent);
        EXPECT_EQ(geometry.row_transpose().to, geometry.stage(1).box.extent);
      }
      const PencilStage& before = geometry.stage(geometry.has_row_transpose() ? 1 : 0);
      EXPECT_EQ(geometry.column_transpose().from, before.spectral_box.extent);
      EXPECT_EQ(geometry.column_transpose().to, stored(geometry.stage(2), geometry.stage(2).box));
    }
    EXPECT_EQ(input, 9u * 7 * 7);
    EXPECT_EQ(output, 6u * 5 * 4);
  }
}

}  // namespace
}  // namespace a2afft::detail::fft
