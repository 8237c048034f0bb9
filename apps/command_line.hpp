#pragma once

#include <iosfwd>
#include <string>
#include <vector>

// The whole `a2afft` command line, behind main(): parse, run the subcommand, report errors.
// Tests drive it in process (tests/cli/command_line_test.cpp), one mpirun for many cases.
namespace a2afft::commands {

/// Exit code of a refused command: every rank agrees on it, none aborts.
inline constexpr int kUsageExit = 2;

/// Runs `a2afft args...` (args without the program name) on MPI_COMM_WORLD, which must be
/// initialised. Returns the exit code; a bad input prints one `a2afft: error: ...` line on
/// rank 0's `err` and returns kUsageExit on every rank. Any other failure aborts the job,
/// since other ranks may be waiting in a collective.
int run_command_line(const std::vector<std::string>& args, std::ostream& err);

}  // namespace a2afft::commands
