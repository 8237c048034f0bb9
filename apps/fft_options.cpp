#include "fft_options.hpp"

#include <a2afft/error.hpp>

namespace a2afft::commands {

void FftRunOptions::add_to(CLI::App& command) {
  command.add_option("--engine", engines, "Engines: a2afft, fftw-mpi, or both (comma list)")
      ->delimiter(',')
      ->capture_default_str();
  command.add_option("--rigor", rigor, "FFTW planning: estimate, measure or patient")
      ->capture_default_str();
  command
      .add_option("--order", order,
                  "interleaved: run i of every plan before run i+1, so slow spells hit all rows "
                  "alike; sequential: one plan at a time (least memory); auto: interleaved when "
                  "every plan fits in half the node's memory")
      ->capture_default_str();
  command.add_option("--iters", iterations, "Timed forward transforms")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  command.add_option("--warmup", warmup, "Untimed transforms first")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  command.add_flag("--backward", backward,
                   "Also time the backward transform (then the transpose/compute split is not "
                   "shown)");
  command
      .add_option("--tolerance", tolerance,
                  "Largest relative error that passes (round trip and vs fftw-mpi)")
      ->capture_default_str();
  command.add_option("--wisdom", wisdom_path,
                     "FFTW wisdom file: read before planning if it exists, written after, so "
                     "later runs with --rigor measure skip the planning and use the same plans");
  command.add_option("--json", json_path, "Also write the results as JSON to FILE");
  command.add_option("--csv", csv_path, "Also write the results as CSV to FILE");
}

Engines parse_engines(const std::vector<std::string>& engines) {
  Engines which;
  for (const std::string& engine : engines) {
    if (engine == "a2afft") {
      which.ours = true;
    } else if (engine == "fftw-mpi") {
      if (!A2AFFT_HAVE_FFTW_MPI)
        throw UsageError("--engine=fftw-mpi is not in this build: " A2AFFT_FFTW_MPI_WHY);
      which.fftw_mpi = true;
    } else {
      throw UsageError("--engine=" + engine + " is not valid; expected a2afft, fftw-mpi or both");
    }
  }
  return which;
}

}  // namespace a2afft::commands
