#include "collective_checks.hpp"

#include <algorithm>
#include <cstdint>

#include "error.hpp"
#include "fftw_plan.hpp"
#include "mpi/comm.hpp"

namespace a2afft::detail::library {

void check_communicator(MPI_Comm comm, std::string_view who) {
  const std::string prefix = std::string(who) + ": ";
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized) {
    throw UsageError(prefix + "MPI is not running; call it between MPI_Init and MPI_Finalize");
  }
  if (comm == MPI_COMM_NULL) {
    throw UsageError(prefix + "comm is MPI_COMM_NULL; it needs an intracommunicator");
  }
  int is_inter = 0;
  mpi::check(MPI_Comm_test_inter(comm, &is_inter), "MPI_Comm_test_inter");
  if (is_inter) {
    throw UsageError(prefix + "comm is an inter-communicator; it needs an intracommunicator");
  }
}

void check_same_on_every_rank(const std::vector<NamedArgument>& arguments, std::string_view who,
                              MPI_Comm comm) {
  // One broadcast of all values, joined by a byte no value holds twice in a row.
  std::string mine;
  for (const auto& [name, value] : arguments)
    mine += value + '\0';
  const std::string first = mpi::broadcast(mine, 0, comm);
  std::string failure;
  if (mine != first) {
    std::size_t at = 0;
    for (const auto& [name, value] : arguments) {
      const std::size_t end = first.find('\0', at);
      const std::string theirs = first.substr(at, end == std::string::npos ? 0 : end - at);
      if (theirs != value) {
        int rank = 0;
        MPI_Comm_rank(comm, &rank);
        failure = std::string(who) + ": " + name + " '" + value + "' on rank " +
                  std::to_string(rank) + " differs from rank 0's '" + theirs +
                  "'; every rank must pass the same " + name;
        break;
      }
      at = end == std::string::npos ? first.size() : end + 1;
    }
  }
  if (const mpi::RankMessage agreed = mpi::agreed_message(failure, comm); !agreed.empty()) {
    throw UsageError(agreed.text);
  }
}

void check_enum(int value, int count, std::string_view name, std::string_view valid,
                std::string_view who) {
  if (value < 0 || value >= count) {
    throw UsageError(std::string(who) + ": " + std::string(name) + "=" + std::to_string(value) +
                     " is not valid; expected " + std::string(valid));
  }
}

NamedArgument layout_argument(const LayoutRequest& layout) {
  std::string text;
  for (const auto* setting : {&layout.ranks_per_node, &layout.node_sizes, &layout.numa_per_node}) {
    text += (*setting ? (*setting)->quoted() : "-") + ";";
  }
  return {"layout", text};
}

void check_rigor_and_scaling(Rigor rigor, Scaling scaling, std::string_view who) {
  check_enum(static_cast<int>(rigor), 3, "rigor", "estimate (0), measure (1) or patient (2)", who);
  check_enum(static_cast<int>(scaling), 3, "scaling", "none (0), full (1) or symmetric (2)", who);
}

void check_kind_precision_batch(Kind kind, Precision precision, std::size_t batch,
                                std::string_view who) {
  check_enum(static_cast<int>(kind), 3, "kind", "c2c (0), r2c (1) or r2r (2, with axes)", who);
  check_enum(static_cast<int>(precision), 2, "precision",
             "double_precision (0) or single_precision (1)", who);
  if (batch == 0) {
    throw UsageError(std::string(who) + ": batch=0 is not valid; expected the number of fields " +
                     "transformed together, at least 1");
  }
}

namespace {

const char* thread_level_name(int level) {
  if (level == MPI_THREAD_SINGLE) return "MPI_THREAD_SINGLE";
  if (level == MPI_THREAD_FUNNELED) return "MPI_THREAD_FUNNELED";
  if (level == MPI_THREAD_SERIALIZED) return "MPI_THREAD_SERIALIZED";
  return "MPI_THREAD_MULTIPLE";
}

}  // namespace

// The levels are ordered (SINGLE < FUNNELED < SERIALIZED < MULTIPLE, as the standard requires),
// and the lowest over the ranks decides, so that every rank throws or none does.
void check_threads(int threads, MPI_Comm comm, std::string_view who) {
  const std::string asked = std::string(who) + ": PlanOptions::threads=" +
                            (threads == timed_threads ? "timed_threads" : std::to_string(threads));
  if (threads < 1 && threads != timed_threads) {
    throw UsageError(asked +
                     " is not valid; expected the threads of each rank, at least 1, or "
                     "timed_threads (-1) to time the counts");
  }
  if (threads == 1) return;
  int provided = MPI_THREAD_SINGLE;
  MPI_Query_thread(&provided);
  MPI_Allreduce(MPI_IN_PLACE, &provided, 1, MPI_INT, MPI_MIN, comm);
  if (provided >= MPI_THREAD_FUNNELED) return;
  throw UsageError(asked + " needs MPI initialized with at least MPI_THREAD_FUNNELED, but it " +
                   "provides " + thread_level_name(provided) +
                   "; call MPI_Init_thread(..., MPI_THREAD_FUNNELED, ...) or plan with threads=1");
}

