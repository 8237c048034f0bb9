// The FFT tools (include/a2afft/tools/fft_tools.hpp): the engines' own parsers, wisdom,
// test signal and gather, on public types.

#include <a2afft/tools/fft_tools.hpp>

#include <fftw3.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "axis_kinds.hpp"
#include "fftw_plan.hpp"
#include "gather.hpp"
#include "geometry.hpp"
#include "six_step_geometry.hpp"
#include "test_signal.hpp"

namespace a2afft {

namespace {

detail::fft::Box3 internal_box(const Box3& box) {
  return {box.lower, box.size};
}

bool row_major(const Box3& box) {
  return box.order == std::array<int, 3>{0, 1, 2};
}

// Calls visit(k, i) for every element of `box`: k is its row-major position, i its position in
// the box's own order.
template <typename Visit>
void for_each_element(const Box3& box, Visit visit) {
  std::size_t k = 0;
  for (std::size_t i = 0; i < box.size[0]; ++i)
    for (std::size_t j = 0; j < box.size[1]; ++j)
      for (std::size_t l = 0; l < box.size[2]; ++l)
        visit(k++, box.local_index({box.lower[0] + i, box.lower[1] + j, box.lower[2] + l}));
}

}  // namespace

std::array<std::size_t, 3> parse_shape(std::string_view text, std::string_view option) {
  return detail::fft::parse_shape(text, option);
}

std::array<int, 2> parse_grid(std::string_view text, int ranks, std::string_view option) {
  const detail::fft::ProcGrid grid = detail::fft::parse_grid(text, ranks, option);
  return {grid.rows, grid.columns};
}

std::size_t parse_length(std::string_view text, std::string_view option) {
  return detail::fft::parse_length(text, option);
}

Rigor parse_rigor(std::string_view text, std::string_view option) {
  return detail::fft::parse_rigor(text, option);
}

int fftw_r2r_kind_of(AxisKind axis, bool backward) {
  return detail::fft::fftw_kind(axis, backward);
}

std::string shape_to_string(const std::array<std::size_t, 3>& shape) {
  return detail::fft::shape_to_string(shape);
}

void import_fftw_wisdom(const std::string& path, MPI_Comm comm) {
  detail::fft::import_wisdom(path, comm);
}

void export_fftw_wisdom(const std::string& path, MPI_Comm comm) {
  detail::fft::export_wisdom(path, comm);
}

bool import_fftw_wisdom(const std::string& path, MPI_Comm comm, Precision precision,
                        std::string_view option) {
  return precision == Precision::single_precision
             ? detail::fft::import_wisdom<float>(path, comm, option)
             : detail::fft::import_wisdom<double>(path, comm, option);
}

void export_fftw_wisdom(const std::string& path, MPI_Comm comm, Precision precision,
                        std::string_view option) {
  if (precision == Precision::single_precision) {
    detail::fft::export_wisdom<float>(path, comm, option);
  } else {
    detail::fft::export_wisdom<double>(path, comm, option);
  }
}

std::string wisdom_cache_file() {
  const auto variable = [](const char* name) {
    const char* value = std::getenv(name);
    return std::string(value != nullptr ? value : "");
  };
  std::string directory = variable("A2AFFT_WISDOM_DIR");
  if (directory.empty() && !variable("XDG_CACHE_HOME").empty())
    directory = variable("XDG_CACHE_HOME") + "/a2afft";
  if (directory.empty() && !variable("HOME").empty())
    directory = variable("HOME") + "/.cache/a2afft";
  if (directory.empty()) return {};
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) std::snprintf(host, sizeof host, "%s", "host");
  // FFTW's version names its codelets too (fftw-3.3.10-sse2-avx): wisdom from another build
  // names solvers this one may lack.
  std::string version = fftw_version;
  std::replace(version.begin(), version.end(), '/', '-');
  return directory + "/" + host + "-" + version + ".wisdom";
}

Complex test_signal(std::size_t global_index, std::uint64_t salt) {
  return detail::fft::test_signal(global_index, salt);
}

void fill_test_signal(Complex* local, const Box3& box, const std::array<std::size_t, 3>& shape,
                      std::uint64_t salt) {
  if (row_major(box)) {
    detail::fft::fill_test_signal(local, internal_box(box), shape, salt);
    return;
  }
  std::vector<Complex> natural(box.elements());
  detail::fft::fill_test_signal(natural.data(), internal_box(box), shape, salt);
  for_each_element(box, [&](std::size_t k, std::size_t i) { local[i] = natural[k]; });
}

std::vector<Complex> gather_global(const Complex* local, const Box3& box,
                                   const std::array<std::size_t, 3>& shape, MPI_Comm comm) {
  if (row_major(box)) return detail::fft::gather_global(local, internal_box(box), shape, comm);
  std::vector<Complex> natural(box.elements());  // the box row-major, then gathered
  for_each_element(box, [&](std::size_t k, std::size_t i) { natural[k] = local[i]; });
  return detail::fft::gather_global(natural.data(), internal_box(box), shape, comm);
}

double relative_difference(const std::vector<Complex>& got, const std::vector<Complex>& reference,
                           MPI_Comm comm) {
  return detail::fft::relative_difference(got, reference, comm);
}

}  // namespace a2afft
