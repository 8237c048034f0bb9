#pragma once

// What programs around the FFTs need beside the plans: sizes parsed as users write them, FFTW
// wisdom shared by all ranks, and the tools to check a distributed result (a reproducible
// input, the whole array gathered on rank 0, a relative error). The a2afft command's benchmarks
// are built on them.

#include <mpi.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <a2afft/error.hpp>
#include <a2afft/fft.hpp>

namespace a2afft {

// Each parser's errors name the text as `option=text`: pass your own name for the value (a
// command passes its flag, e.g. "--size"); the default is the value's name in words.

/// `128` (a cube) or `64x96x80`; throws UsageError naming the text for zero, garbled or
/// overflowing sizes.
std::array<std::size_t, 3> parse_shape(std::string_view text, std::string_view option = "shape");
/// `2x3` as {p0, p1}; throws UsageError unless both are whole numbers >= 1 whose product is
/// `ranks` (the message suggests Fft3d::default_grid(ranks)).
std::array<int, 2> parse_grid(std::string_view text, int ranks, std::string_view option = "grid");
/// A 1D length: `1048576`, `2^20` or a product such as `2^4*3^2*5`; throws UsageError naming
/// `option` for zero, garbled or overflowing (> 2^40) lengths.
std::size_t parse_length(std::string_view text, std::string_view option = "length");
/// `estimate`, `measure` or `patient`; throws UsageError listing them.
Rigor parse_rigor(std::string_view text, std::string_view option = "rigor");
/// The FFTW r2r kind (an fftw_r2r_kind: FFTW_REDFT10, ...) that a2afft runs for a cosine or sine
/// `axis` forward, or backward (its inverse); for references that call FFTW themselves.
int fftw_r2r_kind_of(AxisKind axis, bool backward);
/// `64x96x80`.
std::string shape_to_string(const std::array<std::size_t, 3>& shape);

/// FFTW wisdom for every plan made afterwards in this process (a2afft's and FFTW-MPI's alike):
/// rank 0 reads `path`, if it exists, and broadcasts it. Collective over `comm`. Throws
/// UsageError if the file exists but is not wisdom. (Fft3dOptions::wisdom_file does this and
/// export_fftw_wisdom for one plan.)
void import_fftw_wisdom(const std::string& path, MPI_Comm comm);
/// Gathers every rank's wisdom and rank 0 writes it to `path`. Collective; throws UsageError
/// if the file cannot be written.
void export_fftw_wisdom(const std::string& path, MPI_Comm comm);
/// The same for the FFTW of `precision`: float's wisdom lives in `path.fftwf`, as
/// PlanOptions::wisdom_file keeps it. The import returns whether rank 0 read a file. Errors name
/// the file as `option`.
bool import_fftw_wisdom(const std::string& path, MPI_Comm comm, Precision precision,
                        std::string_view option = "wisdom file");
void export_fftw_wisdom(const std::string& path, MPI_Comm comm, Precision precision,
                        std::string_view option = "wisdom file");
/// Runs `plan`, which makes FFTW or FFTW-MPI plans of `precision`, with FFTW's planner set to
/// `threads` threads (fftw_plan_with_nthreads), under the lock a2afft's own planning takes, and
/// the program's count restored after; FFTW's threads (and FFTW-MPI where built) are readied
/// first. The command's fftw-mpi rows plan with the run's threads through it.
void plan_fftw_with_threads(Precision precision, int threads, const std::function<void()>& plan);

/// This machine's wisdom cache, where the a2afft command keeps FFTW's measured plans between
/// runs: the file `HOST-FFTWVERSION.wisdom` (e.g. `node7-fftw-3.3.10-sse2-avx.wisdom`, with
/// `-mpi` before `.wisdom` in a build with FFTW-MPI, whose solvers other builds cannot read;
/// float's beside it with `.fftwf` added) in $A2AFFT_WISDOM_DIR, else $XDG_CACHE_HOME/a2afft, else
/// $HOME/.cache/a2afft. Empty when none of the three is set. Creates nothing.
std::string wisdom_cache_file();

/// A reproducible input: a pseudo-random value in [-1, 1) x [-1, 1) for each global (row-major)
/// index and `salt`, so every plan, grid and number of ranks sees the same global array.
Complex test_signal(std::size_t global_index, std::uint64_t salt = 0);
/// Fills `local`, stored as `box` says, with test_signal over a global array of `shape`.
void fill_test_signal(Complex* local, const Box3& box, const std::array<std::size_t, 3>& shape,
                      std::uint64_t salt = 0);
/// Collective: rank 0 receives every rank's `local`, stored as its `box` says (any order), and
/// returns the whole global array of `shape`, row-major; the other ranks get an empty vector.
/// For checks, never on a timed path.
std::vector<Complex> gather_global(const Complex* local, const Box3& box,
                                   const std::array<std::size_t, 3>& shape, MPI_Comm comm);
/// max |got - reference| / max |reference| over two gathered arrays on rank 0 (where both are
/// whole), shared with every rank of `comm`. Collective; 0 when `reference` is empty.
double relative_difference(const std::vector<Complex>& got, const std::vector<Complex>& reference,
                           MPI_Comm comm);

}  // namespace a2afft
