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

/// The order of the output of a 1D FFT.
enum class Fft1dOutput {
  /// X[k] in order: rank r holds X[r N/P .. (r+1) N/P), like its input.
  natural,
  /// One transpose fewer (faster): rank r's local element i * N2 + k2 (i < N1/P, k2 < N2)
  /// holds X[(r N1/P + i) + N1 k2]. backward() takes that order back. See output_index().
  scrambled,
};

/// How an Fft1d is planned: the options every FFT shares (PlanOptions; `exchange` runs the
/// three transposes) and the 1D plan's own. The kind is c2c only: a real vector is passed as
/// complex. (An r2c of N reals as a c2c of N/2 complex numbers needs that transform's points k
/// and N/2-k together, which live on different ranks: one more global exchange, so it would
/// gain little over the c2c; FFTW-MPI has no 1D r2c either.)
struct Fft1dOptions : PlanOptions {
  /// The factor N1 of N = N1 * N2; 0 chooses one near sqrt(N) that the ranks divide.
  std::size_t n1 = 0;
  /// The order of forward()'s output (Fft1dOutput).
  Fft1dOutput output = Fft1dOutput::natural;
};

/// A distributed 1D complex-to-complex FFT of length N, double or float, of one field or a
/// batch, by the six-step algorithm (N = N1 x N2 as a matrix: three global transposes, N2 FFTs
/// of length N1, twiddles, N1 FFTs of length N2), as fftw_mpi_plan_dft_1d and HPCC's MPIFFT. The
/// P ranks must divide N1 and N2 (so P^2 divides N). Every rank holds N/P consecutive points of
/// the input: x[input_offset() .. input_offset() + local_points()), each point `batch` complex
/// numbers (local_elements() in all).
///
///     a2afft::Fft1d fft(MPI_COMM_WORLD, std::size_t{1} << 24);
///     std::vector<a2afft::Complex> x(fft.local_elements());
///     fft.forward(x.data(), x.data());
///
/// forward(), backward() and execute() (DistributedFft) take local_elements() complex numbers
/// in natural order to as many in the output order and back; in place (in == out) or not.
/// describe() says `sixstep(N1=..,N2=..[,scrambled]): <Exchange::describe()>`. Planning happens
/// in the constructor; forward() and backward() allocate and plan nothing. Not thread-safe;
/// destroy it before MPI_Finalize, in the same order on every rank.
class Fft1d : public DistributedFft {
 public:
  /// Collective over `comm`, with the same arguments on every rank. Throws UsageError (the
  /// same message on every rank) for N = 0, an N or N1 the ranks cannot split, a bad exchange
  /// spec, an unreadable wisdom file, or arguments that differ between ranks.
  Fft1d(MPI_Comm comm, std::size_t n, const Fft1dOptions& options = {});
  /// Collective, as construction: frees the plan's communicators, windows and arrays.
  ~Fft1d() override;
  /// Plans move; a moved-from plan may only be destroyed or assigned to.
  /// @{
  Fft1d(Fft1d&&) noexcept;
  Fft1d& operator=(Fft1d&&) noexcept;
  /// @}

  /// {N1, N2} a plan of length `n` on `ranks` ranks would use (`n1` = 0 chooses); throws
  /// UsageError, naming N, P and valid alternatives, where the constructor would. Pure.
  static std::array<std::size_t, 2> split(std::size_t n, int ranks, std::size_t n1 = 0);
  /// The block bytes of the exchange of a plan of length `n` on `ranks` ranks: N/P^2 elements.
  static std::size_t exchange_block_bytes(std::size_t n, int ranks);
  /// The same for a plan of `precision` and `batch` fields: N/P^2 points of batch complex
  /// numbers of the precision.
  static std::size_t exchange_block_bytes(std::size_t n, int ranks, Precision precision,
                                          std::size_t batch);

  /// N, and its factors N1 x N2.
  /// @{
  std::size_t length() const;
  std::size_t n1() const;
  std::size_t n2() const;
  /// @}
  /// N/P: the points of this rank's input and output.
  std::size_t local_points() const;
  /// N/P times the batch: the complex numbers of this rank's input and output (and of an
  /// in-place array).
  std::size_t local_elements() const;
  /// r N/P: the global index of this rank's first input point.
  std::size_t input_offset() const;
  /// The global index k of X[k] that local output point i holds (input_offset() + i when the
  /// output is natural; see Fft1dOutput::scrambled); its fields are elements i * batch + f.
  std::size_t output_index(std::size_t i) const;

  /// Bytes of the local input and output alike (and of an in-place array), in the plan's type.
  std::size_t local_bytes() const;

 private:
  struct Layout;  // the six-step geometry that places the points
  std::unique_ptr<Layout> layout_;
};

}  // namespace a2afft
