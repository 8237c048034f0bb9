/* A 3D FFT with a2afft from C: the plane-wave check of fft3d_hello.cpp through a2afft.h.
 * Forward turns the wave into one spike of height N; backward (full scaling) brings it back.
 * Prints the plan and PASS or FAIL; exits non-zero on failure.
 *
 *     mpiexec -n 4 ./fft3d_hello_c [exchange spec]     (default: auto) */

#include <mpi.h>

#include <a2afft/a2afft.h>

#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const size_t shape[3] = {32, 24, 20}, wave[3] = {3, 5, 7};

/* The position of global element `at` in a box stored with dimensions ordered as `order`. */
static size_t local_index(const size_t lower[3], const size_t size[3], const int order[3],
                          const size_t at[3]) {
  size_t index = 0;
  for (int d = 0; d < 3; ++d)
    index = index * size[order[d]] + (at[order[d]] - lower[order[d]]);
  return index;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);

  a2afft_fft3d_options options;
  a2afft_fft3d_options_init(&options);
  options.scaling = A2AFFT_SCALING_FULL;
  if (argc > 1) options.row_exchange = options.column_exchange = argv[1];
  a2afft_fft3d plan;
  if (a2afft_fft3d_create(MPI_COMM_WORLD, shape, &options, &plan) != A2AFFT_SUCCESS) {
    if (rank == 0) printf("FAIL: %s\n", a2afft_error_message()); /* the same on every rank */
    MPI_Finalize();
    return 1;
  }

  size_t in_lower[3], in_size[3], out_lower[3], out_size[3], at[3];
  int in_order[3], out_order[3];
  a2afft_fft3d_input_box(plan, in_lower, in_size, in_order);
  a2afft_fft3d_output_box(plan, out_lower, out_size, out_order);
  const size_t in_elements = a2afft_fft3d_input_elements(plan);
  const size_t out_elements = a2afft_fft3d_output_elements(plan);
  /* malloc(0) may give NULL: the plan accepts NULL for an empty box. */
  double complex* x = malloc(in_elements * sizeof *x);
  double complex* spectrum = malloc(out_elements * sizeof *spectrum);
  double complex* back = malloc(in_elements * sizeof *back);

  for (at[0] = in_lower[0]; at[0] < in_lower[0] + in_size[0]; ++at[0])
    for (at[1] = in_lower[1]; at[1] < in_lower[1] + in_size[1]; ++at[1])
      for (at[2] = in_lower[2]; at[2] < in_lower[2] + in_size[2]; ++at[2]) {
        double phase = 0;
        for (int d = 0; d < 3; ++d)
          phase += (double)(wave[d] * at[d]) / (double)shape[d];
        x[local_index(in_lower, in_size, in_order, at)] = cexp(2 * acos(-1.0) * I * phase);
      }

  /* double complex has the layout of a2afft_complex (and fftw_complex). */
  int status = a2afft_fft3d_forward(plan, (a2afft_complex*)x, (a2afft_complex*)spectrum);
  const double points = (double)(shape[0] * shape[1] * shape[2]);
  double errors[2] = {0, 0}; /* spectrum, round trip */
  for (at[0] = out_lower[0]; at[0] < out_lower[0] + out_size[0]; ++at[0])
    for (at[1] = out_lower[1]; at[1] < out_lower[1] + out_size[1]; ++at[1])
      for (at[2] = out_lower[2]; at[2] < out_lower[2] + out_size[2]; ++at[2]) {
        const int spike = at[0] == wave[0] && at[1] == wave[1] && at[2] == wave[2];
        const double error =
            cabs(spectrum[local_index(out_lower, out_size, out_order, at)] - (spike ? points : 0));
        if (error / points > errors[0]) errors[0] = error / points;
      }
  if (status == A2AFFT_SUCCESS) {
    status = a2afft_fft3d_backward(plan, (a2afft_complex*)spectrum, (a2afft_complex*)back);
  }
  for (size_t e = 0; e < in_elements; ++e)
    if (cabs(back[e] - x[e]) > errors[1]) errors[1] = cabs(back[e] - x[e]);
  MPI_Allreduce(MPI_IN_PLACE, errors, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);

  const int pass = status == A2AFFT_SUCCESS && errors[0] < 1e-12 && errors[1] < 1e-12;
  if (rank == 0) {
    printf("fft3d from C: 32x24x20, %d ranks, %s\n", ranks, a2afft_fft3d_describe(plan));
    if (status != A2AFFT_SUCCESS) printf("FAIL: %s\n", a2afft_error_message());
    printf("%s: spectrum error %.1e, round-trip error %.1e\n", pass ? "PASS" : "FAIL", errors[0],
           errors[1]);
  }
  a2afft_fft3d_destroy(&plan);
  free(x);
  free(spectrum);
  free(back);
  MPI_Finalize();
  return pass ? 0 : 1;
}
