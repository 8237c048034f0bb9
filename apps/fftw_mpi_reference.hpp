#pragma once

// FFTW's own distributed transforms on the benchmark's problems, so one run shows a2afft and
// FFTW-MPI side by side.

#include <fftw3-mpi.h>
#include <mpi.h>

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "fft_candidate.hpp"

namespace a2afft::commands {

/// FFTW-MPI's 3D transform of `transform`'s kind, precision and fields: fftw(f)_mpi_plan_many_dft
/// (c2c) or _dft_r2c / _dft_c2r (r2c; real rows padded to 2(n2/2+1) as FFTW-MPI needs), slabs
/// along dim 0, in place, howmany = the batch (interleaved, as a2afft's). With
/// `transposed_output` the forward plan uses FFTW_MPI_TRANSPOSED_OUT and the backward
/// FFTW_MPI_TRANSPOSED_IN: the output is then stored [local n1][n0][n2], dims 0 and 1 swapped.
/// The whole transform counts as `compute`: FFTW-MPI's transposes cannot be timed apart.
/// `two_d`: shape is {1, n0, n1}, planned as FFTW-MPI's 2D transform of n0 x n1 (rank 2).
/// `threads`: FFTW's threads per rank (fftw_plan_with_nthreads; "Combining MPI and Threads" in
/// FFTW's manual), the run's --threads, so that it stands beside a2afft's threaded rows.
std::unique_ptr<FftCandidate> make_fftw_mpi_3d(MPI_Comm comm,
                                               const std::array<std::size_t, 3>& shape, Rigor rigor,
                                               bool transposed_output,
                                               const BenchmarkTransform& transform, bool two_d,
                                               Arrays arrays, int threads);

/// Why FFTW-MPI is not run on a 3D array of `shape` (a 2D one of shape[1] x shape[2] when
/// `two_d`) over `ranks` ranks, or "" where it is: FFTW-MPI 3.3.10 with fewer planes than ranks
/// along the two dimensions it distributes (n0, and n1 where its transposes split the array)
/// fails to plan (1x1x1 c2c on 2 ranks) or corrupts its heap while planning (1x1x1 with natural
/// output on 2 ranks, 8x1x1 on 4), so such cases are refused before FFTW-MPI sees them.
std::string fftw_mpi_refusal(const std::array<std::size_t, 3>& shape, int ranks, bool two_d);

/// The fftw-mpi engine as one maker of the run. A case FFTW-MPI cannot run is `# not run: ...;
/// the a2afft rows run without it` where a2afft's rows run too (`beside_a2afft`), and the run's
/// one error (exit 2) where fftw-mpi was asked for alone.
CandidateMaker fftw_mpi_maker(bool beside_a2afft, MakeCandidate make);

/// FFTW-MPI's 1D transform of `transform`'s precision and fields (c2c):
/// fftw(f)_mpi_plan_many_dft of rank 1, howmany = the batch (interleaved), natural order on both
/// sides, out of place: forward reads the loaded array and writes a second, backward the reverse.
std::unique_ptr<FftCandidate> make_fftw_mpi_1d(MPI_Comm comm, std::size_t n, Rigor rigor,
                                               const BenchmarkTransform& transform, Arrays arrays,
                                               int threads);

}  // namespace a2afft::commands
