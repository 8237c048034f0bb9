// The whole array on rank 0 and the relative difference of two of them
// (include/a2afft/tools/fft_tools.hpp): for checks, never on a timed path. Part of a2afft_checks
// (see test_signal.cpp).

#include <a2afft/tools/fft_tools.hpp>

#include <algorithm>
#include <cmath>

#include "geometry.hpp"
#include "mpi/comm.hpp"

namespace a2afft {
namespace {

using detail::mpi::check;
using Shape3 = std::array<std::size_t, 3>;

// Rank 0 receives every rank's `rows`, its box stored row-major, into the global array.
std::vector<Complex> gather_row_major(const Complex* rows, const Box3& box, const Shape3& shape,
                                      MPI_Comm comm) {
  int rank = 0;
  int ranks = 0;
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check(MPI_Comm_size(comm, &ranks), "MPI_Comm_size");
  const unsigned long mine[6] = {box.lower[0], box.lower[1], box.lower[2],
                                 box.size[0],  box.size[1],  box.size[2]};
  std::vector<unsigned long> boxes(6 * static_cast<std::size_t>(ranks));
  check(MPI_Gather(mine, 6, MPI_UNSIGNED_LONG, boxes.data(), 6, MPI_UNSIGNED_LONG, 0, comm),
        "MPI_Gather(boxes)");
  std::vector<Complex> global;
  if (rank != 0) {
    check(MPI_Send(rows, static_cast<int>(box.elements()), MPI_C_DOUBLE_COMPLEX, 0, 0, comm),
          "MPI_Send(box)");
    return global;
  }
  global.resize(shape[0] * shape[1] * shape[2]);
  std::vector<Complex> incoming;
  for (int source = 0; source < ranks; ++source) {
    const unsigned long* b = boxes.data() + 6 * static_cast<std::size_t>(source);
    const Shape3 lower{b[0], b[1], b[2]};
    const Shape3 size{b[3], b[4], b[5]};
    const Complex* from = rows;
    if (source != 0) {
      incoming.resize(size[0] * size[1] * size[2]);
      check(MPI_Recv(incoming.data(), static_cast<int>(incoming.size()), MPI_C_DOUBLE_COMPLEX,
                     source, 0, comm, MPI_STATUS_IGNORE),
            "MPI_Recv(box)");
      from = incoming.data();
    }
    detail::fft::copy_box(reinterpret_cast<const std::byte*>(from), size, Shape3{},
                          reinterpret_cast<std::byte*>(global.data()), shape, lower, size,
                          sizeof(Complex));
  }
  return global;
}

}  // namespace

std::vector<Complex> gather_global(const Complex* local, const Box3& box,
                                   const std::array<std::size_t, 3>& shape, MPI_Comm comm) {
  if (box.order == std::array<int, 3>{0, 1, 2}) return gather_row_major(local, box, shape, comm);
  std::vector<Complex> rows(box.elements());  // the box row-major, then gathered
  std::size_t k = 0;
  for (std::size_t i = 0; i < box.size[0]; ++i)
    for (std::size_t j = 0; j < box.size[1]; ++j)
      for (std::size_t l = 0; l < box.size[2]; ++l)
        rows[k++] = local[box.local_index({box.lower[0] + i, box.lower[1] + j, box.lower[2] + l})];
  return gather_row_major(rows.data(), box, shape, comm);
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
  check(MPI_Bcast(&error, 1, MPI_DOUBLE, 0, comm), "MPI_Bcast(error)");
  return error;
}

}  // namespace a2afft
