// pairwise and nonblocking: the direct all-to-alls, every block sent straight to its owner.
//
// Source: [node-aware-2025] §2, Algorithm 1 (pairwise exchange) and
// Algorithm 2 (non-blocking); both are the flat baselines of MPICH and Open MPI.
// Steps (pairwise): copy our own block; in step s = 1..P-1 MPI_Sendrecv to rank+s while
//   receiving from rank-s, so each step is a permutation and no rank is hit twice at once.
// Steps (nonblocking): copy our own block; post Irecv/Isend for `batch` shifted partners at a
//   time and wait for them all, until every partner is done. Split phase: start() copies our own
//   block and posts the first batch (all partners by default); finish() waits for it and runs
//   the remaining batches.
// Cost: (P-1)(alpha + b*beta) for both; nonblocking overlaps the latencies of a batch.
// Parameters: nonblocking `batch` = most exchanges in flight, >= 1 (default: all P-1; in a
//   simulated build, at most simulator::kNonblockingBatch, and describe() says so:
//   SimGrid SMPI 3.32's flow solver crashes with 16 or more in flight at P = 256, where an
//   explicit batch that large is refused with that reason).

#include <algorithm>
#include <climits>
#include <optional>

#include "algorithms/algorithms.hpp"
#include "algorithms/block_transfer.hpp"
#include "mpi/requests.hpp"
#include "schedule/cost_model.hpp"
#include "schedule/direct.hpp"
#include "simulator/smpi_rules.hpp"
#include "topology/topology.hpp"

namespace a2afft::detail::algorithms {
namespace {

using schedule::shifted_destination;
using schedule::shifted_source;

// Both direct exchanges: our own block is a local copy and every other block one message, so
// the own block can be left to the caller (run_others()).
class DirectExchange : public ExchangePlan {
 public:
  bool can_leave_own_block() const final { return true; }

  void run(const std::byte* send, std::byte* recv) final {
    {
      const auto timed = phase("copy");
      transfer_.copy_own(send, recv);
    }
    run_others(send, recv);
  }

 protected:
  explicit DirectExchange(const ExchangeProblem& problem)
      : transfer_(problem.topology.comm(), problem.block_bytes) {}

  BlockTransfer transfer_;
};

class PairwiseExchange final : public DirectExchange {
 public:
  explicit PairwiseExchange(const ExchangeProblem& problem) : DirectExchange(problem) {}

  std::string describe() const override { return "pairwise"; }

  void run_others(const std::byte* send, std::byte* recv) override {
    const int rank = transfer_.rank();
    const int ranks = transfer_.size();
    for (int step = 1; step < ranks; ++step) {
      const auto timed = phase("p2p", step);
      transfer_.sendrecv(send, shifted_destination(step, rank, ranks), recv,
                         shifted_source(step, rank, ranks));
    }
  }
};

class NonblockingExchange final : public DirectExchange {
 public:
  NonblockingExchange(const ExchangeProblem& problem, schedule::NonblockingBatch batch)
      : DirectExchange(problem),
        batch_(batch.batch),
        bounded_in_simulation_(batch.bounded_in_simulation),
        requests_(2 * static_cast<std::size_t>(batch.batch)) {}

  // Every report's exchange column (console, JSON, CSV) says when the simulator bounded it.
  std::string describe() const override {
    return "nonblocking(batch=" + std::to_string(batch_) +
           (bounded_in_simulation_ ? kBoundedInSimulation : "") + ")";
  }

  void run_others(const std::byte* send, std::byte* recv) override { run_batches(send, recv, 1); }

  bool overlaps() const override { return true; }

 protected:
  void start_exchange(const std::byte* send, std::byte* recv) override {
    {
      const auto timed = phase("copy");
      transfer_.copy_own(send, recv);
    }
    const auto timed = phase("p2p", 1);
    post_batch(send, recv, 1);
    pending_ = {send, recv};
    next_step_ = 1 + batch_;
  }
  void finish_exchange() override {
    {
      const auto timed = phase("p2p", (next_step_ - 1) / batch_);
      requests_.wait_all();
    }
    run_batches(pending_.first, pending_.second, next_step_);
  }
  // The batch in flight done: the next one posted, or the exchange done after the last.
  bool test_exchange() override {
    const auto timed = phase("p2p", (next_step_ - 1) / batch_);
    if (!requests_.test_all()) return false;
    if (next_step_ >= transfer_.size()) return true;
    post_batch(pending_.first, pending_.second, next_step_);
    next_step_ += batch_;
    return false;
  }

