#include "fftw_mpi_reference.hpp"

#include <fftw3-mpi.h>

#include <algorithm>
#include <stdexcept>

#include "error.hpp"
#include "gather.hpp"

namespace a2afft::fft {

FftwMpi3d::FftwMpi3d(MPI_Comm comm, const Shape3& shape, Rigor rigor, bool transposed_output)
    : comm_(comm), shape_(shape), transposed_output_(transposed_output) {
  ensure_fftw_mpi_initialized();
  const auto n0 = static_cast<ptrdiff_t>(shape[0]);
  const auto n1 = static_cast<ptrdiff_t>(shape[1]);
  const auto n2 = static_cast<ptrdiff_t>(shape[2]);
  ptrdiff_t local_n0 = 0, start0 = 0, local_n1 = 0, start1 = 0;
  const ptrdiff_t alloc =
      fftw_mpi_local_size_3d_transposed(n0, n1, n2, comm, &local_n0, &start0, &local_n1, &start1);
  data_ = reinterpret_cast<Complex*>(fftw_alloc_complex(static_cast<std::size_t>(alloc)));
  const auto u = [](ptrdiff_t v) { return static_cast<std::size_t>(v); };
  input_box_ = {{u(start0), 0, 0}, {u(local_n0), shape[1], shape[2]}};
  output_box_ =
      transposed_output ? Box3{{0, u(start1), 0}, {shape[0], u(local_n1), shape[2]}} : input_box_;
  auto* data = reinterpret_cast<fftw_complex*>(data_);
  const unsigned flags = fftw_flags(rigor);
  forward_ = fftw_mpi_plan_dft_3d(n0, n1, n2, data, data, comm, FFTW_FORWARD,
                                  flags | (transposed_output ? FFTW_MPI_TRANSPOSED_OUT : 0));
  backward_ = fftw_mpi_plan_dft_3d(n0, n1, n2, data, data, comm, FFTW_BACKWARD,
                                   flags | (transposed_output ? FFTW_MPI_TRANSPOSED_IN : 0));
  if (forward_ == nullptr || backward_ == nullptr) {
    release();  // the destructor does not run for a constructor that throws
    throw std::runtime_error("FFTW-MPI could not plan " + shape_to_string(shape));
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
  const ScopedPhase timed(timer_, "compute");
  fftw_execute(forward_);
}

void FftwMpi3d::backward() {
  const ScopedPhase timed(timer_, "compute");
  fftw_execute(backward_);
}

std::vector<Complex> FftwMpi3d::output_in_natural_order() const {
  const Shape3& e = output_box_.extent;
  std::vector<Complex> natural(output_box_.elements());
  if (!transposed_output_) {
    std::copy(data_, data_ + natural.size(), natural.begin());
    return natural;
  }
  // Stored [local n1][n0][n2]; natural is [n0][local n1][n2].
  for (std::size_t j = 0; j < e[1]; ++j) {
    for (std::size_t i = 0; i < e[0]; ++i) {
      std::copy_n(data_ + (j * e[0] + i) * e[2], e[2],
                  natural.begin() + static_cast<std::ptrdiff_t>((i * e[1] + j) * e[2]));
    }
  }
  return natural;
}

std::vector<Complex> FftwMpi3d::gather_output() const {
  const std::vector<Complex> natural = output_in_natural_order();
  return gather_global(natural.data(), output_box_, shape_, comm_);
}

std::string FftwMpi3d::describe() const {
  return transposed_output_ ? "fftw_mpi_plan_dft_3d(TRANSPOSED_OUT)" : "fftw_mpi_plan_dft_3d";
}

FftwMpi1d::FftwMpi1d(MPI_Comm comm, std::size_t n, Rigor rigor) : comm_(comm), n_(n) {
  ensure_fftw_mpi_initialized();
  const auto length = static_cast<ptrdiff_t>(n);
  ptrdiff_t local_ni = 0, start_i = 0, local_no = 0, start_o = 0;
  const ptrdiff_t alloc = fftw_mpi_local_size_1d(length, comm, FFTW_FORWARD, fftw_flags(rigor),
                                                 &local_ni, &start_i, &local_no, &start_o);
  const auto u = [](ptrdiff_t v) { return static_cast<std::size_t>(v); };
  input_box_ = {{0, 0, u(start_i)}, {1, 1, u(local_ni)}};
  output_box_ = {{0, 0, u(start_o)}, {1, 1, u(local_no)}};
  in_ = reinterpret_cast<Complex*>(fftw_alloc_complex(u(std::max<ptrdiff_t>(alloc, 1))));
  out_ = reinterpret_cast<Complex*>(fftw_alloc_complex(u(std::max<ptrdiff_t>(alloc, 1))));
  auto* in = reinterpret_cast<fftw_complex*>(in_);
  auto* out = reinterpret_cast<fftw_complex*>(out_);
  forward_ = fftw_mpi_plan_dft_1d(length, in, out, comm, FFTW_FORWARD, fftw_flags(rigor));
  backward_ = fftw_mpi_plan_dft_1d(length, out, in, comm, FFTW_BACKWARD, fftw_flags(rigor));
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
  const ScopedPhase timed(timer_, "compute");
  fftw_execute(forward_);
}

void FftwMpi1d::backward() {
  const ScopedPhase timed(timer_, "compute");
  fftw_execute(backward_);
}

std::vector<Complex> FftwMpi1d::gather_output() const {
  return gather_global(out_, output_box_, {1, 1, n_}, comm_);
}

}  // namespace a2afft::fft
