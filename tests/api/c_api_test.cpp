// The C API (a2afft/a2afft.h) as a C or Fortran program uses it: plans by handle, options by
// struct, results by return code. Written with GoogleTest for its checks; of a2afft it
// includes only a2afft.h. Under the sanitizers (scripts/run-tests --sanitize) LeakSanitizer also
// proves that failing calls leave nothing allocated.

#include <mpi.h>

#include <a2afft/a2afft.h>
#include <gtest/gtest.h>
#include <a2afft/fft2d.hpp>

#include "collective.hpp"

#include <cmath>
#include <complex>
#include <cstring>
#include <string>
#include <vector>

namespace {

using namespace a2afft::api_test;

using Complex = std::complex<double>;

a2afft_complex* cells(std::vector<Complex>& array) {
  return reinterpret_cast<a2afft_complex*>(array.data());
}

// A failing create must fail on every rank with `code`, leave the plan NULL and name `named`.
template <typename Create>
void expect_create_fails(Create create, int code, const std::string& named) {
  a2afft_fft3d plan = reinterpret_cast<a2afft_fft3d>(&plan);  // anything but NULL
  const int status = create(&plan);
  EXPECT_EQ(sum_over(status == code ? 1 : 0), size_of()) << named << ": status " << status;
  EXPECT_EQ(plan, nullptr) << named;
  const std::string message = a2afft_error_message();
  EXPECT_NE(message.find(named), std::string::npos) << message;
}

TEST(CApi, options_init_gives_the_documented_defaults) {
  a2afft_fft3d_options options;
  a2afft_fft3d_options_init(&options);
  EXPECT_EQ(options.struct_size, sizeof options);
  EXPECT_EQ(options.grid[0], 0);
  EXPECT_EQ(options.grid[1], 0);
  EXPECT_EQ(options.row_exchange, nullptr);
  EXPECT_EQ(options.rigor, A2AFFT_RIGOR_MEASURE);
  EXPECT_EQ(options.output, A2AFFT_FFT3D_OUTPUT_TRANSPOSED);
  EXPECT_EQ(options.scaling, A2AFFT_SCALING_NONE);
  EXPECT_EQ(options.threads, 1);
  a2afft_fft1d_options options1d;
  a2afft_fft1d_options_init(&options1d);
  EXPECT_EQ(options1d.struct_size, sizeof options1d);
  EXPECT_EQ(options1d.threads, 1);
  a2afft_fft2d_options options2d;
  a2afft_fft2d_options_init(&options2d);
  EXPECT_EQ(options2d.threads, 1);
  EXPECT_EQ(options1d.n1, 0u);
  EXPECT_EQ(options1d.output, A2AFFT_FFT1D_OUTPUT_NATURAL);
  EXPECT_NE(std::string(a2afft_version()), "");
}

TEST(CApi, a_3d_plan_transforms_out_of_place_and_in_place) {
  const size_t shape[3] = {8, 6, 5};
  a2afft_fft3d_options options;
  a2afft_fft3d_options_init(&options);
  options.row_exchange = "pairwise";
  options.column_exchange = "pairwise";
  options.rigor = A2AFFT_RIGOR_ESTIMATE;
  options.output = A2AFFT_FFT3D_OUTPUT_NATURAL;
  options.scaling = A2AFFT_SCALING_FULL;
  a2afft_fft3d plan = nullptr;
  ASSERT_EQ(sum_over(a2afft_fft3d_create(MPI_COMM_WORLD, shape, &options, &plan)), 0)
      << a2afft_error_message();
  size_t lower[3], size[3];
  int order[3];
  ASSERT_EQ(a2afft_fft3d_input_box(plan, lower, size, order), A2AFFT_SUCCESS);
  EXPECT_EQ(size[0] * size[1] * size[2], a2afft_fft3d_input_elements(plan));
  EXPECT_EQ(order[0], 0);
  EXPECT_EQ(sum_over(long(a2afft_fft3d_input_elements(plan))), 8 * 6 * 5);
  ASSERT_EQ(a2afft_fft3d_output_box(plan, nullptr, size, nullptr), A2AFFT_SUCCESS);
  EXPECT_EQ(sum_over(long(size[0] * size[1] * size[2])), 8 * 6 * 5);
  EXPECT_GE(a2afft_fft3d_in_place_elements(plan), a2afft_fft3d_input_elements(plan));
  EXPECT_GT(sum_over(long(a2afft_fft3d_workspace_bytes(plan))), 0);
  EXPECT_NE(std::string(a2afft_fft3d_describe(plan)).find("row="), std::string::npos);

  // A constant field: its spectrum is N at 0 and 0 elsewhere; with full scaling it comes back.
  std::vector<Complex> x(a2afft_fft3d_in_place_elements(plan), Complex{1.5, -0.5});
  std::vector<Complex> spectrum(x.size()), back(x.size());
  ASSERT_EQ(a2afft_fft3d_forward(plan, cells(x), cells(spectrum)), A2AFFT_SUCCESS);
  double error = 0;
  for (std::size_t e = 0; e < a2afft_fft3d_output_elements(plan); ++e) {
    const bool zero_frequency = rank_in() == 0 && e == 0;
    error = std::max(error, std::abs(spectrum[e] - (zero_frequency ? 240.0 * x[0] : Complex{})));
  }
  EXPECT_LT(max_over(error), 1e-12);
  ASSERT_EQ(a2afft_fft3d_backward(plan, cells(spectrum), cells(spectrum)), A2AFFT_SUCCESS);
  for (std::size_t e = 0; e < a2afft_fft3d_input_elements(plan); ++e)
    error = std::max(error, std::abs(spectrum[e] - x[e]));
  EXPECT_LT(max_over(error), 1e-12);
  double transpose_seconds = -1, compute_seconds = -1;
  EXPECT_EQ(a2afft_fft3d_last_times(plan, &transpose_seconds, &compute_seconds), A2AFFT_SUCCESS);
  EXPECT_GE(transpose_seconds, 0);
  EXPECT_GE(compute_seconds, 0);
  EXPECT_EQ(a2afft_fft3d_destroy(&plan), A2AFFT_SUCCESS);
  EXPECT_EQ(plan, nullptr);
  EXPECT_EQ(a2afft_fft3d_destroy(&plan), A2AFFT_SUCCESS);  // NULL is allowed
}

TEST(CApi, a_timed_grid_names_the_grid_that_won) {
  const size_t shape[3] = {8, 6, 5};
  a2afft_fft3d_options options;
  a2afft_fft3d_options_init(&options);
  options.grid[0] = A2AFFT_GRID_TIMED;
  options.grid[1] = A2AFFT_GRID_TIMED;
  options.row_exchange = "pairwise";
  options.column_exchange = "pairwise";
  options.rigor = A2AFFT_RIGOR_ESTIMATE;
  a2afft_fft3d plan = nullptr;
  ASSERT_EQ(sum_over(a2afft_fft3d_create(MPI_COMM_WORLD, shape, &options, &plan)), 0)
      << a2afft_error_message();
  EXPECT_NE(std::string(a2afft_fft3d_describe(plan)).find(" timed"), std::string::npos)
      << a2afft_fft3d_describe(plan);
  EXPECT_EQ(a2afft_fft3d_destroy(&plan), A2AFFT_SUCCESS);
  options.grid[1] = 1;  // half timed: one message naming the valid choices
  EXPECT_EQ(sum_over(a2afft_fft3d_create(MPI_COMM_WORLD, shape, &options, &plan)),
            size_of() * A2AFFT_ERROR_USAGE);
  EXPECT_NE(std::string(a2afft_error_message()).find("timed_grid"), std::string::npos)
      << a2afft_error_message();
}

// A 2D FFT from C (and Fortran): a 3D plan of {1, n0, n1} on a 1 x P grid is the engine of
// a2afft::Fft2d, one transpose; its output is that of the C++ Fft2d to the bit.
TEST(CApi, a_2d_transform_is_a_3d_plan_of_one_plane_on_a_1xp_grid) {
  const size_t shape[3] = {1, 7, 6};
  a2afft_fft3d_options options;
  a2afft_fft3d_options_init(&options);
  options.grid[0] = 1;
  options.grid[1] = size_of();
  options.row_exchange = "pairwise";
  options.column_exchange = "pairwise";
  options.rigor = A2AFFT_RIGOR_ESTIMATE;
  options.kind = A2AFFT_KIND_R2C;
  a2afft_fft3d plan = nullptr;
  ASSERT_EQ(sum_over(a2afft_fft3d_create(MPI_COMM_WORLD, shape, &options, &plan)), 0)
      << a2afft_error_message();
  EXPECT_NE(std::string(a2afft_fft3d_describe(plan)).find(",column=-"), std::string::npos)
      << a2afft_fft3d_describe(plan) << ": a second transpose runs";

  a2afft::Fft2dOptions flat;
  flat.exchange = "pairwise";
  flat.rigor = a2afft::Rigor::estimate;
  flat.kind = a2afft::Kind::r2c;
  a2afft::Fft2d fft(MPI_COMM_WORLD, {7, 6}, flat);
  ASSERT_EQ(fft.in_place_elements(), a2afft_fft3d_in_place_elements(plan));
  ASSERT_EQ(fft.output_elements(), a2afft_fft3d_output_elements(plan));

  std::vector<double> x(2 * fft.in_place_elements());
  for (std::size_t i = 0; i < fft.input_elements(); ++i)
    x[i] = std::sin(1.0 + double(i) + 10.0 * rank_in());
  std::vector<Complex> from_c(fft.in_place_elements()), from_cpp(fft.in_place_elements());
  const std::size_t real_bytes = fft.input_elements() * sizeof(double);
  ASSERT_EQ(a2afft_fft3d_execute(plan, A2AFFT_FORWARD, x.data(), real_bytes, from_c.data(),
                                 from_c.size() * sizeof(Complex)),
            A2AFFT_SUCCESS)
      << a2afft_error_message();
  fft.forward(x.data(), from_cpp.data());
  EXPECT_EQ(sum_over(std::memcmp(from_c.data(), from_cpp.data(), fft.output_bytes()) == 0 ? 0 : 1),
            0);
  EXPECT_EQ(a2afft_fft3d_destroy(&plan), A2AFFT_SUCCESS);
}

// The C 2D plan is the C++ Fft2d: the same boxes, the same one exchange, the same output bits
// (r2c float, a batch of 2, out of place, then back in place).
TEST(CApi, a_2d_plan_gives_fft2ds_boxes_and_bits) {
  const size_t shape[2] = {9, 8};
  a2afft_fft2d_options options;
  a2afft_fft2d_options_init(&options);
  EXPECT_EQ(options.struct_size, sizeof(options));
  EXPECT_EQ(options.output, A2AFFT_FFT2D_OUTPUT_TRANSPOSED);
  options.exchange = "pairwise";
  options.rigor = A2AFFT_RIGOR_ESTIMATE;
  options.kind = A2AFFT_KIND_R2C;
  options.precision = A2AFFT_PRECISION_FLOAT;
  options.batch = 2;
  a2afft_fft2d plan = nullptr;
  ASSERT_EQ(sum_over(a2afft_fft2d_create(MPI_COMM_WORLD, shape, &options, &plan)), 0)
      << a2afft_error_message();
  a2afft::Fft2dOptions flat;
  flat.exchange = "pairwise";
  flat.rigor = a2afft::Rigor::estimate;
  flat.kind = a2afft::Kind::r2c;
  flat.precision = a2afft::Precision::single_precision;
  flat.batch = 2;
  a2afft::Fft2d fft(MPI_COMM_WORLD, {9, 8}, flat);
  EXPECT_EQ(std::string(a2afft_fft2d_describe(plan)), fft.describe());
  size_t lower[2], size[2];
  int order[2];
  ASSERT_EQ(a2afft_fft2d_output_box(plan, lower, size, order), A2AFFT_SUCCESS);
  const a2afft::Box2 box = fft.output_box();
  EXPECT_TRUE(lower[0] == box.lower[0] && lower[1] == box.lower[1] && size[0] == box.size[0] &&
              size[1] == box.size[1] && order[0] == box.order[0] && order[1] == box.order[1]);
  ASSERT_EQ(a2afft_fft2d_output_bytes(plan), fft.output_bytes());
  ASSERT_EQ(a2afft_fft2d_in_place_bytes(plan), fft.in_place_bytes());

  std::vector<float> x(2 * fft.in_place_elements());
  for (std::size_t i = 0; i < fft.input_elements(); ++i)
    x[i] = float(std::cos(0.3 + double(i) + 7.0 * rank_in()));
  using ComplexFloat = std::complex<float>;
  std::vector<ComplexFloat> from_c(fft.in_place_elements()), from_cpp(fft.in_place_elements());
  ASSERT_EQ(a2afft_fft2d_execute(plan, A2AFFT_FORWARD, x.data(), a2afft_fft2d_input_bytes(plan),
                                 from_c.data(), from_c.size() * sizeof(ComplexFloat)),
            A2AFFT_SUCCESS)
      << a2afft_error_message();
  fft.forward(x.data(), from_cpp.data());
  EXPECT_EQ(sum_over(std::memcmp(from_c.data(), from_cpp.data(), fft.output_bytes()) == 0 ? 0 : 1),
            0);
  // c2c double only: the typed call of a float r2c plan is refused, on every rank.
  std::vector<Complex> wrong(fft.in_place_elements());
  EXPECT_EQ(
      sum_over(a2afft_fft2d_forward(plan, cells(wrong), cells(wrong)) == A2AFFT_ERROR_USAGE ? 1
                                                                                            : 0),
      size_of());
  EXPECT_EQ(a2afft_fft2d_destroy(&plan), A2AFFT_SUCCESS);
  EXPECT_EQ(plan, nullptr);
}

// The C exchange against MPI_Alltoall on blocks whose every byte encodes (source, destination,
// byte index), for a named backend and for auto; a bad spec fails on every rank, with no plan.
TEST(CApi, the_exchange_matches_mpi_alltoall_byte_for_byte) {
  const int ranks = size_of();
  const std::size_t block_bytes = 37;
  std::vector<unsigned char> send(ranks * block_bytes), expected(send.size());
  for (int to = 0; to < ranks; ++to)
    for (std::size_t b = 0; b < block_bytes; ++b)
      send[to * block_bytes + b] = static_cast<unsigned char>(rank_in() * 31 + to * 7 + b);
  MPI_Alltoall(send.data(), int(block_bytes), MPI_BYTE, expected.data(), int(block_bytes), MPI_BYTE,
               MPI_COMM_WORLD);
  for (const char* spec : {"pairwise", "tra:radix=2", "auto"}) {
    a2afft_exchange exchange = nullptr;
    ASSERT_EQ(sum_over(a2afft_exchange_create(MPI_COMM_WORLD, block_bytes, spec, &exchange)), 0)
        << spec << ": " << a2afft_error_message();
    ASSERT_EQ(a2afft_exchange_buffer_bytes(exchange), send.size());
    std::vector<unsigned char> recv(send.size(), 0xEE);
    ASSERT_EQ(a2afft_exchange_run(exchange, send.data(), recv.data()), A2AFFT_SUCCESS);
    EXPECT_EQ(sum_over(recv == expected ? 0 : 1), 0) << spec << " differs from MPI_Alltoall";
    EXPECT_NE(std::string(a2afft_exchange_describe(exchange)), "") << spec;
    EXPECT_EQ(a2afft_exchange_destroy(&exchange), A2AFFT_SUCCESS);
    EXPECT_EQ(exchange, nullptr);
  }
  a2afft_exchange bad = reinterpret_cast<a2afft_exchange>(&bad);
  EXPECT_EQ(sum_over(a2afft_exchange_create(MPI_COMM_WORLD, block_bytes, "tra:radix=banana",
                                            &bad) == A2AFFT_ERROR_USAGE
                         ? 1
                         : 0),
            ranks);
  EXPECT_EQ(bad, nullptr);
  EXPECT_NE(std::string(a2afft_error_message()).find("radix=banana"), std::string::npos)
      << a2afft_error_message();
  EXPECT_EQ(a2afft_exchange_run(nullptr, send.data(), send.data()), A2AFFT_ERROR_USAGE);
}

TEST(CApi, bad_options_give_a_code_and_a_message_on_every_rank_and_no_plan) {
  const size_t shape[3] = {8, 6, 5};
  a2afft_fft3d_options options;
  for (int round = 0; round < 3; ++round) {  // LeakSanitizer would see what each one left
    a2afft_fft3d_options_init(&options);
    options.struct_size = 0;
    expect_create_fails(
        [&](a2afft_fft3d* plan) {
          return a2afft_fft3d_create(MPI_COMM_WORLD, shape, &options, plan);
        },
        A2AFFT_ERROR_USAGE, "options->struct_size=0 is not valid");
    a2afft_fft3d_options_init(&options);
    options.rigor = 9;
    expect_create_fails(
        [&](a2afft_fft3d* plan) {
          return a2afft_fft3d_create(MPI_COMM_WORLD, shape, &options, plan);
        },
        A2AFFT_ERROR_USAGE, "rigor=9 is not valid; expected estimate (0), measure (1)");
    a2afft_fft3d_options_init(&options);
    options.row_exchange = "bogus";
    expect_create_fails(
        [&](a2afft_fft3d* plan) {
          return a2afft_fft3d_create(MPI_COMM_WORLD, shape, &options, plan);
        },
        A2AFFT_ERROR_USAGE, "unknown exchange 'bogus'");
    // threads reaches the plan: 0 is refused, and 2 under this program's MPI_Init (Open MPI:
    // MPI_THREAD_SINGLE) names the level it needs.
    a2afft_fft3d_options_init(&options);
    options.threads = 0;
    expect_create_fails(
        [&](a2afft_fft3d* plan) {
          return a2afft_fft3d_create(MPI_COMM_WORLD, shape, &options, plan);
        },
        A2AFFT_ERROR_USAGE, "PlanOptions::threads=0 is not valid");
    int provided = MPI_THREAD_SINGLE;
    MPI_Query_thread(&provided);
    if (provided < MPI_THREAD_FUNNELED) {
      a2afft_fft3d_options_init(&options);
      options.threads = 2;
      expect_create_fails(
          [&](a2afft_fft3d* plan) {
            return a2afft_fft3d_create(MPI_COMM_WORLD, shape, &options, plan);
          },
          A2AFFT_ERROR_USAGE, "needs MPI initialized with at least MPI_THREAD_FUNNELED");
      // A2AFFT_THREADS_TIMED reaches the plan as timed_threads, which needs the same level.
      options.threads = A2AFFT_THREADS_TIMED;
      expect_create_fails(
          [&](a2afft_fft3d* plan) {
            return a2afft_fft3d_create(MPI_COMM_WORLD, shape, &options, plan);
          },
          A2AFFT_ERROR_USAGE, "PlanOptions::threads=timed_threads needs MPI initialized");
    } else {  // an MPI whose MPI_Init gives more: the plan is made
      a2afft_fft3d_options_init(&options);
      options.threads = 2;
      a2afft_fft3d plan = nullptr;
      EXPECT_EQ(sum_over(a2afft_fft3d_create(MPI_COMM_WORLD, shape, &options, &plan)), 0);
      a2afft_fft3d_destroy(&plan);
    }
    a2afft_fft3d_options_init(&options);
    options.grid[0] = size_of() + 1;
    options.grid[1] = 1;
    expect_create_fails(
        [&](a2afft_fft3d* plan) {
          return a2afft_fft3d_create(MPI_COMM_WORLD, shape, &options, plan);
        },
        A2AFFT_ERROR_USAGE, "is not valid on " + std::to_string(size_of()) + " ranks");
    // Collective planning (auto's timing, FFTW's plans) fails after the exchanges exist.
    a2afft_fft3d_options_init(&options);
    options.wisdom_file = "/nonexistent-directory/wisdom";
    expect_create_fails(
        [&](a2afft_fft3d* plan) {
          return a2afft_fft3d_create(MPI_COMM_WORLD, shape, &options, plan);
        },
        A2AFFT_ERROR_USAGE, "wisdom_file=/nonexistent-directory/wisdom could not be written");
  }
  expect_create_fails(
      [&](a2afft_fft3d* plan) {
        return a2afft_fft3d_create(MPI_COMM_WORLD, nullptr, nullptr, plan);
      },
      A2AFFT_ERROR_USAGE, "shape is NULL");
  EXPECT_EQ(a2afft_fft3d_create(MPI_COMM_WORLD, shape, nullptr, nullptr), A2AFFT_ERROR_USAGE);
  EXPECT_NE(std::string(a2afft_error_message()).find("plan is NULL"), std::string::npos);
  // Calls on no plan.
  EXPECT_EQ(a2afft_fft3d_forward(nullptr, nullptr, nullptr), A2AFFT_ERROR_USAGE);
  EXPECT_NE(std::string(a2afft_error_message()).find("a2afft_fft3d_forward: plan is NULL"),
            std::string::npos);
  EXPECT_EQ(a2afft_fft3d_input_elements(nullptr), 0u);
  EXPECT_EQ(std::string(a2afft_fft3d_describe(nullptr)), "");
}

TEST(CApi, a_misaligned_array_fails_the_call_on_every_rank_and_the_plan_goes_on) {
  const size_t shape[3] = {4, 4, 4};
  a2afft_fft3d plan = nullptr;
  ASSERT_EQ(sum_over(a2afft_fft3d_create(MPI_COMM_WORLD, shape, nullptr, &plan)), 0);
  std::vector<Complex> data(a2afft_fft3d_in_place_elements(plan) + 1);
  auto* odd = reinterpret_cast<a2afft_complex*>(reinterpret_cast<char*>(data.data()) + 8);
  EXPECT_EQ(sum_over(a2afft_fft3d_forward(plan, odd, odd) == A2AFFT_ERROR_USAGE), size_of());
  EXPECT_NE(std::string(a2afft_error_message()).find("not 16-byte aligned"), std::string::npos);
  EXPECT_EQ(sum_over(a2afft_fft3d_forward(plan, cells(data), cells(data))), 0);
  a2afft_fft3d_destroy(&plan);
}

TEST(CApi, a_1d_plan_from_a_fortran_communicator) {
  const size_t p = static_cast<size_t>(size_of());
  const size_t n = 16 * p * p;
  a2afft_fft1d_options options;
  a2afft_fft1d_options_init(&options);
  options.output = A2AFFT_FFT1D_OUTPUT_SCRAMBLED;
  options.rigor = A2AFFT_RIGOR_ESTIMATE;
  options.exchange = "mpi";
  a2afft_fft1d plan = nullptr;
  ASSERT_EQ(sum_over(a2afft_fft1d_create_f(MPI_Comm_c2f(MPI_COMM_WORLD), n, &options, &plan)), 0)
      << a2afft_error_message();
  size_t local = 0, offset = 0;
  ASSERT_EQ(a2afft_fft1d_local(plan, &local, &offset), A2AFFT_SUCCESS);
  EXPECT_EQ(local, n / p);
  EXPECT_EQ(offset, size_t(rank_in()) * local);
  EXPECT_NE(std::string(a2afft_fft1d_describe(plan)).find("scrambled"), std::string::npos);
  // A delta at global index 1: X[k] = exp(-2 pi i k / N), wherever the scrambled k lands.
  std::vector<Complex> x(local), spectrum(local);
  if (offset <= 1 && 1 < offset + local) x[1 - offset] = 1.0;
  ASSERT_EQ(a2afft_fft1d_forward(plan, cells(x), cells(spectrum)), A2AFFT_SUCCESS);
  double error = 0;
  for (size_t i = 0; i < local; ++i) {
    const double k = double(a2afft_fft1d_output_index(plan, i));
    error = std::max(error, std::abs(spectrum[i] - std::polar(1.0, -2 * M_PI * k / double(n))));
  }
  EXPECT_LT(max_over(error), 1e-12);
  EXPECT_EQ(a2afft_fft1d_destroy(&plan), A2AFFT_SUCCESS);
  EXPECT_EQ(plan, nullptr);

  a2afft_fft1d bad = nullptr;
  EXPECT_EQ(sum_over(a2afft_fft1d_create(MPI_COMM_WORLD, 0, nullptr, &bad)),
            A2AFFT_ERROR_USAGE * size_of());
  EXPECT_EQ(bad, nullptr);
  EXPECT_NE(std::string(a2afft_error_message()).find("N=0"), std::string::npos)
      << a2afft_error_message();
}

}  // namespace

