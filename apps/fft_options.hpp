#pragma once

// The options every FFT benchmark command (fft3d, fft1d) has, and the engines they name.

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "report/reporter.hpp"

// A2AFFT_HAVE_FFTW_MPI: whether this build has the fftw-mpi engine (FFTW-MPI built for this
// build's MPI); A2AFFT_FFTW_MPI_WHY: why not (cmake/a2afft_fftw_mpi.cmake, apps/CMakeLists.txt).
#if !defined(A2AFFT_HAVE_FFTW_MPI) || !defined(A2AFFT_FFTW_MPI_WHY)
#error "A2AFFT_HAVE_FFTW_MPI and A2AFFT_FFTW_MPI_WHY come with a2afft_commands"
#endif

namespace a2afft::commands {

struct FftRunOptions {
  // Both engines by default; a2afft alone where the build has no FFTW-MPI.
#if A2AFFT_HAVE_FFTW_MPI
  std::vector<std::string> engines{"a2afft", "fftw-mpi"};
#else
  std::vector<std::string> engines{"a2afft"};
#endif
  std::string rigor = "estimate";
  std::string order = "auto";
  int iterations = 10;
  int warmup = 2;
  bool backward = false;
  double tolerance = 1e-12;
  std::string json_path;
  std::string csv_path;
  std::string wisdom_path;
  void add_to(CLI::App& command);
  report::ReportFiles report_files() const {
    return {json_path, csv_path};
  }
};

/// Which engines run: throws UsageError for an unknown one.
struct Engines {
  bool ours = false;
  bool fftw_mpi = false;
};
Engines parse_engines(const std::vector<std::string>& engines);

}  // namespace a2afft::commands
