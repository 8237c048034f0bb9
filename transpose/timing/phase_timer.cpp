#include "timing/phase_timer.hpp"

#include <mpi.h>

namespace a2afft {

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
  if (timer_ != nullptr) start_seconds_ = MPI_Wtime();
}

ScopedPhase::~ScopedPhase() {
  if (timer_ != nullptr) timer_->add(phase_, MPI_Wtime() - start_seconds_);
}

}  // namespace a2afft
