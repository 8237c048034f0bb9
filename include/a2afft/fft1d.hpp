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

/// How an Fft1d is planned; every field has a working default.
struct Fft1dOptions {
  /// The all-to-all of the three transposes: `auto` or any backend spec (see `a2afft list`).
  std::string exchange = "auto";
  /// The factor N1 of N = N1 * N2; 0 chooses one near sqrt(N) that the ranks divide.
  std::size_t n1 = 0;
  Rigor rigor = Rigor::measure;
  Fft1dOutput output = Fft1dOutput::natural;
  /// FFTW wisdom read before and written after planning, as Fft3dOptions::wisdom_file.
  std::string wisdom_file;
  Scaling scaling = Scaling::none;
  /// The node layout the exchange sees; empty: the real machine (or A2AFFT_* variables).
  LayoutRequest layout;
  /// double or single: the arrays are Complex or ComplexFloat. (There is no `kind`: a real
  /// vector is passed as complex. An r2c of N reals as a c2c of N/2 complex numbers needs that
  /// transform's points k and N/2-k together, which live on different ranks: one more global
  /// exchange, so it would gain little over the c2c; FFTW-MPI has no 1D r2c either. See the
  /// README.)
  Precision precision = Precision::double_precision;
  /// Fields transformed together, >= 1, interleaved as in Fft3dOptions::batch (field fastest:
  /// value f of point i is element i * batch + f). Each transpose moves all fields in one
  /// exchange, so its latency is paid once, not per field.
  std::size_t batch = 1;
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
/// Planning happens in the constructor; forward() and backward() allocate and plan nothing.
/// Not thread-safe; destroy it before MPI_Finalize, in the same order on every rank.
class Fft1d {
 public:
  /// Collective over `comm`, with the same arguments on every rank. Throws UsageError (the
  /// same message on every rank) for N = 0, an N or N1 the ranks cannot split, a bad exchange
  /// spec, an unreadable wisdom file, or arguments that differ between ranks.
  Fft1d(MPI_Comm comm, std::size_t n, const Fft1dOptions& options = {});
  ~Fft1d();
  Fft1d(Fft1d&&) noexcept;
  Fft1d& operator=(Fft1d&&) noexcept;
  Fft1d(const Fft1d&) = delete;
  Fft1d& operator=(const Fft1d&) = delete;

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
  std::size_t length() const;
  std::size_t n1() const;
  std::size_t n2() const;
  Precision precision() const;
  std::size_t batch() const;
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

  /// Transforms `in` (local_elements()) into `out` (as many, in the output order). Out of place
  /// (`in` is only read) or in place (in == out); aligned as Fft3d::forward() says. Collective.
  /// The overload must match the plan's precision (double: this one); the other throws
  /// UsageError naming the one to call.
  void forward(const Complex* in, Complex* out);
  /// Transforms `in` (in the output order) into `out` (natural order), scaled as the options
  /// say.
  void backward(const Complex* in, Complex* out);
  /// Single precision.
  void forward(const ComplexFloat* in, ComplexFloat* out);
  void backward(const ComplexFloat* in, ComplexFloat* out);
  /// Whatever the precision; every rank holds points, so nullptr is an error, as null arrays
  /// are in the typed calls (the overload exists so that the call is not ambiguous).
  void forward(std::nullptr_t, std::nullptr_t);
  void backward(std::nullptr_t, std::nullptr_t);

  /// Bytes of the local input and output alike (and of an in-place array), in the plan's type.
  std::size_t local_bytes() const;
  /// forward() or backward() for callers that hold untyped memory (the C, Fortran and Python
  /// bindings), as Fft3d::execute(): `in` and `out` hold `in_bytes` and `out_bytes` of the
  /// plan's complex type; an array smaller than local_bytes() on any rank throws UsageError on
  /// every rank before anything is transformed.
  void execute(Direction direction, const void* in, std::size_t in_bytes, void* out,
               std::size_t out_bytes);

  /// Bytes of the plan's own arrays on this rank (the work array, the exchange's buffers).
  std::size_t workspace_bytes() const;
  /// What forward() (or backward()) reads and writes in memory and computes on this rank, counted
  /// from the schedule the plan runs; see TransformTraffic. Local, no communication.
  TransformTraffic traffic(Direction direction = Direction::forward) const;
  /// `sixstep(N1=..,N2=..[,scrambled]): <Exchange::describe()>`.
  std::string describe() const;
  /// The split of the last forward() or backward() on this rank.
  FftTimes last_times() const;

 private:
  struct Plan;
  template <typename In, typename Out>
  void run(bool forward, const In* in, Out* out, std::string size_failure = {});
  std::unique_ptr<Plan> plan_;
};

}  // namespace a2afft
