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
  if (rc == MPI_ERR_IN_STATUS) {
    // Name the first request that failed (a receive's status carries its peer).
    for (const MPI_Status& status : statuses_) {
      if (status.MPI_ERROR != MPI_SUCCESS && status.MPI_ERROR != MPI_ERR_PENDING) {
        check(status.MPI_ERROR, "MPI_Waitall", {.from = status.MPI_SOURCE});
      }
    }
  }
  check(rc, "MPI_Waitall");
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
