#include "mpi/requests.hpp"

#include "mpi/comm.hpp"

namespace a2afft::detail::mpi {

MPI_Request* RequestSet::next() {
  // Growing past the reserved capacity would allocate inside run(); plans size it exactly.
  requests_.push_back(MPI_REQUEST_NULL);
  return &requests_.back();
}

int RequestSet::wait_any() {
  int index = MPI_UNDEFINED;
  MPI_Status status;
  const int rc = MPI_Waitany(static_cast<int>(requests_.size()), requests_.data(), &index, &status);
  check(rc, "MPI_Waitany", {.from = rc == MPI_SUCCESS ? -1 : status.MPI_SOURCE});
  return index == MPI_UNDEFINED ? -1 : index;
}

void RequestSet::wait_all() {
  statuses_.resize(requests_.size());  // within the reserved capacity: no allocation
  const int rc =
      MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), statuses_.data());
  requests_.clear();
  check_statuses(rc, "MPI_Waitall");
}

bool RequestSet::test_all() {
  statuses_.resize(requests_.size());
  int done = 0;
  const int rc =
      MPI_Testall(static_cast<int>(requests_.size()), requests_.data(), &done, statuses_.data());
  check_statuses(rc, "MPI_Testall");
  if (done) requests_.clear();
  return done != 0;
}

void RequestSet::check_statuses(int rc, const char* call) {
  if (rc == MPI_ERR_IN_STATUS) {
    // Name the first request that failed (a receive's status carries its peer).
    for (const MPI_Status& status : statuses_) {
      if (status.MPI_ERROR != MPI_SUCCESS && status.MPI_ERROR != MPI_ERR_PENDING) {
        check(status.MPI_ERROR, call, {.from = status.MPI_SOURCE});
      }
    }
  }
  check(rc, call);
}

RequestSet::~RequestSet() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  for (MPI_Request& request : requests_) {
    if (request == MPI_REQUEST_NULL) continue;
    MPI_Cancel(&request);
    MPI_Request_free(&request);
  }
}

}  // namespace a2afft::detail::mpi
