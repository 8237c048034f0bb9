#include "timing/phase_timer.hpp"

#include <chrono>

#include "simulator/smpi.hpp"
#include "simulator/smpi_rules.hpp"

namespace a2afft::detail {

namespace {

// A steady wall clock in seconds. Not MPI_Wtime: phases are timed in unit tests without MPI too,
// and MPICH refuses MPI_Wtime before MPI_Init (Open MPI allows it).
double now_seconds() {
  // SimGrid's simulated clock: a steady_clock would time the simulator, not the simulated
  // machine. (Phases are timed inside MPI runs only in this build: no unit tests run here.)
  if constexpr (simulator::kSimulated) return simulator::clock_seconds();
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

void PhaseTimer::add(std::string_view phase, double seconds) {
  auto it = seconds_.find(phase);
  if (it == seconds_.end()) it = seconds_.emplace(std::string(phase), 0.0).first;
  it->second += seconds;
}

void PhaseTimer::clear() {
  for (auto& [phase, seconds] : seconds_)
    seconds = 0.0;
}

ScopedPhase::ScopedPhase(PhaseTimer* timer, std::string_view phase) : timer_(timer), phase_(phase) {
  if (timer_ != nullptr) start_seconds_ = now_seconds();
}

ScopedPhase::~ScopedPhase() {
  if (timer_ != nullptr) timer_->add(phase_, now_seconds() - start_seconds_);
}

}  // namespace a2afft::detail
