#include "mpi/requests.hpp"

#include "mpi/comm.hpp"

namespace a2afft::mpi {

MPI_Request* RequestSet::next() {
  // Growing past the reserved capacity would allocate inside run(); plans size it exactly.
  requests_.push_back(MPI_REQUEST_NULL);
  return &requests_.back();
}

int RequestSet::wait_any() {
  int index = MPI_UNDEFINED;
  check(
      MPI_Waitany(static_cast<int>(requests_.size()), requests_.data(), &index, MPI_STATUS_IGNORE),
      "MPI_Waitany");
  return index == MPI_UNDEFINED ? -1 : index;
}

void RequestSet::wait_all() {
  const int rc =
      MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  requests_.clear();
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

}  // namespace a2afft::mpi
