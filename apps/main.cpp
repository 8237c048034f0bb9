// a2afft: distributed FFTs whose every transpose goes through a pluggable all-to-all exchange.
// One executable with subcommands; every rank parses the same arguments, so errors are
// detected identically everywhere and printed once, on rank 0.

#include <mpi.h>

#include <CLI/CLI.hpp>
#include <iostream>

#include "commands.hpp"
#include "error.hpp"

namespace a2afft::commands {

std::vector<Subcommand> add_subcommands(CLI::App& app) {
  return {{"list", add_list(app)},         {"topology", add_topology(app)},
          {"alltoall", add_alltoall(app)}, {"model", add_model(app)},
          {"fft3d", add_fft3d(app)},       {"fft1d", add_fft1d(app)}};
}

bool is_printing_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank == 0;
}

}  // namespace a2afft::commands

namespace {

// MPI_Init/MPI_Finalize for the life of main().
struct MpiSession {
  MpiSession(int* argc, char*** argv) { MPI_Init(argc, argv); }
  ~MpiSession() { MPI_Finalize(); }
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
};

constexpr int kUsageExit = 2;

int report_error(const std::string& message) {
  if (a2afft::commands::is_printing_rank()) std::cerr << "a2afft: error: " << message << '\n';
  return kUsageExit;
}

}  // namespace

int main(int argc, char** argv) {
  const MpiSession mpi(&argc, &argv);
  using namespace a2afft;

  CLI::App app(
      "a2afft: distributed FFTs and all-to-all exchange benchmarks on MPI.\n"
      "Run under mpirun; every rank runs the same command. Virtual layouts let one machine act\n"
      "as a cluster: A2AFFT_RANKS_PER_NODE, A2AFFT_NODE_SIZES, A2AFFT_NUMA_PER_NODE (or the\n"
      "matching flags, which win).",
      "a2afft");
  app.require_subcommand(1);
  app.set_version_flag("--version", A2AFFT_VERSION);
  std::vector<commands::Subcommand> subcommands = commands::add_subcommands(app);
  subcommands.push_back({"run", commands::add_run(app)});

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) {
      return commands::is_printing_rank() ? app.exit(error) : 0;
    }
    return report_error(std::string(error.what()) + " (see 'a2afft --help')");
  }

  try {
    for (const auto& [name, runner] : subcommands) {
      if (app.got_subcommand(name)) return runner();
    }
    return 0;
  } catch (const UsageError& error) {
    return report_error(error.what());
  } catch (const std::exception& error) {
    // Not a usage error: other ranks may be stuck in a collective, so take the job down.
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::cerr << "a2afft: error on rank " << rank << ": " << error.what() << '\n';
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  return 3;
}
