#pragma once

// What every public plan checks before it builds anything, written once for Exchange, Fft3d and
// Fft1d (and the C API behind them): the communicator, that every rank passed the same
// arguments, and each call's arrays. Every check ends the same way on every rank, so no rank
// throws while another waits in a collective.

#include <mpi.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <a2afft/fft.hpp>
#include <a2afft/layout.hpp>

#include "timing/phase_timer.hpp"

namespace a2afft::library {

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

/// Checks one call's arrays on every rank: none may be null where it holds elements, and all
/// must be 16-byte aligned (FFTW's plans are made for that alignment). One MPI_Allreduce of an
/// int when all is well; otherwise every rank throws the lowest failing rank's UsageError.
void check_arrays(const Complex* in, std::size_t in_elements, const Complex* out,
                  std::size_t out_elements, std::string_view call, MPI_Comm comm);

/// The wisdom steps of planned_with_wisdom, naming the option `wisdom_file` in errors.
void import_wisdom(const std::string& path, MPI_Comm comm);
void export_wisdom(const std::string& path, MPI_Comm comm);

/// make(), the planning of an engine, between reading the wisdom file at `path` (when set) and
/// writing back what planning learned: what Fft3dOptions::wisdom_file and Fft1dOptions's mean.
/// Collective over `comm`.
template <typename Make>
auto planned_with_wisdom(const std::string& path, MPI_Comm comm, Make make) {
  if (!path.empty()) import_wisdom(path, comm);
  auto engine = make();
  if (!path.empty()) export_wisdom(path, comm);
  return engine;
}
/// The split of the last call an engine recorded in `timer` (cleared before the call).
FftTimes times_of(const PhaseTimer& timer);

}  // namespace a2afft::library
