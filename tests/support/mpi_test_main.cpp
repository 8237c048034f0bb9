// GoogleTest main for MPI tests: every rank runs every test; only rank 0 prints. Tests must
// make their assertions collective (reduce first, then assert the same value everywhere), so
// that no rank leaves a test early while the others wait in a collective.

#include <mpi.h>

#include <gtest/gtest.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  const int local_failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
  int any_failed = 0;
  MPI_Allreduce(&local_failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0 && any_failed && !local_failed) {
    std::fprintf(stderr, "a test failed on a rank other than 0\n");
  }
  MPI_Finalize();
  return any_failed;
}
