#pragma once

#include <mpi.h>

#include <cstddef>
#include <vector>

namespace a2afft::detail::mpi {

/// A fixed-capacity set of outstanding requests, sized once at plan construction so that
/// ExchangePlan::run() never allocates. Requests still pending on destruction are cancelled.
class RequestSet {
 public:
  explicit RequestSet(std::size_t capacity = 0) {
    requests_.reserve(capacity);
    statuses_.reserve(capacity);
  }
  RequestSet(RequestSet&&) noexcept = default;
  RequestSet& operator=(RequestSet&&) noexcept = default;
  RequestSet(const RequestSet&) = delete;
  RequestSet& operator=(const RequestSet&) = delete;
  ~RequestSet();

  /// Returns the slot for the next request; pass it to MPI_Isend/MPI_Irecv.
  MPI_Request* next();
  /// Waits for one pending request and returns its index (the order next() gave the slots
  /// out), or -1 when none is pending. The set keeps its slots until wait_all().
  int wait_any();
  /// Waits for every request and empties the set.
  void wait_all();
  /// Whether every request is done (then the set is emptied); never blocks.
  bool test_all();
  std::size_t size() const { return requests_.size(); }

 private:
  // Throws for `rc` of `call` (MPI_Waitall, MPI_Testall), naming the first failed receive's peer.
  void check_statuses(int rc, const char* call);

  std::vector<MPI_Request> requests_;
  std::vector<MPI_Status> statuses_;  // for the error message: which receive failed
};

}  // namespace a2afft::detail::mpi
