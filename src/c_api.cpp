// The C API (include/a2afft/a2afft.h) over Fft3d and Fft1d: options structs read up to the
// caller's struct_size, every exception turned into a return code and a thread-local message.

#include <a2afft/a2afft.h>

#include <a2afft/fft1d.hpp>
#include <a2afft/fft3d.hpp>
#include <a2afft/version.hpp>

#include <cstring>
#include <new>
#include <string>

#include "collective_checks.hpp"
#include "error.hpp"
#include "mpi/comm.hpp"

struct a2afft_fft3d_plan {
  a2afft::Fft3d fft;
  std::string description;  // a2afft_fft3d_describe()'s text, kept as long as the plan
};

struct a2afft_fft1d_plan {
  a2afft::Fft1d fft;
  std::string description;
};

namespace {

thread_local std::string last_error;

// Runs `call`; an exception becomes its code, with its message kept for a2afft_error_message().
template <typename Call>
int guarded(Call&& call) noexcept {
  try {
    call();
    return A2AFFT_SUCCESS;
  } catch (const a2afft::MpiError& error) {
    last_error = error.what();
    return A2AFFT_ERROR_MPI;
  } catch (const a2afft::Error& error) {
    last_error = error.what();
    return A2AFFT_ERROR_USAGE;
  } catch (const std::bad_alloc&) {
    last_error = "out of memory";
    return A2AFFT_ERROR_INTERNAL;
  } catch (const std::exception& error) {
    last_error = error.what();
    return A2AFFT_ERROR_INTERNAL;
  } catch (...) {
    last_error = "unknown error";
    return A2AFFT_ERROR_INTERNAL;
  }
}

template <typename Plan>
Plan& checked(Plan* plan, const char* who) {
  if (plan == nullptr) {
    throw a2afft::UsageError(std::string(who) + ": plan is NULL; create it first");
  }
  return *plan;
}

// The caller's options, read up to its struct_size over our defaults: `failure` says why not.
template <typename Options>
Options read_options(const Options* given, void (*init)(Options*), std::string& failure,
                     const char* who) {
  Options options;
  init(&options);
  if (given == nullptr) return options;
  if (given->struct_size < sizeof(given->struct_size) || given->struct_size > sizeof(Options)) {
    failure = std::string(who) + ": options->struct_size=" + std::to_string(given->struct_size) +
              " is not valid; expected " + std::to_string(sizeof(Options)) +
              " (fill the options with their _options_init function first)";
    return options;
  }
  std::memcpy(&options, given, given->struct_size);
  return options;
}

std::string text_or(const char* text, const char* otherwise) {
  return text == nullptr ? otherwise : text;
}

// Every rank learns the lowest rank's local failure before any plan is built.
void agree(MPI_Comm comm, const std::string& failure, const char* who) {
  a2afft::detail::library::check_communicator(comm, who);
  if (const auto agreed = a2afft::detail::mpi::agreed_message(failure, comm); !agreed.empty()) {
    throw a2afft::UsageError(agreed.text);
  }
}

template <typename Plan>
int destroy(Plan** plan) {
  return guarded([&] {
    if (plan == nullptr) return;
    delete *plan;
    *plan = nullptr;
  });
}

template <typename Plan>
int last_times(Plan* plan, double* transpose_seconds, double* compute_seconds, const char* who) {
  return guarded([&] {
    const a2afft::FftTimes times = checked(plan, who).fft.last_times();
    if (transpose_seconds != nullptr) *transpose_seconds = times.transpose_seconds;
    if (compute_seconds != nullptr) *compute_seconds = times.compute_seconds;
  });
}

template <typename Plan>
const char* describe(Plan* plan) {
  if (plan == nullptr) return "";
  if (plan->description.empty()) plan->description = plan->fft.describe();
  return plan->description.c_str();
}

// Either plan's execute(), with the direction checked first (C passes any int).
template <typename Plan>
int execute(Plan* plan, int direction, const void* in, size_t in_bytes, void* out, size_t out_bytes,
            const char* who) {
  return guarded([&] {
    auto& fft = checked(plan, who).fft;
    a2afft::detail::library::check_enum(direction, 2, "direction",
                                        "A2AFFT_FORWARD (0) or A2AFFT_BACKWARD (1)", who);
    fft.execute(static_cast<a2afft::Direction>(direction), in, in_bytes, out, out_bytes);
  });
}

const a2afft::Complex* as_complex(const a2afft_complex* array) {
  return reinterpret_cast<const a2afft::Complex*>(array);
}

a2afft::Complex* as_complex(a2afft_complex* array) {
  return reinterpret_cast<a2afft::Complex*>(array);
}

}  // namespace

