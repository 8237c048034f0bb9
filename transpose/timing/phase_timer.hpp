#pragma once

#include <map>
#include <string>
#include <string_view>

namespace a2afft::detail {

/// Accumulates seconds per named phase (`pack`, `intra`, `inter`, ...) on one rank.
/// Exchanges write to it when one is attached; reports reduce it over ranks.
class PhaseTimer {
 public:
  void add(std::string_view phase, double seconds);
  /// Zeroes every phase but keeps its entry, so timed loops that clear between runs never
  /// allocate (only the first run that meets a phase name does).
  void clear();
  const std::map<std::string, double, std::less<>>& seconds() const { return seconds_; }

 private:
  std::map<std::string, double, std::less<>> seconds_;
};

/// Times one phase from construction to destruction; does nothing without a timer.
class ScopedPhase {
 public:
  ScopedPhase(PhaseTimer* timer, std::string_view phase);
  ~ScopedPhase();
  ScopedPhase(const ScopedPhase&) = delete;
  ScopedPhase& operator=(const ScopedPhase&) = delete;

 private:
  PhaseTimer* timer_;
  std::string_view phase_;
  double start_seconds_ = 0.0;
};

}  // namespace a2afft::detail
