#pragma once

// What every public plan checks before it builds anything, written once for Exchange, Fft3d and
// Fft1d (and the C API behind them): the communicator, that every rank passed the same
// arguments, and each call's arrays. Every check ends the same way on every rank, so no rank
// throws while another waits in a collective.

#include <mpi.h>

#include <complex>
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <a2afft/fft.hpp>
#include <a2afft/layout.hpp>

#include "timing/phase_timer.hpp"

namespace a2afft::detail::library {

/// Throws UsageError, starting with `who`, unless MPI runs and `comm` is an intracommunicator.
/// Needs no other rank: every rank of a bad communicator gets the same answer.
void check_communicator(MPI_Comm comm, std::string_view who);

/// One argument of a collective constructor, as text: {"shape", "64x64x64"}.
using NamedArgument = std::pair<std::string, std::string>;

/// Throws the same UsageError on every rank unless every rank passed rank 0's `arguments`; the
/// message names the first argument that differs and the lowest rank that differs. Collective.
void check_same_on_every_rank(const std::vector<NamedArgument>& arguments, std::string_view who,
                              MPI_Comm comm);

/// The layout request as one argument, for check_same_on_every_rank.
NamedArgument layout_argument(const LayoutRequest& layout);

/// Throws UsageError, starting with `who`, unless 0 <= value < count: a C caller can pass any
/// int where C++ has an enum. `valid` lists the valid values for the message.
void check_enum(int value, int count, std::string_view name, std::string_view valid,
                std::string_view who);

/// check_enum for the options every FFT has.
void check_rigor_and_scaling(Rigor rigor, Scaling scaling, std::string_view who);

/// The options every FFT has for what it transforms: a kind and a precision among the
/// enumerators (a C caller can pass any int) and a batch of at least one field.
void check_kind_precision_batch(Kind kind, Precision precision, std::size_t batch,
                                std::string_view who);

/// Throws UsageError, starting with `who`, unless `threads` >= 1 and, for threads > 1, MPI was
/// initialized with at least MPI_THREAD_FUNNELED on every rank of `comm` (the message names the
/// level provided and the level needed). Collective: every rank throws alike.
void check_threads(int threads, MPI_Comm comm, std::string_view who);

/// Which arrays of an overload are real: {in, out}.
using RealSides = std::pair<bool, bool>;
/// The real sides a plan of `kind` takes `forward` (or backward): none for c2c, the input
/// forward and the output backward for r2c, both for r2r.
RealSides real_sides(Kind kind, bool forward);

/// Throws UsageError unless a forward/backward overload of `precision` whose arrays are real as
/// `sides` says fits a plan of `kind` and `expected_precision`; the message names the overload
/// to call. `call` is the overload called, e.g. "Fft3d::forward(const float*, ...)".
void check_overload(Precision expected_precision, Kind kind, Precision precision, RealSides sides,
                    bool forward, std::string_view who, std::string_view call);
/// The Precision of `Real`.
template <typename Real>
constexpr Precision precision_of =
    std::is_same_v<Real, float> ? Precision::single_precision : Precision::double_precision;

/// The Real of an overload's arrays: double for Complex and double, float for ComplexFloat
/// and float.
template <typename In, typename Out>
using real_of = std::conditional_t<std::is_same_v<In, Complex> || std::is_same_v<Out, Complex> ||
                                       std::is_same_v<In, double> || std::is_same_v<Out, double>,
                                   double, float>;
/// Which of an overload's arrays are real.
template <typename In, typename Out>
constexpr RealSides real_sides_of{std::is_floating_point_v<In>, std::is_floating_point_v<Out>};

/// "(const double*, Complex*)": an overload's arguments, for messages.
template <typename T>
constexpr const char* type_name() {
  if constexpr (std::is_same_v<T, double>) return "double";
  if constexpr (std::is_same_v<T, float>) return "float";
  if constexpr (std::is_same_v<T, Complex>) return "Complex";
  if constexpr (std::is_same_v<T, ComplexFloat>) return "ComplexFloat";
  return "?";
}
template <typename In, typename Out>
std::string signature() {
  return std::string("(const ") + type_name<In>() + "*, " + type_name<Out>() + "*)";
}

/// check_overload for `who`'s overload forward or backward(const In*, Out*) on a plan of
/// `kind` and `precision`; returns the call's name, e.g. "Fft3d::forward", for later messages.
template <typename In, typename Out>
std::string checked_call(Precision precision, Kind kind, bool forward, std::string_view who) {
  const std::string call = std::string(who) + "::" + (forward ? "forward" : "backward");
  check_overload(precision, kind, precision_of<real_of<In, Out>>, real_sides_of<In, Out>, forward,
                 who, call + signature<In, Out>());
  return call;
}

/// Checks one call's arrays on every rank: none may be null where it holds elements, and all
/// must be 16-byte aligned (FFTW's plans are made for that alignment). One MPI_Allreduce of an
/// int when all is well; otherwise every rank throws the lowest failing rank's UsageError.
/// `failure`: a problem found before, on this rank (e.g. an array too small), agreed the same way.
void check_arrays(const void* in, std::size_t in_elements, const void* out,
                  std::size_t out_elements, std::string_view call, MPI_Comm comm,
                  std::string failure = {});

/// Bytes of one complex number, and of one input scalar (real for r2c), of `precision`.
constexpr std::size_t complex_bytes(Precision precision) {
  return precision == Precision::single_precision ? sizeof(ComplexFloat) : sizeof(Complex);
}
constexpr std::size_t input_scalar_bytes(Kind kind, Precision precision) {
  return kind == Kind::c2c ? complex_bytes(precision) : complex_bytes(precision) / 2;
}
constexpr std::size_t output_scalar_bytes(Kind kind, Precision precision) {
  return kind == Kind::r2r ? complex_bytes(precision) / 2 : complex_bytes(precision);
}

/// Why arrays of `in_bytes` and `out_bytes` cannot serve a call that reads `in_needed` and
/// writes `out_needed` bytes (in place, in == out: `in_place_needed`), or "" when they can.
std::string size_failure(const void* in, std::size_t in_bytes, std::size_t in_needed,
                         const void* out, std::size_t out_bytes, std::size_t out_needed,
                         std::size_t in_place_needed);

/// f(in, out) with the arrays cast to the types of a `kind`, `precision` transform in the
/// `forward` direction or back: the typed calls behind a type-erased execute().
template <typename F>
void dispatch(Kind kind, Precision precision, bool forward, const void* in, void* out, F&& f) {
  const auto typed = [&](auto real) {
    using Real = decltype(real);
    using C = std::complex<Real>;
    if (kind == Kind::c2c) {
      f(static_cast<const C*>(in), static_cast<C*>(out));
    } else if (kind == Kind::r2r) {
      f(static_cast<const Real*>(in), static_cast<Real*>(out));
    } else if (forward) {
      f(static_cast<const Real*>(in), static_cast<C*>(out));
    } else {
      f(static_cast<const C*>(in), static_cast<Real*>(out));
    }
  };
  if (precision == Precision::single_precision) {
    typed(float{});
  } else {
    typed(double{});
  }
}

/// The wisdom steps of planned_with_wisdom for `Real`'s FFTW, naming the option `wisdom_file`.
template <typename Real = double>
void import_wisdom(const std::string& path, MPI_Comm comm);
template <typename Real = double>
void export_wisdom(const std::string& path, MPI_Comm comm);

/// make(), the planning of an engine of precision `Real`, between reading the wisdom file at
/// `path` (when set) and writing back what planning learned: what Fft3dOptions::wisdom_file and
/// Fft1dOptions's mean. Collective over `comm`.
template <typename Real = double, typename Make>
auto planned_with_wisdom(const std::string& path, MPI_Comm comm, Make make) {
  if (!path.empty()) import_wisdom<Real>(path, comm);
  auto engine = make();
  if (!path.empty()) export_wisdom<Real>(path, comm);
  return engine;
}
/// The split of the last call an engine recorded in `timer` (cleared before the call).
FftTimes times_of(const PhaseTimer& timer);

}  // namespace a2afft::detail::library
