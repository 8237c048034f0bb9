/** @file
 * a2afft's C API: the distributed 3D and 1D FFTs of a2afft/fft3d.hpp and fft1d.hpp,
 * for C, and for Fortran through ISO_C_BINDING (the _f functions take a Fortran communicator).
 *
 *     a2afft_fft3d plan;
 *     size_t shape[3] = {64, 64, 64};
 *     if (a2afft_fft3d_create(MPI_COMM_WORLD, shape, NULL, &plan) != A2AFFT_SUCCESS) {
 *       fprintf(stderr, "%s\n", a2afft_error_message());
 *       MPI_Abort(MPI_COMM_WORLD, 2);
 *     }
 *     a2afft_complex* data = malloc(a2afft_fft3d_in_place_elements(plan) * sizeof *data);
 *     a2afft_fft3d_forward(plan, data, data);
 *     a2afft_fft3d_destroy(&plan);
 *
 * Every function returns A2AFFT_SUCCESS or an error code; a2afft_error_message() then says
 * what went wrong on this thread, naming the bad value and what is valid. Functions that take a
 * plan are collective over its communicator unless noted. Creation checks its arguments on all
 * ranks together: a bad one makes every rank return the same error, so none waits forever. */
#ifndef A2AFFT_H
#define A2AFFT_H

#include <mpi.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Return codes. */
enum {
  A2AFFT_SUCCESS = 0,
  A2AFFT_ERROR_USAGE = 1,   /**< a bad argument, option, spec or layout: fix the call */
  A2AFFT_ERROR_MPI = 2,     /**< an MPI call failed */
  A2AFFT_ERROR_INTERNAL = 3 /**< anything else, e.g. out of memory */
};

/** Option values; they equal the C++ enumerators' values. @{ */
enum { A2AFFT_RIGOR_ESTIMATE = 0, A2AFFT_RIGOR_MEASURE = 1, A2AFFT_RIGOR_PATIENT = 2 };
enum { A2AFFT_SCALING_NONE = 0, A2AFFT_SCALING_FULL = 1, A2AFFT_SCALING_SYMMETRIC = 2 };
enum { A2AFFT_FFT3D_OUTPUT_TRANSPOSED = 0, A2AFFT_FFT3D_OUTPUT_NATURAL = 1 };
enum { A2AFFT_FFT1D_OUTPUT_NATURAL = 0, A2AFFT_FFT1D_OUTPUT_SCRAMBLED = 1 };
enum { A2AFFT_FFT2D_OUTPUT_TRANSPOSED = 0, A2AFFT_FFT2D_OUTPUT_NATURAL = 1 };
/** @} */
/** c2c, or r2c (real input; n/2+1 complex points along the last dimension, FFTW's way); R2R
 * (real in and out) is what `transforms` of cosine and sine axes only make. */
enum { A2AFFT_KIND_C2C = 0, A2AFFT_KIND_R2C = 1, A2AFFT_KIND_R2R = 2 };
/** The precision of the arrays: double (a2afft_complex) or float (a2afft_complex_float). */
enum { A2AFFT_PRECISION_DOUBLE = 0, A2AFFT_PRECISION_FLOAT = 1 };
/** The direction of a2afft_fft3d_execute and a2afft_fft1d_execute. */
enum { A2AFFT_FORWARD = 0, A2AFFT_BACKWARD = 1 };

/** One complex double, real part first: the layout of fftw_complex and of double _Complex. */
typedef double a2afft_complex[2];
/** One complex float: the layout of fftwf_complex and of float _Complex. */
typedef float a2afft_complex_float[2];

/** Opaque plans. @{ */
typedef struct a2afft_fft3d_plan* a2afft_fft3d;
typedef struct a2afft_fft1d_plan* a2afft_fft1d;
typedef struct a2afft_fft2d_plan* a2afft_fft2d;
typedef struct a2afft_exchange_plan* a2afft_exchange;
/** @} */

/** a2afft_fft3d_options.grid = {A2AFFT_GRID_TIMED, A2AFFT_GRID_TIMED}: planning times the
 * candidate process grids and keeps the fastest (as a2afft::timed_grid in a2afft/fft3d.hpp). */
#define A2AFFT_GRID_TIMED (-1)