extern "C" {

void a2afft_fft3d_options_init(a2afft_fft3d_options* options) {
  if (options == nullptr) return;
  *options = {};
  options->struct_size = sizeof(*options);
  options->rigor = A2AFFT_RIGOR_MEASURE;
  options->output = A2AFFT_FFT3D_OUTPUT_TRANSPOSED;
  options->scaling = A2AFFT_SCALING_NONE;
  options->kind = A2AFFT_KIND_C2C;
  options->precision = A2AFFT_PRECISION_DOUBLE;
  options->batch = 1;
}

void a2afft_fft1d_options_init(a2afft_fft1d_options* options) {
  if (options == nullptr) return;
  *options = {};
  options->struct_size = sizeof(*options);
  options->rigor = A2AFFT_RIGOR_MEASURE;
  options->output = A2AFFT_FFT1D_OUTPUT_NATURAL;
  options->scaling = A2AFFT_SCALING_NONE;
  options->precision = A2AFFT_PRECISION_DOUBLE;
  options->batch = 1;
}

const char* a2afft_error_message(void) {
  return last_error.c_str();
}

const char* a2afft_version(void) {
  return a2afft::version();
}

int a2afft_fft3d_create(MPI_Comm comm, const size_t shape[3], const a2afft_fft3d_options* options,
                        a2afft_fft3d* plan) {
  constexpr const char* who = "a2afft_fft3d_create";
  if (plan != nullptr) *plan = nullptr;
  return guarded([&] {
    std::string failure;
    if (plan == nullptr) failure = std::string(who) + ": plan is NULL; pass the address of one";
    if (shape == nullptr) failure = std::string(who) + ": shape is NULL; pass {n0, n1, n2}";
    const a2afft_fft3d_options given =
        read_options(options, a2afft_fft3d_options_init, failure, who);
    agree(comm, failure, who);
    a2afft::Fft3dOptions cpp;
    cpp.grid = {given.grid[0], given.grid[1]};
    cpp.row_exchange = text_or(given.row_exchange, "auto");
    cpp.column_exchange = text_or(given.column_exchange, "auto");
    cpp.rigor = static_cast<a2afft::Rigor>(given.rigor);
    cpp.output = static_cast<a2afft::Fft3dOutput>(given.output);
    cpp.wisdom_file = text_or(given.wisdom_file, "");
    cpp.scaling = static_cast<a2afft::Scaling>(given.scaling);
    cpp.kind = static_cast<a2afft::Kind>(given.kind);
    cpp.precision = static_cast<a2afft::Precision>(given.precision);
    cpp.batch = given.batch;
    *plan = new a2afft_fft3d_plan{a2afft::Fft3d(comm, {shape[0], shape[1], shape[2]}, cpp), {}};
  });
}

int a2afft_fft3d_create_f(MPI_Fint comm, const size_t shape[3], const a2afft_fft3d_options* options,
                          a2afft_fft3d* plan) {
  return a2afft_fft3d_create(MPI_Comm_f2c(comm), shape, options, plan);
}

int a2afft_fft3d_destroy(a2afft_fft3d* plan) {
  return destroy(plan);
}

namespace {

int box_of(a2afft_fft3d plan, bool input, size_t lower[3], size_t size[3], int order[3]) {
  return guarded([&] {
    const a2afft::Fft3d& fft =
        checked(plan, input ? "a2afft_fft3d_input_box" : "a2afft_fft3d_output_box").fft;
    const a2afft::Box3 box = input ? fft.input_box() : fft.output_box();
    for (int d = 0; d < 3; ++d) {
      if (lower != nullptr) lower[d] = box.lower[d];
      if (size != nullptr) size[d] = box.size[d];
      if (order != nullptr) order[d] = box.order[d];
    }
  });
}

}  // namespace

int a2afft_fft3d_input_box(a2afft_fft3d plan, size_t lower[3], size_t size[3], int order[3]) {
  return box_of(plan, true, lower, size, order);
}

int a2afft_fft3d_output_box(a2afft_fft3d plan, size_t lower[3], size_t size[3], int order[3]) {
  return box_of(plan, false, lower, size, order);
}

size_t a2afft_fft3d_input_elements(a2afft_fft3d plan) {
  return plan == nullptr ? 0 : plan->fft.input_elements();
}

size_t a2afft_fft3d_output_elements(a2afft_fft3d plan) {
  return plan == nullptr ? 0 : plan->fft.output_elements();
}

size_t a2afft_fft3d_in_place_elements(a2afft_fft3d plan) {
  return plan == nullptr ? 0 : plan->fft.in_place_elements();
}

size_t a2afft_fft3d_input_bytes(a2afft_fft3d plan) {
  return plan == nullptr ? 0 : plan->fft.input_bytes();
}

size_t a2afft_fft3d_output_bytes(a2afft_fft3d plan) {
  return plan == nullptr ? 0 : plan->fft.output_bytes();
}

size_t a2afft_fft3d_in_place_bytes(a2afft_fft3d plan) {
  return plan == nullptr ? 0 : plan->fft.in_place_bytes();
}

size_t a2afft_fft3d_workspace_bytes(a2afft_fft3d plan) {
  return plan == nullptr ? 0 : plan->fft.workspace_bytes();
}

int a2afft_fft3d_forward(a2afft_fft3d plan, const a2afft_complex* in, a2afft_complex* out) {
  return guarded(
      [&] { checked(plan, "a2afft_fft3d_forward").fft.forward(as_complex(in), as_complex(out)); });
}

int a2afft_fft3d_backward(a2afft_fft3d plan, const a2afft_complex* in, a2afft_complex* out) {
  return guarded([&] {
    checked(plan, "a2afft_fft3d_backward").fft.backward(as_complex(in), as_complex(out));
  });
}

int a2afft_fft3d_execute(a2afft_fft3d plan, int direction, const void* in, size_t in_bytes,
                         void* out, size_t out_bytes) {
  return execute(plan, direction, in, in_bytes, out, out_bytes, "a2afft_fft3d_execute");
}

const char* a2afft_fft3d_describe(a2afft_fft3d plan) {
  return describe(plan);
}

int a2afft_fft3d_last_times(a2afft_fft3d plan, double* transpose_seconds, double* compute_seconds) {
  return last_times(plan, transpose_seconds, compute_seconds, "a2afft_fft3d_last_times");
}

int a2afft_fft1d_create(MPI_Comm comm, size_t n, const a2afft_fft1d_options* options,
                        a2afft_fft1d* plan) {
  constexpr const char* who = "a2afft_fft1d_create";
  if (plan != nullptr) *plan = nullptr;
  return guarded([&] {
    std::string failure;
    if (plan == nullptr) failure = std::string(who) + ": plan is NULL; pass the address of one";
    const a2afft_fft1d_options given =
        read_options(options, a2afft_fft1d_options_init, failure, who);
    agree(comm, failure, who);
    a2afft::Fft1dOptions cpp;
    cpp.exchange = text_or(given.exchange, "auto");
    cpp.n1 = given.n1;
    cpp.rigor = static_cast<a2afft::Rigor>(given.rigor);
    cpp.output = static_cast<a2afft::Fft1dOutput>(given.output);
    cpp.wisdom_file = text_or(given.wisdom_file, "");
    cpp.scaling = static_cast<a2afft::Scaling>(given.scaling);
    cpp.precision = static_cast<a2afft::Precision>(given.precision);
    cpp.batch = given.batch;
    *plan = new a2afft_fft1d_plan{a2afft::Fft1d(comm, n, cpp), {}};
  });
}

int a2afft_fft1d_create_f(MPI_Fint comm, size_t n, const a2afft_fft1d_options* options,
                          a2afft_fft1d* plan) {
  return a2afft_fft1d_create(MPI_Comm_f2c(comm), n, options, plan);
}

int a2afft_fft1d_destroy(a2afft_fft1d* plan) {
  return destroy(plan);
}

int a2afft_fft1d_local(a2afft_fft1d plan, size_t* local_elements, size_t* input_offset) {
  return guarded([&] {
    const a2afft::Fft1d& fft = checked(plan, "a2afft_fft1d_local").fft;
    if (local_elements != nullptr) *local_elements = fft.local_elements();
    if (input_offset != nullptr) *input_offset = fft.input_offset();
  });
}

size_t a2afft_fft1d_output_index(a2afft_fft1d plan, size_t i) {
  return plan == nullptr ? 0 : plan->fft.output_index(i);
}

size_t a2afft_fft1d_local_bytes(a2afft_fft1d plan) {
  return plan == nullptr ? 0 : plan->fft.local_bytes();
}

size_t a2afft_fft1d_workspace_bytes(a2afft_fft1d plan) {
  return plan == nullptr ? 0 : plan->fft.workspace_bytes();
}

int a2afft_fft1d_forward(a2afft_fft1d plan, const a2afft_complex* in, a2afft_complex* out) {
  return guarded(
      [&] { checked(plan, "a2afft_fft1d_forward").fft.forward(as_complex(in), as_complex(out)); });
}

int a2afft_fft1d_backward(a2afft_fft1d plan, const a2afft_complex* in, a2afft_complex* out) {
  return guarded([&] {
    checked(plan, "a2afft_fft1d_backward").fft.backward(as_complex(in), as_complex(out));
  });
}

int a2afft_fft1d_execute(a2afft_fft1d plan, int direction, const void* in, size_t in_bytes,
                         void* out, size_t out_bytes) {
  return execute(plan, direction, in, in_bytes, out, out_bytes, "a2afft_fft1d_execute");
}

const char* a2afft_fft1d_describe(a2afft_fft1d plan) {
  return describe(plan);
}

int a2afft_fft1d_last_times(a2afft_fft1d plan, double* transpose_seconds, double* compute_seconds) {
  return last_times(plan, transpose_seconds, compute_seconds, "a2afft_fft1d_last_times");
}

}  // extern "C"
