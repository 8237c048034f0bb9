#include "fftw_mpi_reference.hpp"

#include <algorithm>

#include <a2afft/error.hpp>
#include <a2afft/fft_tools.hpp>

namespace a2afft::commands {
namespace {

unsigned planner_flags(Rigor rigor) {
  switch (rigor) {
    case Rigor::estimate:
      return FFTW_ESTIMATE;
    case Rigor::patient:
      return FFTW_PATIENT;
    default:
      return FFTW_MEASURE;
  }
}

// fftw_mpi_init before the first plan; FFTW asks for it once per process.
void initialize_fftw_mpi() {
  static const bool initialized = [] {
    fftw_mpi_init();
    return true;
  }();
  (void)initialized;
}

// Runs `plan` and returns its seconds.
double timed_execute(fftw_plan plan) {
  const double start = MPI_Wtime();
  fftw_execute(plan);
  return MPI_Wtime() - start;
}

}  // namespace

FftwMpi3d::FftwMpi3d(MPI_Comm comm, const std::array<std::size_t, 3>& shape, Rigor rigor,
                     bool transposed_output)
    : FftCandidate("fftw-mpi"), comm_(comm), shape_(shape), transposed_output_(transposed_output) {
  initialize_fftw_mpi();
  const auto n0 = static_cast<ptrdiff_t>(shape[0]);
  const auto n1 = static_cast<ptrdiff_t>(shape[1]);
  const auto n2 = static_cast<ptrdiff_t>(shape[2]);
  ptrdiff_t local_n0 = 0, start0 = 0, local_n1 = 0, start1 = 0;
  const ptrdiff_t alloc =
      fftw_mpi_local_size_3d_transposed(n0, n1, n2, comm, &local_n0, &start0, &local_n1, &start1);
  data_ = reinterpret_cast<Complex*>(fftw_alloc_complex(static_cast<std::size_t>(alloc)));
  const auto u = [](ptrdiff_t v) { return static_cast<std::size_t>(v); };
  input_box_ = {{u(start0), 0, 0}, {u(local_n0), shape[1], shape[2]}};
  output_box_ = transposed_output
                    ? Box3{{0, u(start1), 0}, {shape[0], u(local_n1), shape[2]}, {1, 0, 2}}
                    : input_box_;
  auto* data = reinterpret_cast<fftw_complex*>(data_);
  const unsigned flags = planner_flags(rigor);
  forward_ = fftw_mpi_plan_dft_3d(n0, n1, n2, data, data, comm, FFTW_FORWARD,
                                  flags | (transposed_output ? FFTW_MPI_TRANSPOSED_OUT : 0));
  backward_ = fftw_mpi_plan_dft_3d(n0, n1, n2, data, data, comm, FFTW_BACKWARD,
                                   flags | (transposed_output ? FFTW_MPI_TRANSPOSED_IN : 0));
  if (forward_ == nullptr || backward_ == nullptr) {
    release();  // the destructor does not run for a constructor that throws
    throw Error("FFTW-MPI could not plan " + shape_to_string(shape));
  }
}

FftwMpi3d::~FftwMpi3d() {
  release();
}

void FftwMpi3d::release() {
  if (forward_ != nullptr) fftw_destroy_plan(forward_);
  if (backward_ != nullptr) fftw_destroy_plan(backward_);
  fftw_free(data_);
  forward_ = backward_ = nullptr;
  data_ = nullptr;
}

void FftwMpi3d::forward() {
  last_seconds_ = timed_execute(forward_);
}

void FftwMpi3d::backward() {
  last_seconds_ = timed_execute(backward_);
}

std::vector<Complex> FftwMpi3d::gather_output() const {
  return gather_global(data_, output_box_, shape_, comm_);
}

std::string FftwMpi3d::describe() const {
  return transposed_output_ ? "fftw_mpi_plan_dft_3d(TRANSPOSED_OUT)" : "fftw_mpi_plan_dft_3d";
}

FftwMpi1d::FftwMpi1d(MPI_Comm comm, std::size_t n, Rigor rigor)
    : FftCandidate("fftw-mpi"), comm_(comm), n_(n) {
  initialize_fftw_mpi();
  const auto length = static_cast<ptrdiff_t>(n);
  ptrdiff_t local_ni = 0, start_i = 0, local_no = 0, start_o = 0;
  const ptrdiff_t alloc = fftw_mpi_local_size_1d(length, comm, FFTW_FORWARD, planner_flags(rigor),
                                                 &local_ni, &start_i, &local_no, &start_o);
  const auto u = [](ptrdiff_t v) { return static_cast<std::size_t>(v); };
  input_box_ = {{0, 0, u(start_i)}, {1, 1, u(local_ni)}};
  output_box_ = {{0, 0, u(start_o)}, {1, 1, u(local_no)}};
  in_ = reinterpret_cast<Complex*>(fftw_alloc_complex(u(std::max<ptrdiff_t>(alloc, 1))));
  out_ = reinterpret_cast<Complex*>(fftw_alloc_complex(u(std::max<ptrdiff_t>(alloc, 1))));
  auto* in = reinterpret_cast<fftw_complex*>(in_);
  auto* out = reinterpret_cast<fftw_complex*>(out_);
  forward_ = fftw_mpi_plan_dft_1d(length, in, out, comm, FFTW_FORWARD, planner_flags(rigor));
  backward_ = fftw_mpi_plan_dft_1d(length, out, in, comm, FFTW_BACKWARD, planner_flags(rigor));
  if (forward_ == nullptr || backward_ == nullptr) {
    release();  // the destructor does not run for a constructor that throws
    int ranks = 0;
    MPI_Comm_size(comm, &ranks);
    throw UsageError("FFTW-MPI cannot plan a 1D transform of N=" + std::to_string(n) + " on " +
                     std::to_string(ranks) + " ranks; leave fftw-mpi out with --engine a2afft");
  }
}

FftwMpi1d::~FftwMpi1d() {
  release();
}

void FftwMpi1d::release() {
  if (forward_ != nullptr) fftw_destroy_plan(forward_);
  if (backward_ != nullptr) fftw_destroy_plan(backward_);
  fftw_free(in_);
  fftw_free(out_);
  forward_ = backward_ = nullptr;
  in_ = out_ = nullptr;
}

void FftwMpi1d::forward() {
  last_seconds_ = timed_execute(forward_);
}

void FftwMpi1d::backward() {
  last_seconds_ = timed_execute(backward_);
}

std::vector<Complex> FftwMpi1d::gather_output() const {
  return gather_global(out_, output_box_, {1, 1, n_}, comm_);
}

}  // namespace a2afft::commands
