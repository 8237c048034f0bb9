#include "fft_candidate.hpp"

#include <algorithm>
#include <iostream>

#include <a2afft/error.hpp>
#include <a2afft/fft_tools.hpp>

#include "commands.hpp"

namespace a2afft::commands {

Fft3dCandidate::Fft3dCandidate(MPI_Comm comm, const std::array<std::size_t, 3>& shape,
                               const Fft3dOptions& options)
    : OwnArrayCandidate(comm, Fft3d(comm, shape, options), 0) {
  data_.resize(fft_.in_place_elements());
}

std::vector<Complex> Fft3dCandidate::gather_output() const {
  return gather_global(data_.data(), fft_.output_box(), fft_.shape(), comm_);
}

Fft1dCandidate::Fft1dCandidate(MPI_Comm comm, std::size_t n, const Fft1dOptions& options)
    : OwnArrayCandidate(comm, Fft1d(comm, n, options), 0) {
  data_.resize(fft_.local_elements());
}

Box3 Fft1dCandidate::input_box() const {
  return {{0, 0, fft_.input_offset()}, {1, 1, fft_.local_elements()}};
}

std::vector<Complex> Fft1dCandidate::gather_output() const {
  // The output as each rank holds it, gathered by rank, with the index of every element beside
  // it (exact as a double below 2^53), then put in natural order on rank 0.
  const std::array<std::size_t, 3> whole{1, 1, fft_.length()};
  std::vector<Complex> indices(data_.size());
  for (std::size_t i = 0; i < indices.size(); ++i) {
    indices[i] = static_cast<double>(fft_.output_index(i));
  }
  const std::vector<Complex> values = gather_global(data_.data(), input_box(), whole, comm_);
  const std::vector<Complex> where = gather_global(indices.data(), input_box(), whole, comm_);
  std::vector<Complex> natural(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    natural[static_cast<std::size_t>(where[i].real())] = values[i];
  }
  return natural;
}

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
