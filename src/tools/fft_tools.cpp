// The FFT tools (include/a2afft/tools/fft_tools.hpp) over the engines: FFTW's r2r kinds, shapes
// as text and wisdom. The parsers are parsers.cpp; the test signal and gather, a2afft_checks.

#include <a2afft/tools/fft_tools.hpp>

#include <fftw3.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "axis_kinds.hpp"
#include "fftw_plan.hpp"
#include "geometry.hpp"

namespace a2afft {

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

void plan_fftw_with_threads(Precision precision, int threads, const std::function<void()>& plan) {
  if (precision == Precision::single_precision) {
    detail::fft::with_planning_threads<float>(threads, plan);
  } else {
    detail::fft::with_planning_threads<double>(threads, plan);
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
  // names solvers this one may lack. So do FFTW-MPI's, registered in builds that have it: a
  // build without it (MPICH's here) refused the file of one with it, and the reverse.
  std::string version = fftw_version;
  std::replace(version.begin(), version.end(), '/', '-');
  return directory + "/" + host + "-" + version + std::string(detail::fft::solver_set_suffix()) +
         ".wisdom";
}

}  // namespace a2afft