/** threads = A2AFFT_THREADS_TIMED (any plan's options): planning times 1, 2, 4, ... threads up to
 * the cores each rank has and keeps the fastest (as a2afft::timed_threads in a2afft/fft.hpp); with
 * A2AFFT_GRID_TIMED, every grid with every count. Needs MPI_THREAD_FUNNELED. */
#define A2AFFT_THREADS_TIMED (-1)

/** Options of a 3D plan. Always fill them with a2afft_fft3d_options_init(), then change what you
 * need: it sets struct_size, so that fields added later never break a caller built earlier.
 * Strings are copied at creation; NULL means the default. */
typedef struct a2afft_fft3d_options {
  size_t struct_size;          /**< sizeof the struct, set by the _options_init call */
  int grid[2];                 /**< p0 x p1; {0, 0}: chosen (the most square, p0 >= p1);
                                    {A2AFFT_GRID_TIMED, A2AFFT_GRID_TIMED}: the candidate grids
                                    timed, the fastest kept (a2afft::timed_grid) */
  const char* row_exchange;    /**< "auto" (default) or a backend spec, e.g. "pairwise" */
  const char* column_exchange; /**< likewise */
  int rigor;                   /**< A2AFFT_RIGOR_*; default MEASURE */
  int output;                  /**< A2AFFT_FFT3D_OUTPUT_*; default TRANSPOSED (fastest) */
  const char* wisdom_file;     /**< FFTW wisdom read before, written after planning; NULL: none */
  int scaling;                 /**< A2AFFT_SCALING_*; default NONE (as FFTW) */
  int kind;                    /**< A2AFFT_KIND_*; default C2C */
  int precision;               /**< A2AFFT_PRECISION_*; default DOUBLE */
  size_t batch;                /**< fields transformed together, interleaved (field fastest); 1 */
  /** What each axis does, slowest first: "dft", "r2c" (the last only), "dct1".."dct4",
   * "dst1".."dst4" (FFTW's REDFT00..RODFT11) or "none", comma-separated, e.g. "dct2,dft,r2c".
   * NULL (default): every axis dft, the last r2c for kind R2C. Cosine and sine axes alone make
   * an R2R plan: real arrays both ways (see a2afft::AxisKind in a2afft/fft.hpp). */
  const char* transforms;
  /** This rank's part of the input and of the output as the application holds them (bricks,
   * slabs, pencils, empty boxes; a2afft::Fft3dOptions::input_box): with has_input_box = 1,
   * the elements input_lower[d] .. input_lower[d] + input_size[d] - 1 of each dimension d,
   * stored with the dimensions ordered slowest to fastest as input_order says. forward()
   * reshapes them into the plan's pencils, and its output into the output box; 0 (default):
   * the plan's own boxes. The ranks' boxes must hold every point once. @{ */
  int has_input_box;
  size_t input_lower[3];
  size_t input_size[3];
  int input_order[3];
  int has_output_box;
  size_t output_lower[3];
  size_t output_size[3];
  int output_order[3];
  /** @} */
  const char* reshape_exchange; /**< the reshapes' variable-size exchange; NULL: "auto" */
  /** Padded (dealiased) transforms, one factor per axis, slowest first, e.g. {1.5, 1.5, 1.5}
   * for the 3/2 rule (mpi4py-fft's padding); 0 or 1: that axis is not padded (the default, all
   * 0: none). shape is then the spectrum's modes and the physical grid has floor(n * factor)
   * points per axis: backward pads the modes with zeros, forward truncates the grid to them,
   * and only the modes are exchanged (see a2afft::PlanOptions::padding in a2afft/fft.hpp). The
   * input box is a part of the padded grid. Needs the transposed output and no boxes. */
  double padding[3];
  /** Threads of each rank the plan runs on (a2afft::PlanOptions::threads), >= 1, or
   * A2AFFT_THREADS_TIMED; default 1. More than 1 needs MPI initialized with at least
   * MPI_THREAD_FUNNELED (MPI_Init_thread). */
  int threads;
} a2afft_fft3d_options;

