// A 3D FFT with a2afft: plan it, transform a plane wave forward (its spectrum is one spike of
// height N at the wave's frequency), transform back (with full scaling, the wave itself), and
// check both. Prints the plan and PASS or FAIL; exits non-zero on failure.
//
//     mpiexec -n 4 ./fft3d_hello [exchange spec]     (default: auto)

#include <mpi.h>

#include <a2afft/a2afft.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

using Index = std::array<std::size_t, 3>;

// Calls visit(global index) for every element of `box`.
template <typename Visit>
void for_each_index(const a2afft::Box3& box, Visit visit) {
  for (std::size_t i = box.lower[0]; i < box.lower[0] + box.size[0]; ++i)
    for (std::size_t j = box.lower[1]; j < box.lower[1] + box.size[1]; ++j)
      for (std::size_t k = box.lower[2]; k < box.lower[2] + box.size[2]; ++k)
        visit(Index{i, j, k});
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  int status = 0;
  try {
    const Index shape{32, 24, 20}, wave{3, 5, 7};
    a2afft::Fft3dOptions options;
    options.row_exchange = options.column_exchange = argc > 1 ? argv[1] : "auto";
    options.scaling = a2afft::Scaling::full;  // backward(forward(x)) = x
    a2afft::Fft3d fft(MPI_COMM_WORLD, shape, options);

    // x = exp(2 pi i (3 i / 32 + 5 j / 24 + 7 k / 20)) on this rank's input box.
    const a2afft::Box3 in = fft.input_box(), out = fft.output_box();
    std::vector<a2afft::Complex> x(fft.input_elements()), spectrum(fft.output_elements()),
        back(fft.input_elements());
    const auto plane_wave = [&](const Index& at) {
      double phase = 0;
      for (int d = 0; d < 3; ++d)
        phase += double(wave[d] * at[d]) / double(shape[d]);
      return std::polar(1.0, 2 * std::acos(-1.0) * phase);
    };
    for_each_index(in, [&](const Index& at) { x[in.local_index(at)] = plane_wave(at); });

    fft.forward(x.data(), spectrum.data());
    double errors[2] = {0, 0};  // spectrum, round trip
    const double points = double(shape[0] * shape[1] * shape[2]);
    for_each_index(out, [&](const Index& at) {
      const double expected = at == wave ? points : 0.0;
      errors[0] = std::max(errors[0], std::abs(spectrum[out.local_index(at)] - expected) / points);
    });
    fft.backward(spectrum.data(), back.data());
    for (std::size_t e = 0; e < x.size(); ++e)
      errors[1] = std::max(errors[1], std::abs(back[e] - x[e]));
    MPI_Allreduce(MPI_IN_PLACE, errors, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);

    const bool pass = errors[0] < 1e-12 && errors[1] < 1e-12;
    if (rank == 0) {
      std::printf("fft3d: 32x24x20, %d ranks, grid %dx%d, %s\n", ranks, fft.grid()[0],
                  fft.grid()[1], fft.describe().c_str());
      std::printf("%s: spectrum error %.1e, round-trip error %.1e\n", pass ? "PASS" : "FAIL",
                  errors[0], errors[1]);
    }
    status = pass ? 0 : 1;
  } catch (const a2afft::Error& error) {  // the same message on every rank
    if (rank == 0) std::printf("FAIL: %s\n", error.what());
    status = 1;
  }
  MPI_Finalize();
  return status;
}