namespace {

// An r2c float plan through a2afft_fft3d_execute: a plane wave's spectrum, the round trip, and
// on one rank an output array one byte short, which must fail the call on every rank (naming
// the sizes) and write nothing; the plan still works afterwards. A batch of 0 fails creation.
// Cosine transforms on every axis (transforms "dct2,dct2,dct2"): real arrays both ways. DCT-II
// of cos(pi m (j + 1/2) / n) along an axis of n points is n at mode m and 0 elsewhere, so
// x = product over the axes of those cosines gives n0 n1 n2 at (1, 2, 3) alone; full scaling
// brings x back. A word that is not a transform fails on every rank, naming it.
// The application's own boxes from C: slabs of dimension 1 in, slabs of dimension 2 out stored
// in the reverse order. x = exp(2 pi i (a/6 + 2b/4 + 3c/5)) has one mode, N at (1, 2, 3); full
// scaling brings x back.
TEST(CApi, the_applications_boxes_reshaped_in_and_out) {
  const size_t shape[3] = {6, 4, 5};
  const int rank = rank_in(), ranks = size_of();
  const auto part = [&](size_t n, size_t* lower, size_t* size) {
    const size_t base = n / size_t(ranks), extra = n % size_t(ranks), r = size_t(rank);
    *lower = r * base + std::min(r, extra);
    *size = base + (r < extra ? 1 : 0);
  };
  a2afft_fft3d_options options;
  a2afft_fft3d_options_init(&options);
  EXPECT_EQ(options.has_input_box, 0);
  EXPECT_EQ(options.output_order[2], 2);
  options.rigor = A2AFFT_RIGOR_ESTIMATE;
  options.scaling = A2AFFT_SCALING_FULL;
  options.has_input_box = options.has_output_box = 1;
  for (int d = 0; d < 3; ++d) {
    options.input_lower[d] = options.output_lower[d] = 0;
    options.input_size[d] = options.output_size[d] = shape[d];
    options.output_order[d] = 2 - d;
  }
  part(shape[1], &options.input_lower[1], &options.input_size[1]);
  part(shape[2], &options.output_lower[2], &options.output_size[2]);
  a2afft_fft3d plan = nullptr;
  ASSERT_EQ(sum_over(a2afft_fft3d_create(MPI_COMM_WORLD, shape, &options, &plan)), 0)
      << a2afft_error_message();
  size_t lower[3], size[3];
  int order[3];
  ASSERT_EQ(a2afft_fft3d_input_box(plan, lower, size, order), A2AFFT_SUCCESS);
  EXPECT_EQ(sum_over(size[1] == options.input_size[1] ? 0 : 1), 0);
  std::vector<Complex> x(a2afft_fft3d_input_elements(plan));
  for (size_t a = 0; a < size[0]; ++a)
    for (size_t b = 0; b < size[1]; ++b)
      for (size_t c = 0; c < size[2]; ++c)
        x[(a * size[1] + b) * size[2] + c] =
            std::exp(Complex(0, 2 * M_PI *
                                    (double(lower[0] + a) / 6 + 2.0 * double(lower[1] + b) / 4 +
                                     3.0 * double(lower[2] + c) / 5)));
  std::vector<Complex> spectrum(std::max<size_t>(1, a2afft_fft3d_output_elements(plan)));
  ASSERT_EQ(sum_over(a2afft_fft3d_forward(plan, cells(x), cells(spectrum))), 0)
      << a2afft_error_message();
  ASSERT_EQ(a2afft_fft3d_output_box(plan, lower, size, order), A2AFFT_SUCCESS);
  EXPECT_EQ(order[0], 2);
  double worst = 0;
  for (size_t a = 0; a < size[0]; ++a)
    for (size_t b = 0; b < size[1]; ++b)
      for (size_t c = 0; c < size[2]; ++c) {
        const bool mode = lower[0] + a == 1 && lower[1] + b == 2 && lower[2] + c == 3;
        const Complex want = mode ? Complex(6.0 * 4 * 5) : Complex(0);
        worst = std::max(worst, std::abs(spectrum[(c * size[1] + b) * size[0] + a] - want));
      }
  EXPECT_LT(max_over(worst), 1e-11);
  std::vector<Complex> back(x.size());
  ASSERT_EQ(sum_over(a2afft_fft3d_backward(plan, cells(spectrum), cells(back))), 0);
  worst = 0;
  for (size_t i = 0; i < x.size(); ++i)
    worst = std::max(worst, std::abs(back[i] - x[i]));
  EXPECT_LT(max_over(worst), 1e-13);
  EXPECT_EQ(a2afft_fft3d_destroy(&plan), A2AFFT_SUCCESS);
}

TEST(CApi, cosine_transforms_by_name_are_real_to_real) {
  const size_t shape[3] = {6, 4, 5};
  a2afft_fft3d_options options;
  a2afft_fft3d_options_init(&options);
  EXPECT_EQ(options.transforms, nullptr);
  options.transforms = "dct2,dct2,dct2";
  options.rigor = A2AFFT_RIGOR_ESTIMATE;
  options.scaling = A2AFFT_SCALING_FULL;
  a2afft_fft3d plan = nullptr;
  ASSERT_EQ(sum_over(a2afft_fft3d_create(MPI_COMM_WORLD, shape, &options, &plan)), 0)
      << a2afft_error_message();
  EXPECT_EQ(a2afft_fft3d_output_bytes(plan), a2afft_fft3d_output_elements(plan) * sizeof(double));
  size_t lower[3], size[3];
  ASSERT_EQ(a2afft_fft3d_input_box(plan, lower, size, nullptr), A2AFFT_SUCCESS);
  const auto wave = [&](size_t axis, size_t j, int mode) {
    return std::cos(M_PI * mode * (double(j) + 0.5) / double(shape[axis]));
  };
  std::vector<double> x(a2afft_fft3d_input_elements(plan));
  for (size_t i = 0; i < size[0]; ++i)
    for (size_t j = 0; j < size[1]; ++j)
      for (size_t k = 0; k < size[2]; ++k)
        x[(i * size[1] + j) * size[2] + k] =
            wave(0, lower[0] + i, 1) * wave(1, lower[1] + j, 2) * wave(2, lower[2] + k, 3);
  std::vector<double> spectrum(a2afft_fft3d_output_elements(plan));
  ASSERT_EQ(sum_over(a2afft_fft3d_execute(plan, A2AFFT_FORWARD, x.data(), x.size() * 8,
                                          spectrum.data(), spectrum.size() * 8)),
            0)
      << a2afft_error_message();
  size_t out_lower[3], out_size[3];
  int order[3];
  ASSERT_EQ(a2afft_fft3d_output_box(plan, out_lower, out_size, order), A2AFFT_SUCCESS);
  double worst = 0;
  for (size_t i = 0; i < out_size[0]; ++i)
    for (size_t j = 0; j < out_size[1]; ++j)
      for (size_t k = 0; k < out_size[2]; ++k) {
        const size_t at[3] = {i, j, k};
        const size_t local =
            (at[order[0]] * out_size[order[1]] + at[order[1]]) * out_size[order[2]] + at[order[2]];
        const bool mode = out_lower[0] + i == 1 && out_lower[1] + j == 2 && out_lower[2] + k == 3;
        worst = std::max(worst, std::abs(spectrum[local] - (mode ? 6.0 * 4 * 5 : 0.0)));
      }
  EXPECT_LT(max_over(worst), 1e-11);
  std::vector<double> back(x.size());
  ASSERT_EQ(sum_over(a2afft_fft3d_execute(plan, A2AFFT_BACKWARD, spectrum.data(),
                                          spectrum.size() * 8, back.data(), back.size() * 8)),
            0);
  worst = 0;
  for (size_t i = 0; i < x.size(); ++i)
    worst = std::max(worst, std::abs(back[i] - x[i]));
  EXPECT_LT(max_over(worst), 1e-13);
  EXPECT_EQ(a2afft_fft3d_destroy(&plan), A2AFFT_SUCCESS);

  options.transforms = "dct2,bogus,r2c";
  expect_create_fails(
      [&](a2afft_fft3d* made) {
        return a2afft_fft3d_create(MPI_COMM_WORLD, shape, &options, made);
      },
      A2AFFT_ERROR_USAGE, "options->transforms: transform 'bogus'");
}

// options.padding (issue 33): one mode of the spectrum, backward, is that plane wave on the
// padded grid (the input box is a part of it), and forward brings the mode back, times the
// grid's points; the input elements of all ranks make up the padded grid.
TEST(CApi, padding_puts_a_mode_on_the_padded_grid) {
  const size_t shape[3] = {6, 4, 5};
  const size_t padded[3] = {9, 6, 7};  // floor(1.5 n)
  const size_t mode[3] = {1, 3, 4};    // frequencies 1, -1 and -1
  a2afft_fft3d_options options;
  a2afft_fft3d_options_init(&options);
  EXPECT_EQ(options.padding[0], 0.0);
  options.padding[0] = options.padding[1] = options.padding[2] = 1.5;
  options.rigor = A2AFFT_RIGOR_ESTIMATE;
  a2afft_fft3d plan = nullptr;
  ASSERT_EQ(sum_over(a2afft_fft3d_create(MPI_COMM_WORLD, shape, &options, &plan)), 0)
      << a2afft_error_message();
  EXPECT_EQ(sum_over(long(a2afft_fft3d_input_elements(plan))), 9 * 6 * 7);
  EXPECT_EQ(sum_over(long(a2afft_fft3d_output_elements(plan))), 6 * 4 * 5);
  size_t out_lower[3], out_size[3], lower[3], size[3];
  int order[3];
  ASSERT_EQ(a2afft_fft3d_output_box(plan, out_lower, out_size, order), A2AFFT_SUCCESS);
  ASSERT_EQ(a2afft_fft3d_input_box(plan, lower, size, nullptr), A2AFFT_SUCCESS);
  std::vector<std::complex<double>> spectrum(a2afft_fft3d_output_elements(plan));
  const auto local_of = [&](size_t i, size_t j, size_t k) {
    const size_t at[3] = {i, j, k};
    return (at[order[0]] * out_size[order[1]] + at[order[1]]) * out_size[order[2]] + at[order[2]];
  };
  for (size_t i = 0; i < out_size[0]; ++i)
    for (size_t j = 0; j < out_size[1]; ++j)
      for (size_t k = 0; k < out_size[2]; ++k) {
        const bool is_mode = out_lower[0] + i == mode[0] && out_lower[1] + j == mode[1] &&
                             out_lower[2] + k == mode[2];
        spectrum[local_of(i, j, k)] = is_mode ? 1.0 : 0.0;
      }
  std::vector<std::complex<double>> grid(a2afft_fft3d_input_elements(plan));
  const size_t bytes = sizeof(std::complex<double>);
  ASSERT_EQ(
      sum_over(a2afft_fft3d_execute(plan, A2AFFT_BACKWARD, spectrum.data(), spectrum.size() * bytes,
                                    grid.data(), grid.size() * bytes)),
      0)
      << a2afft_error_message();
  const double frequency[3] = {1, -1, -1};
  double worst = 0;
  for (size_t i = 0; i < size[0]; ++i)
    for (size_t j = 0; j < size[1]; ++j)
      for (size_t k = 0; k < size[2]; ++k) {
        const size_t at[3] = {lower[0] + i, lower[1] + j, lower[2] + k};
        double phase = 0;
        for (int d = 0; d < 3; ++d)
          phase += 2 * M_PI * frequency[d] * double(at[d]) / double(padded[d]);
        worst = std::max(worst,
                         std::abs(grid[(i * size[1] + j) * size[2] + k] - std::polar(1.0, phase)));
      }
  EXPECT_LT(max_over(worst), 1e-13);
  ASSERT_EQ(sum_over(a2afft_fft3d_execute(plan, A2AFFT_FORWARD, grid.data(), grid.size() * bytes,
                                          spectrum.data(), spectrum.size() * bytes)),
            0);
  worst = 0;
  for (size_t i = 0; i < out_size[0]; ++i)
    for (size_t j = 0; j < out_size[1]; ++j)
      for (size_t k = 0; k < out_size[2]; ++k) {
        const bool is_mode = out_lower[0] + i == mode[0] && out_lower[1] + j == mode[1] &&
                             out_lower[2] + k == mode[2];
        worst = std::max(worst, std::abs(spectrum[local_of(i, j, k)] - (is_mode ? 378.0 : 0.0)));
      }
  EXPECT_LT(max_over(worst), 1e-10);
  EXPECT_EQ(a2afft_fft3d_destroy(&plan), A2AFFT_SUCCESS);

  options.padding[1] = 0.5;
  expect_create_fails(
      [&](a2afft_fft3d* made) {
        return a2afft_fft3d_create(MPI_COMM_WORLD, shape, &options, made);
      },
      A2AFFT_ERROR_USAGE, "padding 1.5,0.5,1.5 is not valid on axis 1");
}

TEST(CApi, r2c_float_through_execute_checks_the_buffer_sizes) {
  const size_t shape[3] = {6, 4, 5};
  a2afft_fft3d_options options;
  a2afft_fft3d_options_init(&options);
  EXPECT_EQ(options.kind, A2AFFT_KIND_C2C);
  EXPECT_EQ(options.precision, A2AFFT_PRECISION_DOUBLE);
  EXPECT_EQ(options.batch, 1u);
  options.kind = A2AFFT_KIND_R2C;
  options.precision = A2AFFT_PRECISION_FLOAT;
  options.rigor = A2AFFT_RIGOR_ESTIMATE;
  options.output = A2AFFT_FFT3D_OUTPUT_NATURAL;
  options.scaling = A2AFFT_SCALING_FULL;
  a2afft_fft3d plan = nullptr;
  ASSERT_EQ(sum_over(a2afft_fft3d_create(MPI_COMM_WORLD, shape, &options, &plan)), 0)
      << a2afft_error_message();
  size_t lower[3], size[3];
  ASSERT_EQ(a2afft_fft3d_input_box(plan, lower, size, nullptr), A2AFFT_SUCCESS);
  EXPECT_EQ(size[2], 5u);  // all of the real dimension
  EXPECT_EQ(a2afft_fft3d_input_bytes(plan), size[0] * size[1] * size[2] * sizeof(float));
  EXPECT_EQ(sum_over(long(a2afft_fft3d_input_elements(plan))), 6 * 4 * 5);
  EXPECT_EQ(sum_over(long(a2afft_fft3d_output_elements(plan))), 6 * 4 * 3);  // 5/2+1
  EXPECT_EQ(a2afft_fft3d_output_bytes(plan),
            a2afft_fft3d_output_elements(plan) * sizeof(a2afft_complex_float));

  // x = cos(2 pi (i / 6 + 2 k / 5)): only modes (1, 0, 2) and (-1, 0, -2) of the full spectrum,
  // of which r2c keeps (1, 0, 2), as N/2.
  std::vector<float> x(a2afft_fft3d_input_elements(plan));
  for (size_t i = 0; i < size[0]; ++i)
    for (size_t j = 0; j < size[1]; ++j)
      for (size_t k = 0; k < size[2]; ++k)
        x[(i * size[1] + j) * size[2] + k] = static_cast<float>(
            std::cos(2 * M_PI * (double(lower[0] + i) / 6 + 2.0 * double(k) / 5)));
  std::vector<std::complex<float>> spectrum(a2afft_fft3d_output_elements(plan));
  const size_t x_bytes = x.size() * sizeof(float);
  const size_t spectrum_bytes = spectrum.size() * sizeof(spectrum[0]);
  ASSERT_EQ(sum_over(a2afft_fft3d_execute(plan, A2AFFT_FORWARD, x.data(), x_bytes, spectrum.data(),
                                          spectrum_bytes)),
            0)
      << a2afft_error_message();
  size_t out_lower[3], out_size[3];
  ASSERT_EQ(a2afft_fft3d_output_box(plan, out_lower, out_size, nullptr), A2AFFT_SUCCESS);
  double worst = 0;
  for (size_t i = 0; i < out_size[0]; ++i)
    for (size_t j = 0; j < out_size[1]; ++j)
      for (size_t k = 0; k < out_size[2]; ++k) {
        const bool mode = out_lower[0] + i == 1 && out_lower[1] + j == 0 && out_lower[2] + k == 2;
        const std::complex<float> want(mode ? 6 * 4 * 5 / 2.0f : 0.0f, 0.0f);
        worst = std::max(
            worst, double(std::abs(spectrum[(i * out_size[1] + j) * out_size[2] + k] - want)));
      }
  EXPECT_LT(max_over(worst), 1e-4);

  // Backward, scaled by 1/N: x again.
  std::vector<float> back(x.size());
  ASSERT_EQ(sum_over(a2afft_fft3d_execute(plan, A2AFFT_BACKWARD, spectrum.data(), spectrum_bytes,
                                          back.data(), x_bytes)),
            0)
      << a2afft_error_message();
  worst = 0;
  for (size_t i = 0; i < x.size(); ++i)
    worst = std::max(worst, double(std::abs(back[i] - x[i])));
  EXPECT_LT(max_over(worst), 1e-5);

  // The last rank's output is a byte short: every rank fails, and nothing is written.
  const bool short_here = rank_in() == size_of() - 1;
  std::vector<std::complex<float>> untouched(spectrum.size(), {7.0f, 7.0f});
  const int status = a2afft_fft3d_execute(plan, A2AFFT_FORWARD, x.data(), x_bytes, untouched.data(),
                                          short_here ? spectrum_bytes - 1 : spectrum_bytes);
  EXPECT_EQ(sum_over(status == A2AFFT_ERROR_USAGE ? 1 : 0), size_of());
  const std::string message = a2afft_error_message();
  EXPECT_NE(message.find("out holds " + std::to_string(spectrum_bytes - 1) +
                         " bytes but the "
                         "output needs " +
                         std::to_string(spectrum_bytes)),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("on rank " + std::to_string(size_of() - 1)), std::string::npos) << message;
  long written = 0;
  for (const std::complex<float>& z : untouched)
    written += z != std::complex<float>(7.0f, 7.0f) ? 1 : 0;
  EXPECT_EQ(sum_over(written), 0);
  // A c2c double call on this plan is refused with the call to make instead.
  std::vector<Complex> wrong(a2afft_fft3d_in_place_elements(plan));
  EXPECT_EQ(
      sum_over(a2afft_fft3d_forward(plan, cells(wrong), cells(wrong)) == A2AFFT_ERROR_USAGE ? 1
                                                                                            : 0),
      size_of());
  EXPECT_NE(std::string(a2afft_error_message()).find("does not fit this plan"), std::string::npos)
      << a2afft_error_message();
  EXPECT_EQ(sum_over(a2afft_fft3d_execute(plan, 7, x.data(), x_bytes, spectrum.data(),
                                          spectrum_bytes) == A2AFFT_ERROR_USAGE
                         ? 1
                         : 0),
            size_of());
  EXPECT_NE(std::string(a2afft_error_message()).find("direction=7 is not valid"), std::string::npos)
      << a2afft_error_message();
  EXPECT_EQ(a2afft_fft3d_destroy(&plan), A2AFFT_SUCCESS);

  options.batch = 0;
  expect_create_fails(
      [&](a2afft_fft3d* out) { return a2afft_fft3d_create(MPI_COMM_WORLD, shape, &options, out); },
      A2AFFT_ERROR_USAGE, "batch=0 is not valid");
  options.batch = 1;
  options.precision = 5;
  expect_create_fails(
      [&](a2afft_fft3d* out) { return a2afft_fft3d_create(MPI_COMM_WORLD, shape, &options, out); },
      A2AFFT_ERROR_USAGE, "precision=5 is not valid");
}

}  // namespace