/** Options of a 1D plan; fill them with a2afft_fft1d_options_init(). */
typedef struct a2afft_fft1d_options {
  size_t struct_size;      /**< sizeof the struct, set by the _options_init call */
  const char* exchange;    /**< "auto" (default) or a backend spec */
  size_t n1;               /**< the factor N1 of N = N1 * N2; 0 (default): chosen */
  int rigor;               /**< A2AFFT_RIGOR_*; default MEASURE */
  int output;              /**< A2AFFT_FFT1D_OUTPUT_*; default NATURAL */
  const char* wisdom_file; /**< NULL: none */
  int scaling;             /**< A2AFFT_SCALING_*; default NONE */
  int precision; /**< A2AFFT_PRECISION_*; default DOUBLE (no kind: c2c only, see docs/user-guide.md)
                  */
  size_t batch;  /**< fields transformed together, interleaved (field fastest); 1 */
  int threads;   /**< as a2afft_fft3d_options's; default 1 */
} a2afft_fft1d_options;

/** Options of a 2D plan; fill them with a2afft_fft2d_options_init(). */
typedef struct a2afft_fft2d_options {
  size_t struct_size;      /**< sizeof the struct, set by the _options_init call */
  const char* exchange;    /**< "auto" (default) or a backend spec: the one transpose's */
  int rigor;               /**< A2AFFT_RIGOR_*; default MEASURE */
  int output;              /**< A2AFFT_FFT2D_OUTPUT_*; default TRANSPOSED (fastest) */
  const char* wisdom_file; /**< NULL: none */
  int scaling;             /**< A2AFFT_SCALING_*; default NONE */
  int kind;                /**< A2AFFT_KIND_*; default C2C */
  int precision;           /**< A2AFFT_PRECISION_*; default DOUBLE */
  size_t batch;            /**< fields transformed together, interleaved (field fastest); 1 */
  const char* transforms;  /**< as a2afft_fft3d_options's, for two axes, e.g. "dst1,r2c" */
  double padding[2];       /**< as a2afft_fft3d_options's, for two axes; all 0: none */
  int threads;             /**< as a2afft_fft3d_options's; default 1 */
} a2afft_fft2d_options;

/** The defaults. Not collective. @{ */
void a2afft_fft3d_options_init(a2afft_fft3d_options* options);
void a2afft_fft1d_options_init(a2afft_fft1d_options* options);
void a2afft_fft2d_options_init(a2afft_fft2d_options* options);
/** @} */

/** What the last failing call on this thread said ("" if none failed). Valid until the next
 * failing call on this thread. Not collective. */
const char* a2afft_error_message(void);
/** The library's version, e.g. "0.1.0". Not collective. */
const char* a2afft_version(void);

/* ---- 3D FFT of n0 x n1 x n2 points on a p0 x p1 pencil grid (see a2afft/fft3d.hpp): c2c or
 * r2c, double or float, one field or a batch. A 2D FFT of n0 x n1 is the plan of shape
 * {1, n0, n1} with options.grid = {1, P}: the engine of the C++ a2afft::Fft2d (slabs, one
 * transpose), with the same output bits. ---- */

/** Plans the transform; `options` may be NULL for the defaults. On success *plan is the plan;
 * on failure it is NULL and nothing is left allocated. */
int a2afft_fft3d_create(MPI_Comm comm, const size_t shape[3], const a2afft_fft3d_options* options,
                        a2afft_fft3d* plan);
/** The same for Fortran, whose communicators are integers (MPI_Fint). */
int a2afft_fft3d_create_f(MPI_Fint comm, const size_t shape[3], const a2afft_fft3d_options* options,
                          a2afft_fft3d* plan);
/** Frees the plan and sets *plan to NULL; NULL is allowed. Collective: destroy plans in the
 * same order on every rank, before MPI_Finalize. */
int a2afft_fft3d_destroy(a2afft_fft3d* plan);

/** This rank's part of the input (row-major) and of the output, in global coordinates: the
 * elements lower[d] .. lower[d] + size[d] - 1 of each dimension d, stored with the dimensions
 * ordered slowest to fastest as order[] says ({0,1,2}: row-major; {1,0,2}: the two leading
 * dimensions swapped). Any of the arrays may be NULL. Not collective. @{ */
int a2afft_fft3d_input_box(a2afft_fft3d plan, size_t lower[3], size_t size[3], int order[3]);
int a2afft_fft3d_output_box(a2afft_fft3d plan, size_t lower[3], size_t size[3], int order[3]);
/** @} */
/** Scalars of the local input (complex, or real for r2c and r2r) and output (complex, or real for
 * r2r), times the batch; scalars of the output's type in an array for in-place transforms; the
 * same three in bytes; bytes of the plan's own work arrays. Not collective; 0 for a NULL plan.
 * @{ */
