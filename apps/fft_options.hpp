#pragma once

// The options every FFT benchmark command (fft3d, fft1d) has, and the engines they name.

#include <CLI/CLI.hpp>

#include <array>
#include <string>
#include <vector>

#include "fft_candidate.hpp"
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
  // FFTW_MEASURE: ESTIMATE's plans ran 6.2x slower at 256^3 on 2 ranks (issue 43), and the
  // wisdom cache pays the measuring once per shape and machine.
  std::string rigor = "measure";
  std::string order = "auto";
  int iterations = 10;
  int warmup = 2;
  bool backward = false;
  bool roofline = false;  // measure memcpy and FFTW's in-cache rate first; bound every row
  std::string arrays = "huge-pages";  // every engine's arrays: huge-pages or plain
  double tolerance = 0;               // 0: tolerance_for() the precision
  /// The largest relative error that passes: --tolerance, or about 4500 epsilon of the
  /// precision (1e-12 for double, 5e-4 for float, as heFFTe's checks allow).
  double tolerance_for(Precision precision) const {
    if (tolerance > 0) return tolerance;
    return precision == Precision::single_precision ? 5e-4 : 1e-12;
  }
  std::string json_path;
  std::string csv_path;
  std::string wisdom_path = "cache";  // cache, none, or a file
  // --threads: the a2afft rows' threads per rank (PlanOptions::threads): a count, a list of
  // counts (a row set each) or auto (timed_threads); empty: OMP_NUM_THREADS (its first number),
  // else 1.
  std::string threads;
  void add_to(CLI::App& command);
  /// --threads as distinct counts >= 1, or {timed_threads} for auto, or its default; throws
  /// UsageError naming --threads (or OMP_NUM_THREADS, where the default came from) and what is
  /// valid.
  std::vector<int> thread_counts() const;
  /// Whether the run asks for anything but one thread per rank (then rows name their split).
  bool names_threads() const {
    return thread_counts() != std::vector<int>{1};
  }
  report::ReportFiles report_files() const {
    return {json_path, csv_path};
  }
};

/// fft2d's --size: `n` (a square) or `n0xn1`, as the 3D shape {1, n0, n1}; errors name the 2D
/// text.
std::array<std::size_t, 3> parse_shape_2d(const std::string& text);
/// --kind (c2c or r2c), into `kind`.
void add_kind_option(CLI::App& command, std::string& kind);
/// --precision and --batch, into the given string and count.
void add_transform_options(CLI::App& command, std::string& precision, std::size_t& batch);
/// The transform they name; throws UsageError naming a bad value and the valid ones.
/// --transforms (what each axis does, see a2afft::AxisKind), into `transforms`.
void add_axes_option(CLI::App& command, std::string& transforms);
/// --padding (the padded grid's factor per axis, see a2afft::PlanOptions::padding).
void add_padding_option(CLI::App& command, std::string& padding);
/// The transform of --kind, --precision, --batch, --transforms (empty: the kind's defaults) and
/// --padding (empty: none) on an array of `sizes` (the axes --transforms and --padding name);
/// UsageError names the option.
BenchmarkTransform parse_transform(const std::string& kind, const std::string& precision,
                                   std::size_t batch, const std::string& transforms = "",
                                   const std::vector<std::size_t>& sizes = {},
                                   const std::string& padding = "");
/// --padding's factors for an array of `axes` axes: one factor for every axis, or one per axis;
/// each a number >= 1 (`axes` 0: the numbers only). UsageError names the option.
std::vector<double> parse_padding(const std::string& text, std::size_t axes);

/// "2 ranks x 1 thread": how a run splits the cores it uses; "2 ranks x timed threads" for
/// timed_threads.
std::string split_text(int ranks, int threads);
/// The same for a run's counts: "2 ranks x 1, 2 threads".
std::string split_text(int ranks, const std::vector<int>& counts);
/// For the header: "" unless this rank may run on fewer cores than the most of `counts` (its
/// affinity mask), then a note saying so and how to bind the run.
std::string binding_note(const std::vector<int>& counts);
/// The FFTW-MPI reference rows' counts for the a2afft rows' `counts`: the same counts, and for
/// timed_threads the counts a2afft times (timed_thread_counts). Collective.
std::vector<int> reference_thread_counts(const std::vector<int>& counts, MPI_Comm comm);

/// Which engines run: throws UsageError for an unknown one.
struct Engines {
  bool ours = false;
  bool fftw_mpi = false;
  bool fftw_serial = false;  // FFTW's serial plan, on one rank (fft3d, fft2d)
};
Engines parse_engines(const std::vector<std::string>& engines);

}  // namespace a2afft::commands