namespace {

// A float 1D plan of 2 interleaved fields through a2afft_fft1d_execute: each field a plane wave
// whose spectrum is one spike (field f at k = 1 + f), the round trip scaled back by 1/N, and an
// input one byte short on one rank, which fails the call on every rank and writes nothing.
TEST(CApi, a_float_1d_batch_through_execute) {
  const size_t p = static_cast<size_t>(size_of());
  const size_t n = 6 * p * p;
  a2afft_fft1d_options options;
  a2afft_fft1d_options_init(&options);
  EXPECT_EQ(options.precision, A2AFFT_PRECISION_DOUBLE);
  EXPECT_EQ(options.batch, 1u);
  options.precision = A2AFFT_PRECISION_FLOAT;
  options.batch = 2;
  options.rigor = A2AFFT_RIGOR_ESTIMATE;
  options.scaling = A2AFFT_SCALING_FULL;
  options.exchange = "pairwise";
  a2afft_fft1d plan = nullptr;
  ASSERT_EQ(sum_over(a2afft_fft1d_create(MPI_COMM_WORLD, n, &options, &plan)), 0)
      << a2afft_error_message();
  size_t local = 0, offset = 0;
  ASSERT_EQ(a2afft_fft1d_local(plan, &local, &offset), A2AFFT_SUCCESS);
  EXPECT_EQ(local, 2 * n / p);  // complex numbers: points times the batch
  const size_t bytes = local * sizeof(a2afft_complex_float);
  EXPECT_EQ(a2afft_fft1d_local_bytes(plan), bytes);

  std::vector<std::complex<float>> x(local), spectrum(local), back(local);
  for (size_t i = 0; i < local / 2; ++i)
    for (size_t f = 0; f < 2; ++f)
      x[i * 2 + f] =
          std::polar(1.0f, float(2 * M_PI * double((1 + f) * (offset + i) % n) / double(n)));
  ASSERT_EQ(
      sum_over(a2afft_fft1d_execute(plan, A2AFFT_FORWARD, x.data(), bytes, spectrum.data(), bytes)),
      0)
      << a2afft_error_message();
  double worst = 0;
  for (size_t i = 0; i < local / 2; ++i)
    for (size_t f = 0; f < 2; ++f) {
      const bool spike = a2afft_fft1d_output_index(plan, i) == 1 + f;
      worst = std::max(worst, double(std::abs(spectrum[i * 2 + f] -
                                              std::complex<float>(spike ? float(n) : 0.0f))));
    }
  EXPECT_LT(max_over(worst) / double(n), 1e-5);
  ASSERT_EQ(sum_over(a2afft_fft1d_execute(plan, A2AFFT_BACKWARD, spectrum.data(), bytes,
                                          back.data(), bytes)),
            0)
      << a2afft_error_message();
  worst = 0;
  for (size_t i = 0; i < local; ++i)
    worst = std::max(worst, double(std::abs(back[i] - x[i])));
  EXPECT_LT(max_over(worst), 1e-5);

  const bool short_here = rank_in() == size_of() - 1;
  std::vector<std::complex<float>> untouched(local, {7.0f, 7.0f});
  const int status = a2afft_fft1d_execute(plan, A2AFFT_FORWARD, x.data(),
                                          short_here ? bytes - 1 : bytes, untouched.data(), bytes);
  EXPECT_EQ(sum_over(status == A2AFFT_ERROR_USAGE ? 1 : 0), size_of());
  const std::string message = a2afft_error_message();
  EXPECT_NE(message.find("in holds " + std::to_string(bytes - 1) + " bytes but the input needs " +
                         std::to_string(bytes)),
            std::string::npos)
      << message;
  long written = 0;
  for (const std::complex<float>& z : untouched)
    written += z != std::complex<float>(7.0f, 7.0f) ? 1 : 0;
  EXPECT_EQ(sum_over(written), 0);
  // The double call on a float plan names the one to make.
  std::vector<Complex> wrong(local);
  EXPECT_EQ(
      sum_over(a2afft_fft1d_forward(plan, cells(wrong), cells(wrong)) == A2AFFT_ERROR_USAGE ? 1
                                                                                            : 0),
      size_of());
  EXPECT_NE(std::string(a2afft_error_message())
                .find("call Fft1d::forward(const ComplexFloat*, ComplexFloat*)"),
            std::string::npos)
      << a2afft_error_message();
  EXPECT_EQ(a2afft_fft1d_destroy(&plan), A2AFFT_SUCCESS);
}

}  // namespace
