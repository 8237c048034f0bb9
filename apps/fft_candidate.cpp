#include "fft_candidate.hpp"

#include <iostream>

#include "commands.hpp"
#include "error.hpp"

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

}  // namespace a2afft::commands