RealSides real_sides(Kind kind, bool forward) {
  if (kind == Kind::r2r) return {true, true};
  if (kind == Kind::r2c) return {forward, !forward};
  return {false, false};
}

void check_overload(Precision expected_precision, Kind kind, Precision precision, RealSides sides,
                    bool forward, std::string_view who, std::string_view call) {
  const RealSides fitting_sides = real_sides(kind, forward);
  if (expected_precision == precision && sides == fitting_sides) return;
  // The plan's precision names the overload to call, not the one called.
  const bool single = expected_precision == Precision::single_precision;
  const std::string real_type = single ? "float" : "double";
  const auto type = [&](bool real) {
    return real ? real_type : single ? "ComplexFloat" : "Complex";
  };
  const std::string fitting =
      "(const " + type(fitting_sides.first) + "*, " + type(fitting_sides.second) + "*)";
  const std::string kind_name = kind == Kind::c2c ? "c2c" : kind == Kind::r2c ? "r2c" : "r2r";
  throw UsageError(std::string(who) + ": " + std::string(call) + " does not fit this plan, a " +
                   kind_name + " " + real_type + " transform; call " +
                   std::string(call.substr(0, call.find('('))) + fitting);
}

void check_arrays(const void* in, std::size_t in_elements, const void* out,
                  std::size_t out_elements, std::string_view call, MPI_Comm comm,
                  std::string failure) {
  const auto check = [&](const void* array, std::size_t elements, const char* name) {
    if (!failure.empty()) return;
    if (array == nullptr && elements > 0) {
      failure =
          std::string(name) + " is null but holds " + std::to_string(elements) + " elements here";
    } else if (reinterpret_cast<std::uintptr_t>(array) % 16 != 0) {
      failure = std::string(name) +
                " is not 16-byte aligned; use new, malloc, std::vector or fftw_malloc";
    }
  };
  check(in, in_elements, "in");
  check(out, out_elements, "out");
  int bad = failure.empty() ? 0 : 1;
  mpi::check(MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, comm),
             "MPI_Allreduce(array check)");
  if (bad == 0) return;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (!failure.empty())
    failure = std::string(call) + ": " + failure + " on rank " + std::to_string(rank);
  throw UsageError(mpi::agreed_message(failure, comm).text);
}

std::string size_failure(const void* in, std::size_t in_bytes, std::size_t in_needed,
                         const void* out, std::size_t out_bytes, std::size_t out_needed,
                         std::size_t in_place_needed) {
  const auto too_small = [](const char* name, std::size_t bytes, std::size_t needed,
                            const char* what) {
    return std::string(name) + " holds " + std::to_string(bytes) + " bytes but " + what +
           " needs " + std::to_string(needed) + " here";
  };
  if (in == out && in != nullptr) {
    const std::size_t held = std::min(in_bytes, out_bytes);
    if (held < in_place_needed) return too_small("in == out", held, in_place_needed, "in place");
    return {};
  }
  if (in_bytes < in_needed) return too_small("in", in_bytes, in_needed, "the input");
  if (out_bytes < out_needed) return too_small("out", out_bytes, out_needed, "the output");
  return {};
}

template <typename Real>
void import_wisdom(const std::string& path, MPI_Comm comm) {
  fft::import_wisdom<Real>(path, comm, "wisdom_file");
}

template <typename Real>
void export_wisdom(const std::string& path, MPI_Comm comm) {
  fft::export_wisdom<Real>(path, comm, "wisdom_file");
}

template void import_wisdom<double>(const std::string&, MPI_Comm);
template void import_wisdom<float>(const std::string&, MPI_Comm);
template void export_wisdom<double>(const std::string&, MPI_Comm);
template void export_wisdom<float>(const std::string&, MPI_Comm);

FftTimes times_of(const PhaseTimer& timer) {
  const auto seconds = [&](std::string_view phase) {
    const auto found = timer.seconds().find(phase);
    return found == timer.seconds().end() ? 0.0 : found->second;
  };
  return {seconds("transpose"), seconds("compute"), seconds("reshape")};
}

}  // namespace a2afft::detail::library
