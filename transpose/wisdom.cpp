#include "wisdom.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "error.hpp"
#include "mpi/comm.hpp"

namespace a2afft::detail::wisdom {
namespace {

nlohmann::json read(const std::string& path) {
  check_path(path.c_str());
  std::ifstream in(path);
  if (!in) return nlohmann::json::object();
  nlohmann::json kept = nlohmann::json::parse(in, nullptr, false);
  if (!kept.is_object()) {
    throw UsageError("A2AFFT_WISDOM=" + path + " is not an a2afft wisdom file (a JSON object)");
  }
  return kept;
}

bool is_root(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank == 0;
}

}  // namespace

void check_path(const char* path) {
  if (path == nullptr) return;
  if (std::error_code ignored; std::filesystem::is_directory(path, ignored)) {
    throw UsageError("A2AFFT_WISDOM=" + std::string(path) +
                     " is a directory; expected the path of a JSON file (created if missing)");
  }
}

std::string recall(const std::string& key, MPI_Comm comm) {
  const char* path = std::getenv("A2AFFT_WISDOM");
  if (path == nullptr) return "";
  std::string kept, error;
  // A bad file is an error on rank 0 first, then on every rank.
  if (is_root(comm)) {
    try {
      const nlohmann::json file = read(path);
      if (file.contains(key) && file[key].is_string()) kept = file[key];
    } catch (const UsageError& bad) {
      error = bad.what();
    }
  }
  error = mpi::broadcast(error, 0, comm);
  if (!error.empty()) throw UsageError(error);
  return mpi::broadcast(kept, 0, comm);
}

void remember(const std::string& key, const std::string& choice, MPI_Comm comm) {
  const char* path = std::getenv("A2AFFT_WISDOM");
  if (path == nullptr || !is_root(comm)) return;
  nlohmann::json file = read(path);
  file[key] = choice;
  std::ofstream(path) << file.dump(2) << '\n';
}

std::string mpi_library() {
  char library[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(library, &length);
  const std::string text(library, static_cast<std::size_t>(length));
  return text.substr(0, text.find_first_of("\r\n,"));
}

}  // namespace a2afft::detail::wisdom
