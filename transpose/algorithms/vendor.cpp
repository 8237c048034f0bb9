// mpi: the vendor's MPI_Alltoall, the reference every other backend is checked against.
//
// Source: the MPI standard; the MPI library picks its own algorithm (Open MPI's tuned module
// chooses among linear, pairwise and Bruck by message size and rank count).
// Steps: one MPI_Alltoall call; a block of more than INT_MAX bytes travels as one derived type.
//   Split phase: MPI_Ialltoall in start(), MPI_Wait in finish(); refused in simulation from
//   schedule::kSimulatedCrashRanks ranks, where SMPI 3.32 crashes on MPI_Ialltoall itself.
// Cost: whatever the library does; at best (P-1)(alpha + b*beta) for large blocks b.
// Parameters: none.

#include "algorithms/algorithms.hpp"
#include "error.hpp"
#include "mpi/comm.hpp"
#include "mpi/datatype.hpp"
#include "schedule/direct.hpp"
#include "topology/topology.hpp"

namespace a2afft::detail::algorithms {
namespace {

class VendorExchange final : public ExchangePlan {
 public:
  explicit VendorExchange(const ExchangeProblem& problem)
      : comm_(mpi::Comm::duplicate(problem.topology.comm())),
        block_(problem.block_bytes),
        split_phase_crashes_(
            schedule::all_at_once_crashes_simulator(problem.topology.size(), A2AFFT_SMPI)) {}

  std::string describe() const override { return "mpi"; }

  void run(const std::byte* send, std::byte* recv) override {
    const auto timed = phase("alltoall");
    mpi::check(MPI_Alltoall(send, block_.count(), block_.type(), recv, block_.count(),
                            block_.type(), comm_.get()),
               "MPI_Alltoall");
  }

  bool overlaps() const override { return true; }

 protected:
  void start_exchange(const std::byte* send, std::byte* recv) override {
    // Every rank has the same size, so every rank throws: an error, not the simulator's crash.
    if (split_phase_crashes_) {
      throw UsageError(
          "mpi's split phase (start()/finish(): MPI_Ialltoall) cannot run in simulation on " +
          std::to_string(comm_.size()) +
          " ranks: SimGrid SMPI 3.32's flow solver crashes (SIGSEGV) on MPI_Ialltoall from " +
          std::to_string(schedule::kSimulatedCrashRanks) + " ranks; use run()");
    }
    const auto timed = phase("alltoall");
    mpi::check(MPI_Ialltoall(send, block_.count(), block_.type(), recv, block_.count(),
                             block_.type(), comm_.get(), &request_),
               "MPI_Ialltoall");
  }
  void finish_exchange() override {
    const auto timed = phase("alltoall");
    mpi::check(MPI_Wait(&request_, MPI_STATUS_IGNORE), "MPI_Wait(MPI_Ialltoall)");
  }
  bool test_exchange() override {
    int done = 0;
    mpi::check(MPI_Test(&request_, &done, MPI_STATUS_IGNORE), "MPI_Test(MPI_Ialltoall)");
    return done != 0;
  }

 private:
  mpi::Comm comm_;
  mpi::ContiguousBytes block_;
  bool split_phase_crashes_;
  MPI_Request request_ = MPI_REQUEST_NULL;
};

constexpr std::string_view kName = "mpi";
constexpr std::string_view kExamples[] = {"mpi"};

}  // namespace

extern const ExchangeInfo kVendorExchange = {
    .name = kName,
    .summary = "the MPI library's own MPI_Alltoall (the reference)",
    .source = "vendor",
    .layouts = "any",
    .params = {},
    .examples = kExamples,
    .validate = nullptr,
    .make = make_plan<VendorExchange>,
    .scratch = {},
    .auto_candidates = defaults_only<kName>,
    .split_phase = SplitPhase::yes,
};

}  // namespace a2afft::detail::algorithms
