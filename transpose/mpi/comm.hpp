#pragma once

#include <mpi.h>

#include <string>
#include <string_view>

namespace a2afft::detail::mpi {

/// The ranks a call sends to and receives from, for its error message; -1: none.
struct Peers {
  int to = -1;
  int from = -1;
};

/// Throws MpiError unless `rc` is MPI_SUCCESS. The message names `call`, where the running
/// exchange is (backend, phase, round; see PhaseScope), the peers and MPI's error string.
void check(int rc, std::string_view call, Peers peers = {});

/// `root`'s `text` on every rank of `comm`; collective.
std::string broadcast(std::string text, int root, MPI_Comm comm);

/// What the lowest rank with something to say said, known to every rank of `comm`.
struct RankMessage {
  int rank = -1;     // -1: no rank had anything to say
  std::string text;  // that rank's `local`
  bool empty() const { return rank < 0; }
};

/// Agreement on one error or failure: every rank passes its `local` message ("" when all is
/// well) and gets the lowest such rank's, so all ranks throw or report alike and none waits
/// alone in a later collective. Collective over `comm`.
RankMessage agreed_message(const std::string& local, MPI_Comm comm);

/// Owns one communicator (never MPI_COMM_WORLD/SELF) and frees it on destruction.
/// Internal communicators return errors instead of aborting, so failures carry context.
class Comm {
 public:
  Comm() = default;
  static Comm duplicate(MPI_Comm parent);
  /// With color MPI_UNDEFINED the result is empty (get() == MPI_COMM_NULL).
  static Comm split(MPI_Comm parent, int color, int key);
  static Comm split_shared_memory(MPI_Comm parent);
  /// Takes ownership of a communicator made by another MPI call (a graph communicator).
  static Comm adopt(MPI_Comm created) { return Comm(created); }

  Comm(Comm&& other) noexcept;
  Comm& operator=(Comm&& other) noexcept;
  Comm(const Comm&) = delete;
  Comm& operator=(const Comm&) = delete;
  ~Comm();

  MPI_Comm get() const { return comm_; }
  int rank() const { return rank_; }
  int size() const { return size_; }

 private:
  explicit Comm(MPI_Comm adopted);
  void release() noexcept;

  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 0;
};

}  // namespace a2afft::detail::mpi
