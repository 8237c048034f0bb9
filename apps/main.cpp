// a2afft: distributed FFTs whose every transpose goes through a pluggable all-to-all exchange.
// One executable with subcommands (command_line.cpp); main() only brackets it with MPI.
//
// A refused command finalizes MPI on every rank and exits 2 without MPI_Abort. Open MPI's
// mpirun (4.1) still waits about 2 s after any non-zero exit (SIGCONT, 1 s, SIGTERM, 1 s,
// SIGKILL, sent even to processes that have exited); OMPI_MCA_odls_base_sigkill_timeout=0
// removes that wait.

#include <mpi.h>

#include <iostream>
#include <string>
#include <vector>

#include "command_line.hpp"

namespace {

// MPI_Init_thread/MPI_Finalize for the life of main(). MPI_THREAD_FUNNELED: the FFT commands'
// --threads runs OpenMP threads beside the one thread that calls MPI (PlanOptions::threads
// needs it); Open MPI 4.1 runs FUNNELED as it runs SINGLE (only MULTIPLE adds locking).
struct MpiSession {
  MpiSession(int* argc, char*** argv) {
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
  }
  ~MpiSession() { MPI_Finalize(); }
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
};

}  // namespace

int main(int argc, char** argv) {
  const MpiSession mpi(&argc, &argv);
  const std::vector<std::string> args(argv + 1, argv + argc);
  return a2afft::commands::run_command_line(args, std::cerr);
}