size_t a2afft_fft3d_input_elements(a2afft_fft3d plan);
size_t a2afft_fft3d_output_elements(a2afft_fft3d plan);
size_t a2afft_fft3d_in_place_elements(a2afft_fft3d plan);
size_t a2afft_fft3d_input_bytes(a2afft_fft3d plan);
size_t a2afft_fft3d_output_bytes(a2afft_fft3d plan);
size_t a2afft_fft3d_in_place_bytes(a2afft_fft3d plan);
size_t a2afft_fft3d_workspace_bytes(a2afft_fft3d plan);
/** @} */

/** Forward transform of `in` (the input box) into `out` (the output box): in place when
 * in == out (holding in_place_elements), else out of place (`in` only read). Arrays 16-byte
 * aligned (malloc and fftw_malloc are). backward goes from the output box to the input box. @{ */
int a2afft_fft3d_forward(a2afft_fft3d plan, const a2afft_complex* in, a2afft_complex* out);
int a2afft_fft3d_backward(a2afft_fft3d plan, const a2afft_complex* in, a2afft_complex* out);
/** @} */
/** Any kind and precision (the two above are for c2c double plans only): `direction` is
 * A2AFFT_FORWARD (in: the input box, of doubles/floats for r2c and r2r, else complex; out: the
 * output box, complex, or real for r2r) or A2AFFT_BACKWARD (the other way). `in_bytes` and
 * `out_bytes` say how much the arrays hold; an array smaller than its side needs on any rank is an
 * error on every rank (A2AFFT_ERROR_USAGE, naming the rank and the sizes), and nothing is written.
 */
int a2afft_fft3d_execute(a2afft_fft3d plan, int direction, const void* in, size_t in_bytes,
                         void* out, size_t out_bytes);

/** Which exchanges run, e.g. "row=-,column=auto→pairwise"; owned by the plan. Not collective. */
const char* a2afft_fft3d_describe(a2afft_fft3d plan);
/** Seconds this rank spent in transposes and in FFTs during the last forward or backward. */
int a2afft_fft3d_last_times(a2afft_fft3d plan, double* transpose_seconds, double* compute_seconds);

/* ---- 1D c2c FFT of length N by the six-step algorithm (see a2afft/fft1d.hpp): double or
 * float, one field or a batch. ---- */

/** Plans, for C and for Fortran, and frees a 1D plan, as the 3D calls do. @{ */
int a2afft_fft1d_create(MPI_Comm comm, size_t n, const a2afft_fft1d_options* options,
                        a2afft_fft1d* plan);
int a2afft_fft1d_create_f(MPI_Fint comm, size_t n, const a2afft_fft1d_options* options,
                          a2afft_fft1d* plan);
int a2afft_fft1d_destroy(a2afft_fft1d* plan);
/** @} */

/** This rank holds input points input_offset .. input_offset + local_elements / batch - 1, and
 * as many output points; output point i is X[output_index(i)] (input_offset + i when the
 * output is natural). local_elements counts complex numbers: points times the batch, field f
 * of point i at i * batch + f. Any pointer may be NULL. Not collective. @{ */
int a2afft_fft1d_local(a2afft_fft1d plan, size_t* local_elements, size_t* input_offset);
size_t a2afft_fft1d_output_index(a2afft_fft1d plan, size_t i);
/** @} */
/** Bytes of the local input and output alike (and of an in-place array), in the plan's
 * precision; bytes of the plan's own work arrays. Not collective; 0 for a NULL plan. @{ */
size_t a2afft_fft1d_local_bytes(a2afft_fft1d plan);
size_t a2afft_fft1d_workspace_bytes(a2afft_fft1d plan);
/** @} */

/** For double plans only; a2afft_fft1d_execute takes either precision. @{ */
int a2afft_fft1d_forward(a2afft_fft1d plan, const a2afft_complex* in, a2afft_complex* out);
int a2afft_fft1d_backward(a2afft_fft1d plan, const a2afft_complex* in, a2afft_complex* out);
/** @} */
/** Either precision (a2afft_complex or a2afft_complex_float arrays), as a2afft_fft3d_execute:
 * `direction` A2AFFT_FORWARD or A2AFFT_BACKWARD; an array smaller than local_bytes on any
 * rank is an error on every rank, and nothing is written. */
int a2afft_fft1d_execute(a2afft_fft1d plan, int direction, const void* in, size_t in_bytes,
                         void* out, size_t out_bytes);

