// The `a2afft` command line: one CLI11 app with every subcommand. Every rank parses the same
// arguments, so errors are detected identically everywhere and printed once, on rank 0.

#include <a2afft/error.hpp>
#include <a2afft/version.hpp>

#include "command_line.hpp"

#include <mpi.h>

#include <CLI/CLI.hpp>
#include <iostream>

#include "commands.hpp"

namespace a2afft::commands {

std::vector<Subcommand> add_subcommands(CLI::App& app) {
  return {{"list", add_list(app)},         {"topology", add_topology(app)},
          {"alltoall", add_alltoall(app)}, {"model", add_model(app)},
          {"fft3d", add_fft3d(app)},       {"fft2d", add_fft2d(app)},
          {"fft1d", add_fft1d(app)}};
}

bool is_printing_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank == 0;
}

namespace {

int report_error(const std::string& message, std::ostream& err) {
  if (is_printing_rank()) {
    // One write of the whole line, after what stdout holds: std::cerr writes each << at once,
    // and mpirun forwards stdout and stderr apart, so a prefix written alone could land in the
    // middle of the study's own output (as cli.run_interrupt_resume once saw).
    std::cout.flush();
    err << ("a2afft: error: " + message + "\n") << std::flush;
  }
  return kUsageExit;
}

}  // namespace

int run_command_line(const std::vector<std::string>& args, std::ostream& err) {
  CLI::App app(
      "a2afft: distributed FFTs and all-to-all exchange benchmarks on MPI.\n"
      "Run under mpirun; every rank runs the same command. Virtual layouts let one machine act\n"
      "as a cluster: A2AFFT_RANKS_PER_NODE, A2AFFT_NODE_SIZES, A2AFFT_NUMA_PER_NODE (or the\n"
      "matching flags, which win).",
      "a2afft");
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string(version()));
  std::vector<Subcommand> subcommands = add_subcommands(app);
  subcommands.push_back({"run", add_run(app)});

  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them reversed
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) return is_printing_rank() ? app.exit(error) : 0;
    return report_error(std::string(error.what()) + " (see 'a2afft --help')", err);
  }

  try {
    for (const auto& [name, runner] : subcommands) {
      if (app.got_subcommand(name)) return runner();
    }
    return 0;
  } catch (const UsageError& error) {
    return report_error(error.what(), err);
  } catch (const std::exception& error) {
    // Not a usage error: other ranks may be stuck in a collective, so take the job down.
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::cerr << ("a2afft: error on rank " + std::to_string(rank) + ": " + error.what() + "\n");
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  return 3;
}

}  // namespace a2afft::commands
