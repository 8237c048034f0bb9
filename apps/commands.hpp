#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

// Each subcommand adds itself to the app and returns what runs it after parsing.
namespace a2afft::commands {

using Runner = std::function<int()>;

Runner add_list(CLI::App& app);
Runner add_topology(CLI::App& app);
Runner add_alltoall(CLI::App& app);
Runner add_model(CLI::App& app);
Runner add_fft3d(CLI::App& app);
Runner add_fft2d(CLI::App& app);
Runner add_fft1d(CLI::App& app);
Runner add_run(CLI::App& app);

struct Subcommand {
  std::string name;
  Runner runner;
};
/// Every subcommand but `run` on `app`, in --help order. `run` uses it for each run of a deck.
std::vector<Subcommand> add_subcommands(CLI::App& app);

/// True on the rank that prints (rank 0 of MPI_COMM_WORLD).
bool is_printing_rank();

}  // namespace a2afft::commands