/** `sixstep(N1=..,N2=..): <exchange>`, owned by the plan; seconds of transposes and FFTs of
 * the last call on this rank, as the 3D calls. @{ */
const char* a2afft_fft1d_describe(a2afft_fft1d plan);
int a2afft_fft1d_last_times(a2afft_fft1d plan, double* transpose_seconds, double* compute_seconds);
/** @} */

/* ---- 2D FFT of n0 x n1 points on slabs (see a2afft/fft2d.hpp): c2c or r2c, double or float,
 * one field or a batch; the same engine and output bits as a 3D plan of {1, n0, n1} on a 1 x P
 * grid. Each call means what its a2afft_fft3d_ namesake does, with two dimensions. ---- */

/** Each means what its a2afft_fft3d_ namesake does, with two dimensions (boxes of two). @{ */
int a2afft_fft2d_create(MPI_Comm comm, const size_t shape[2], const a2afft_fft2d_options* options,
                        a2afft_fft2d* plan);
int a2afft_fft2d_create_f(MPI_Fint comm, const size_t shape[2], const a2afft_fft2d_options* options,
                          a2afft_fft2d* plan);
int a2afft_fft2d_destroy(a2afft_fft2d* plan);
int a2afft_fft2d_input_box(a2afft_fft2d plan, size_t lower[2], size_t size[2], int order[2]);
int a2afft_fft2d_output_box(a2afft_fft2d plan, size_t lower[2], size_t size[2], int order[2]);
size_t a2afft_fft2d_input_elements(a2afft_fft2d plan);
size_t a2afft_fft2d_output_elements(a2afft_fft2d plan);
size_t a2afft_fft2d_in_place_elements(a2afft_fft2d plan);
size_t a2afft_fft2d_input_bytes(a2afft_fft2d plan);
size_t a2afft_fft2d_output_bytes(a2afft_fft2d plan);
size_t a2afft_fft2d_in_place_bytes(a2afft_fft2d plan);
size_t a2afft_fft2d_workspace_bytes(a2afft_fft2d plan);
int a2afft_fft2d_forward(a2afft_fft2d plan, const a2afft_complex* in, a2afft_complex* out);
int a2afft_fft2d_backward(a2afft_fft2d plan, const a2afft_complex* in, a2afft_complex* out);
int a2afft_fft2d_execute(a2afft_fft2d plan, int direction, const void* in, size_t in_bytes,
                         void* out, size_t out_bytes);
int a2afft_fft2d_last_times(a2afft_fft2d plan, double* transpose_seconds, double* compute_seconds);
/** @} */
/** The one transpose's exchange (an exchange's describe), or "-" on one rank. */
const char* a2afft_fft2d_describe(a2afft_fft2d plan);

/* ---- The all-to-all alone (see a2afft/exchange.hpp): MPI_Alltoall semantics on blocks of
 * block_bytes bytes, through any backend. ---- */

/** Plans the exchange of `spec` ("auto", "pairwise", "tra:radix=4", ...; NULL: "auto") for
 * blocks of `block_bytes` among the ranks of `comm`. Collective, the same arguments on every
 * rank; on failure *exchange is NULL, every rank gets the same code and message. @{ */
int a2afft_exchange_create(MPI_Comm comm, size_t block_bytes, const char* spec,
                           a2afft_exchange* exchange);
int a2afft_exchange_create_f(MPI_Fint comm, size_t block_bytes, const char* spec,
                             a2afft_exchange* exchange);
/** @} */
/** Frees the exchange and sets *exchange to NULL; NULL is allowed. Collective. */
int a2afft_exchange_destroy(a2afft_exchange* exchange);
/** `send` holds one block per rank (block j goes to rank j); afterwards `recv` block j holds
 * what rank j sent. Both hold buffer_bytes; they must not overlap. Collective. */
int a2afft_exchange_run(a2afft_exchange exchange, const void* send, void* recv);
/** Bytes of the send and of the receive buffer (ranks times block_bytes); 0 for NULL. */
size_t a2afft_exchange_buffer_bytes(a2afft_exchange exchange);
/** The resolved backend, e.g. "auto→tra(radix=4)"; owned by the exchange. Not collective. */
const char* a2afft_exchange_describe(a2afft_exchange exchange);

#ifdef __cplusplus
}
#endif

#endif /* A2AFFT_H */
