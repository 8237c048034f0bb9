// a2afft: distributed FFTs whose every transpose goes through a pluggable all-to-all exchange.
// One executable with subcommands (command_line.cpp); main() only brackets it with MPI.
//
// A refused command finalizes MPI on every rank and exits 2 without MPI_Abort. Open MPI's
// mpirun (4.1) still waits about 2 s after any non-zero exit (SIGCONT, 1 s, SIGTERM, 1 s,
// SIGKILL, sent even to processes that have exited); OMPI_MCA_odls_base_sigkill_timeout=0
// removes that wait.

#include <mpi.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "command_line.hpp"

namespace {

// Whether this command line may run a2afft's plans on more than one thread: --threads other
// than 1, OMP_NUM_THREADS (--threads' default) above 1, or a deck (`run`) that names threads.
// Only then is MPI initialised with MPI_THREAD_FUNNELED, which PlanOptions::threads needs:
// Open MPI 4.1.4 ran MPI_Alltoall of 16 B between 2 ranks in 313 ns under FUNNELED against 240
// under SINGLE (medians of 8 alternating launches), so the alltoall rows of a run that needs no
// threads keep SINGLE. A threaded plan under SINGLE is one clear error naming both levels.
bool may_run_threads(const std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--threads" && i + 1 < args.size() && args[i + 1] != "1") return true;
    if (arg.rfind("--threads=", 0) == 0 && arg != "--threads=1") return true;
  }
  if (const char* omp = std::getenv("OMP_NUM_THREADS"); omp != nullptr && std::atoi(omp) > 1) {
    return true;
  }
  if (!args.empty() && args[0] == "run") {
    for (std::size_t i = 1; i < args.size(); ++i) {
      std::ifstream deck(args[i]);
      const std::string text((std::istreambuf_iterator<char>(deck)), {});
      if (text.find("threads") != std::string::npos) return true;
    }
  }
  return false;
}

// MPI_Init_thread/MPI_Finalize for the life of main().
struct MpiSession {
  MpiSession(int* argc, char*** argv, bool threads) {
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(argc, argv, threads ? MPI_THREAD_FUNNELED : MPI_THREAD_SINGLE, &provided);
  }
  ~MpiSession() { MPI_Finalize(); }
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
};

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  const MpiSession mpi(&argc, &argv, may_run_threads(args));
  return a2afft::commands::run_command_line(args, std::cerr);
}
