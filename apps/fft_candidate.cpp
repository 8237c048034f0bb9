#include "fft_candidate.hpp"

#include <algorithm>
#include <iostream>

#include <a2afft/error.hpp>

#include "commands.hpp"

namespace a2afft::commands {

CandidateMaker skipping_refusal_if(bool from_all, std::string spec, MakeCandidate make) {
  auto skipping = [from_all, make = std::move(make)]() -> std::unique_ptr<FftCandidate> {
    try {
      return make();
    } catch (const UsageError& error) {
      if (!from_all) throw;
      if (is_printing_rank()) std::cout << "# not run: " << error.what() << '\n';
      return nullptr;
    }
  };
  return {std::move(spec), std::move(skipping)};
}

std::unique_ptr<FftCandidate> DistinctCandidates::make(const CandidateMaker& maker) {
  std::unique_ptr<FftCandidate> candidate = maker.make();
  if (!candidate) return nullptr;
  const std::string describe = candidate->describe();
  const auto same = std::find_if(made_.begin(), made_.end(), [&](const Made& made) {
    return made.engine == candidate->engine() && made.describe == describe;
  });
  if (same != made_.end()) {
    same->repeats.push_back(maker.spec);
    return nullptr;
  }
  made_.push_back({candidate->engine(), describe, maker.spec, {}});
  return candidate;
}

void DistinctCandidates::print_notes(std::ostream& out) const {
  for (const Made& made : made_) {
    if (made.repeats.empty()) continue;
    std::string specs;
    for (const std::string& spec : made.repeats)
      specs += (specs.empty() ? "" : ", ") + spec;
    out << "# not run: " << specs << ": same plan as " << made.spec << " (" << made.describe
        << ")\n";
  }
}

}  // namespace a2afft::commands
