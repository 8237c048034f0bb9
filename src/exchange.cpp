// The public all-to-all (include/a2afft/exchange.hpp): a Topology on the caller's communicator
// and a plan from the registry, with every argument checked collectively first, so that a bad
// one is the same a2afft::Error on every rank and no rank is left waiting in a collective.

#include <a2afft/exchange.hpp>

#include <cstdint>
#include <utility>

#include "collective_checks.hpp"
#include "error.hpp"
#include "make_exchange.hpp"
#include "mpi/comm.hpp"
#include "timing/phase_stats.hpp"
#include "timing/phase_timer.hpp"
#include "topology/topology.hpp"

namespace a2afft {

struct Exchange::Plan {
  std::unique_ptr<detail::Topology> topology;  // declared first: outlives the plan built on it
  std::unique_ptr<detail::ExchangePlan> plan;
  std::size_t block_bytes = 0;
  detail::PhaseTimer phases;  // attached to the plan by time_phases(true)
};

namespace {

// block_bytes must be positive and the same on every rank; one reduction tells every rank both.
void check_block_bytes(std::size_t block_bytes, MPI_Comm comm) {
  const std::uint64_t mine = block_bytes;
  const std::uint64_t local[2] = {mine, ~mine};  // the minimum of ~x gives the maximum of x
  std::uint64_t least[2] = {0, 0};
  detail::mpi::check(MPI_Allreduce(local, least, 2, MPI_UINT64_T, MPI_MIN, comm),
                     "MPI_Allreduce(block_bytes)");
  const std::uint64_t smallest = least[0];
  const std::uint64_t largest = ~least[1];
  if (smallest != largest) {
    throw UsageError("make_exchange: block_bytes differs between ranks (" +
                     std::to_string(smallest) + " to " + std::to_string(largest) +
                     "); every rank must pass the same block size");
  }
  if (smallest == 0) {
    throw UsageError("make_exchange: block_bytes=0 is not valid; a block holds at least 1 byte");
  }
}

// The parsed spec, the same on every rank; a parse error or a spec that differs from rank 0's
// is the lowest such rank's error on every rank.
detail::Spec agreed_spec(std::string_view text, const detail::Topology& topology) {
  const std::string first = detail::mpi::broadcast(std::string(text), 0, topology.comm());
  std::string failure;
  detail::Spec spec;
  if (text != first) {
    failure = "make_exchange: spec '" + std::string(text) + "' on rank " +
              std::to_string(topology.rank()) + " differs from rank 0's '" + first +
              "'; every rank must pass the same spec";
  } else {
    try {
      spec = detail::parse_spec(text);
    } catch (const UsageError& error) {
      failure = error.what();
    }
  }
  if (const detail::mpi::RankMessage agreed = detail::mpi::agreed_message(failure, topology.comm());
      !agreed.empty()) {
    throw UsageError(agreed.text);
  }
  return spec;
}

}  // namespace

std::unique_ptr<Exchange> make_exchange(MPI_Comm comm, std::size_t block_bytes,
                                        std::string_view spec_text) {
  return make_exchange(comm, block_bytes, spec_text, LayoutRequest{});
}

std::unique_ptr<Exchange> make_exchange(MPI_Comm comm, std::size_t block_bytes,
                                        std::string_view spec_text, const LayoutRequest& layout) {
  detail::library::check_communicator(comm, "make_exchange");
  auto plan = std::make_unique<Exchange::Plan>();
  plan->topology = std::make_unique<detail::Topology>(
      comm, LayoutRequest::from_environment().overridden_by(layout));
  const detail::Topology& topology = *plan->topology;
  check_block_bytes(block_bytes, topology.comm());
  const detail::Spec spec = agreed_spec(spec_text, topology);
  const detail::ExchangeProblem problem{topology, block_bytes};
  // Unknown names and keys and bad values throw here, agreed; a refusal is agreed as well.
  if (const std::string why = detail::agreed_refusal(spec, problem, topology.comm());
      !why.empty()) {
    throw UsageError(spec.to_string() + " cannot run on " + topology.describe_layout() + ": " +
                     why);
  }
  plan->plan = detail::make_exchange(spec, problem);
  plan->block_bytes = block_bytes;
  return std::unique_ptr<Exchange>(new Exchange(std::move(plan)));
}

Exchange::Exchange(std::unique_ptr<Plan> plan) : plan_(std::move(plan)) {}

Exchange::~Exchange() = default;

void Exchange::run(const void* send, void* recv) {
  plan_->plan->run(static_cast<const std::byte*>(send), static_cast<std::byte*>(recv));
}

void Exchange::start(const void* send, void* recv) {
  plan_->plan->start(static_cast<const std::byte*>(send), static_cast<std::byte*>(recv));
}

bool Exchange::test() {
  return plan_->plan->test();
}

void Exchange::finish() {
  plan_->plan->finish();
}

bool Exchange::overlaps() const {
  return plan_->plan->overlaps();
}

Buffer allocate(std::size_t bytes) {
  return detail::allocate_aligned(bytes);
}

Buffer Exchange::allocate(std::size_t bytes) {
  return plan_->plan->allocate(bytes);
}

std::string Exchange::describe() const {
  return plan_->plan->describe();
}

std::size_t Exchange::block_bytes() const noexcept {
  return plan_->block_bytes;
}

int Exchange::ranks() const noexcept {
  return plan_->topology->size();
}

std::size_t Exchange::buffer_bytes() const noexcept {
  return plan_->block_bytes * static_cast<std::size_t>(ranks());
}

void Exchange::time_phases(bool on) {
  plan_->plan->attach_timer(on ? &plan_->phases : nullptr);
}

std::map<std::string, double> Exchange::take_phase_seconds() {
  std::map<std::string, double> seconds;
  for (const auto& [name, stats] : detail::reduce_phases(plan_->phases, plan_->topology->comm()))
    seconds[name] = stats.max_seconds;
  plan_->phases.clear();
  return seconds;
}

}  // namespace a2afft
