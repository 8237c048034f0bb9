#include "gather.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "mpi/comm.hpp"

namespace a2afft::detail::fft {

std::vector<Complex> gather_global(const Complex* local, const Box3& box, const Shape3& shape,
                                   MPI_Comm comm) {
  int rank = 0;
  int ranks = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  const unsigned long mine[6] = {box.offset[0], box.offset[1], box.offset[2],
                                 box.extent[0], box.extent[1], box.extent[2]};
  std::vector<unsigned long> boxes(6 * static_cast<std::size_t>(ranks));
  mpi::check(MPI_Gather(mine, 6, MPI_UNSIGNED_LONG, boxes.data(), 6, MPI_UNSIGNED_LONG, 0, comm),
             "MPI_Gather(boxes)");
  std::vector<Complex> global;
  if (rank != 0) {
    mpi::check(MPI_Send(local, static_cast<int>(box.elements()), MPI_C_DOUBLE_COMPLEX, 0, 0, comm),
               "MPI_Send(box)");
    return global;
  }
  global.resize(shape[0] * shape[1] * shape[2]);
  std::vector<Complex> incoming;
  for (int source = 0; source < ranks; ++source) {
    const unsigned long* b = boxes.data() + 6 * static_cast<std::size_t>(source);
    const Box3 theirs{{b[0], b[1], b[2]}, {b[3], b[4], b[5]}};
    const Complex* from = local;
    if (source != 0) {
      incoming.resize(theirs.elements());
      mpi::check(MPI_Recv(incoming.data(), static_cast<int>(theirs.elements()),
                          MPI_C_DOUBLE_COMPLEX, source, 0, comm, MPI_STATUS_IGNORE),
                 "MPI_Recv(box)");
      from = incoming.data();
    }
    copy_box(reinterpret_cast<const std::byte*>(from), theirs.extent, Shape3{},
             reinterpret_cast<std::byte*>(global.data()), shape, theirs.offset, theirs.extent,
             sizeof(Complex));
  }
  return global;
}

double relative_difference(const std::vector<Complex>& got, const std::vector<Complex>& reference,
                           MPI_Comm comm) {
  double error = 0;
  if (!reference.empty()) {
    double scale = 0;
    double worst = 0;
    for (std::size_t i = 0; i < reference.size(); ++i) {
      scale = std::max(scale, std::abs(reference[i]));
      worst = std::max(worst, std::abs(got[i] - reference[i]));
    }
    error = worst / std::max(scale, 1e-300);
  }
  mpi::check(MPI_Bcast(&error, 1, MPI_DOUBLE, 0, comm), "MPI_Bcast(error)");
  return error;
}

}  // namespace a2afft::detail::fft