 private:
  // Posts the exchanges of steps first .. first + batch - 1, receives first so that every
  // matching send finds its buffer posted.
  void post_batch(const std::byte* send, std::byte* recv, int first) {
    const int rank = transfer_.rank();
    const int ranks = transfer_.size();
    const int last = std::min(ranks, first + batch_);
    for (int step = first; step < last; ++step) {
      transfer_.irecv(recv, shifted_source(step, rank, ranks), requests_.next());
    }
    for (int step = first; step < last; ++step) {
      transfer_.isend(send, shifted_destination(step, rank, ranks), requests_.next());
    }
  }
  // Every batch from step `first` on, each posted and waited for in turn.
  void run_batches(const std::byte* send, std::byte* recv, int first) {
    for (; first < transfer_.size(); first += batch_) {
      const auto timed = phase("p2p", (first - 1) / batch_ + 1);
      post_batch(send, recv, first);
      requests_.wait_all();
    }
  }

  static constexpr const char* kBoundedInSimulation =
      ", bounded in simulation: SMPI 3.32 crashes from P=256 with 16 or more";

  int batch_;
  bool bounded_in_simulation_;
  mpi::RequestSet requests_;
  std::pair<const std::byte*, std::byte*> pending_{nullptr, nullptr};
  int next_step_ = 1;  // the first step of the batch to post next (split phase)
};

// The exchanges in flight: batch bounds them, so any batch >= P-1 means all of them. The
// default and the simulator's limits are schedule::nonblocking_batch's.
Resolved<schedule::NonblockingBatch> nonblocking_batch(const RankLayout& layout,
                                                       const Params& params) {
  const long partners = std::max(1, layout.size() - 1);
  // 0 is no batch a spec can give (the range starts at 1): it stands for "not given".
  const long given = params.integer("batch", 0, 1, INT_MAX, {{"all", partners}});
  const schedule::NonblockingBatch batch = schedule::nonblocking_batch(
      layout.size(), given == 0 ? std::nullopt : std::optional<long>(given), simulator::kSimulated);
  if (!batch.crashes_simulator) return {batch, ""};
  return {batch, "batch=" + *params.spec().find("batch") + " puts " + std::to_string(batch.batch) +
                     " exchanges of every rank in flight at once, and SimGrid SMPI 3.32's flow "
                     "solver crashed (SIGSEGV) on 256 ranks with 16, 32 and 255 (64 ran past 6 "
                     "minutes); in simulation from " +
                     std::to_string(simulator::kCrashRanks) + " ranks on give batch=1 to " +
                     std::to_string(simulator::kCrashBatch - 1) +
                     ", or none (the simulated default is " +
                     std::to_string(simulator::kNonblockingBatch) + ")"};
}

constexpr std::string_view kPairwise = "pairwise";
constexpr std::string_view kNonblocking = "nonblocking";

constexpr std::string_view kPairwiseExamples[] = {"pairwise"};
static_assert(simulator::kNonblockingBatch == 4 && simulator::kCrashBatch == 16 &&
                  simulator::kCrashRanks == 256,
              "kNonblockingParams and kBoundedInSimulation spell these numbers out");
constexpr ParamInfo kNonblockingParams[] = {
    {"batch", "all",
     "at most this many exchanges in flight (>= 1; P-1 or more means all; simulated builds: "
     "4 by default, 16 or more refused from P=256)"},
};
constexpr std::string_view kNonblockingExamples[] = {"nonblocking", "nonblocking:batch=1",
                                                     "nonblocking:batch=2"};

}  // namespace

extern const ExchangeInfo kPairwiseExchange = {
    .name = kPairwise,
    .summary = "P-1 MPI_Sendrecv steps with partners rank+s / rank-s",
    .source = "[node-aware-2025] §2, Algorithm 1",
    .layouts = "any",
    .params = {},
    .examples = kPairwiseExamples,
    .validate = nullptr,
    .make = make_plan<PairwiseExchange>,
    .scratch = {},
    .auto_candidates = defaults_only<kPairwise>,
    .cost = direct_cost<kPairwise>,
};

extern const ExchangeInfo kNonblockingExchange = {
    .name = kNonblocking,
    .summary = "post Irecv/Isend to every partner (batch at a time), then Waitall",
    .source = "[node-aware-2025] §2, Algorithm 2",
    .layouts = "any",
    .params = kNonblockingParams,
    .examples = kNonblockingExamples,
    .validate = refusal_of<nonblocking_batch>,
    .make = make_settled<NonblockingExchange, nonblocking_batch>,
    .scratch = {},
    .auto_candidates = defaults_only<kNonblocking>,
    .cost = direct_cost<kNonblocking>,
    .split_phase = SplitPhase::yes,
};

}  // namespace a2afft::detail::algorithms
