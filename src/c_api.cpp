// The C API (include/a2afft/a2afft.h) over Fft3d, Fft2d, Fft1d and the exchange: options
// structs read up to the caller's struct_size, every exception turned into a return code and a
// thread-local message. What the plans share (DistributedFft) is written once, in templates
// over the plan handle.

#include <a2afft/a2afft.h>

#include <a2afft/exchange.hpp>
#include <a2afft/fft1d.hpp>
#include <a2afft/fft2d.hpp>
#include <a2afft/fft3d.hpp>
#include <a2afft/version.hpp>

#include <algorithm>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
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

struct a2afft_fft2d_plan {
  a2afft::Fft2d fft;
  std::string description;
};

struct a2afft_exchange_plan {
  std::unique_ptr<a2afft::Exchange> exchange;
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

// One of a plan's sizes (DistributedFft's accessors); 0 for a NULL plan.
template <typename Plan>
size_t count(Plan* plan, std::size_t (a2afft::DistributedFft::*size)() const) {
  return plan == nullptr ? 0 : (plan->fft.*size)();
}

// The options every plan shares, from the C struct's fields of the same names.
template <typename Given>
void read_shared(const Given& given, a2afft::PlanOptions& options) {
  options.rigor = static_cast<a2afft::Rigor>(given.rigor);
  options.wisdom_file = text_or(given.wisdom_file, "");
  options.scaling = static_cast<a2afft::Scaling>(given.scaling);
  options.precision = static_cast<a2afft::Precision>(given.precision);
  options.batch = given.batch;
  options.threads = given.threads;
}

// The factors of a C `padding` array: 0 (the zeroed default) is 1, not padded; none padded is
// no padding at all. Anything else goes to the plan, which checks it.
std::vector<double> padding_of(const double* factors, std::size_t axes) {
  std::vector<double> padding(factors, factors + axes);
  for (double& factor : padding)
    factor = factor == 0 ? 1 : factor;
  const bool padded = std::any_of(padding.begin(), padding.end(), [](double f) { return f != 1; });
  return padded ? padding : std::vector<double>{};
}

// The axes of a C `transforms` string (NULL: none given, so the kind's defaults), agreed on every
// rank: a word one rank cannot read fails every rank's call, naming it.
std::vector<a2afft::AxisKind> axes_of(MPI_Comm comm, const char* transforms, const char* who) {
  std::vector<a2afft::AxisKind> axes;
  std::string failure;
  try {
    if (transforms != nullptr) axes = a2afft::parse_axis_kinds(transforms);
  } catch (const a2afft::UsageError& error) {
    failure = std::string(who) + ": options->transforms: " + error.what();
  }
  agree(comm, failure, who);
  return axes;
}

// A box of the C options (lower, size, order), or none where `has` is 0.
std::optional<a2afft::Box3> box_option(int has, const size_t lower[3], const size_t size[3],
                                       const int order[3]) {
  if (has == 0) return std::nullopt;
  a2afft::Box3 box;
  for (std::size_t d = 0; d < 3; ++d) {
    box.lower[d] = lower[d];
    box.size[d] = size[d];
    box.order[d] = order[d];
  }
  return box;
}

// Creates a plan: the arguments agreed on every rank first, then make() builds it.
template <typename Plan, typename Options, typename Make>
int create(MPI_Comm comm, const Options* options, void (*init)(Options*), Plan** plan,
           const char* who, std::string failure, Make make) {
  if (plan != nullptr) *plan = nullptr;
  return guarded([&] {
    if (plan == nullptr) failure = std::string(who) + ": plan is NULL; pass the address of one";
    const Options given = read_options(options, init, failure, who);
    agree(comm, failure, who);
    *plan = make(given);
  });
}

// A plan's box in C's arrays of `Dims` dimensions (any may be NULL).
template <std::size_t Dims, typename Box>
void copy_box(const Box& box, size_t lower[], size_t size[], int order[]) {
  for (std::size_t d = 0; d < Dims; ++d) {
    if (lower != nullptr) lower[d] = box.lower[d];
    if (size != nullptr) size[d] = box.size[d];
    if (order != nullptr) order[d] = box.order[d];
  }
}

template <typename Plan>
int box_of(Plan* plan, bool input, size_t lower[], size_t size[], int order[], const char* who) {
  return guarded([&] {
    const auto& fft = checked(plan, who).fft;
    const auto box = input ? fft.input_box() : fft.output_box();
    copy_box<std::tuple_size_v<decltype(box.lower)>>(box, lower, size, order);
  });
}

const a2afft::Complex* as_complex(const a2afft_complex* array) {
  return reinterpret_cast<const a2afft::Complex*>(array);
}

a2afft::Complex* as_complex(a2afft_complex* array) {
  return reinterpret_cast<a2afft::Complex*>(array);
}

// The c2c double transforms of any plan.
template <typename Plan>
int transform(Plan* plan, bool forward, const a2afft_complex* in, a2afft_complex* out,
              const char* who) {
  return guarded([&] {
    auto& fft = checked(plan, who).fft;
    if (forward) {
      fft.forward(as_complex(in), as_complex(out));
    } else {
      fft.backward(as_complex(in), as_complex(out));
    }
  });
}

}  // namespace

// clang-format off
// The calls every plan handle has, one line each over the templates above: C needs one named
// function per kind of plan, and these keep the three kinds' from being written three times.
#define A2AFFT_PLAN_CALLS(kind)                                                                 \
  int a2afft_##kind##_destroy(a2afft_##kind* plan) { return destroy(plan); }                    \
  size_t a2afft_##kind##_workspace_bytes(a2afft_##kind plan) {                                  \
    return count(plan, &a2afft::DistributedFft::workspace_bytes);                               \
  }                                                                                             \
  int a2afft_##kind##_forward(a2afft_##kind plan, const a2afft_complex* in, a2afft_complex* out) { \
    return transform(plan, true, in, out, "a2afft_" #kind "_forward");                          \
  }                                                                                             \
  int a2afft_##kind##_backward(a2afft_##kind plan, const a2afft_complex* in,                    \
                               a2afft_complex* out) {                                           \
    return transform(plan, false, in, out, "a2afft_" #kind "_backward");                        \
  }                                                                                             \
  int a2afft_##kind##_execute(a2afft_##kind plan, int direction, const void* in,                \
                              size_t in_bytes, void* out, size_t out_bytes) {                   \
    return execute(plan, direction, in, in_bytes, out, out_bytes, "a2afft_" #kind "_execute");  \
  }                                                                                             \
  const char* a2afft_##kind##_describe(a2afft_##kind plan) { return describe(plan); }          \
  int a2afft_##kind##_last_times(a2afft_##kind plan, double* transpose_seconds,                 \
                                 double* compute_seconds) {                                     \
    return last_times(plan, transpose_seconds, compute_seconds, "a2afft_" #kind "_last_times"); \
  }

// The calls of the plans with boxes (3D and 2D): their boxes and element and byte counts.
#define A2AFFT_BOX_PLAN_CALLS(kind, dims)                                                       \
  int a2afft_##kind##_input_box(a2afft_##kind plan, size_t lower[dims], size_t size[dims],      \
                                int order[dims]) {                                              \
    return box_of(plan, true, lower, size, order, "a2afft_" #kind "_input_box");                \
  }                                                                                             \
  int a2afft_##kind##_output_box(a2afft_##kind plan, size_t lower[dims], size_t size[dims],     \
                                 int order[dims]) {                                             \
    return box_of(plan, false, lower, size, order, "a2afft_" #kind "_output_box");              \
  }                                                                                             \
  size_t a2afft_##kind##_input_elements(a2afft_##kind plan) {                                   \
    return count(plan, &a2afft::DistributedFft::input_elements);                                \
  }                                                                                             \
  size_t a2afft_##kind##_output_elements(a2afft_##kind plan) {                                  \
    return count(plan, &a2afft::DistributedFft::output_elements);                               \
  }                                                                                             \
  size_t a2afft_##kind##_in_place_elements(a2afft_##kind plan) {                                \
    return count(plan, &a2afft::DistributedFft::in_place_elements);                             \
  }                                                                                             \
  size_t a2afft_##kind##_input_bytes(a2afft_##kind plan) {                                      \
    return count(plan, &a2afft::DistributedFft::input_bytes);                                   \
  }                                                                                             \
  size_t a2afft_##kind##_output_bytes(a2afft_##kind plan) {                                     \
    return count(plan, &a2afft::DistributedFft::output_bytes);                                  \
  }                                                                                             \
  size_t a2afft_##kind##_in_place_bytes(a2afft_##kind plan) {                                   \
    return count(plan, &a2afft::DistributedFft::in_place_bytes);                                \
  }
// clang-format on

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
  options->threads = 1;
  for (int d = 0; d < 3; ++d)
    options->input_order[d] = options->output_order[d] = d;
}

void a2afft_fft2d_options_init(a2afft_fft2d_options* options) {
  if (options == nullptr) return;
  *options = {};
  options->struct_size = sizeof(*options);
  options->rigor = A2AFFT_RIGOR_MEASURE;
  options->output = A2AFFT_FFT2D_OUTPUT_TRANSPOSED;
  options->scaling = A2AFFT_SCALING_NONE;
  options->kind = A2AFFT_KIND_C2C;
  options->precision = A2AFFT_PRECISION_DOUBLE;
  options->batch = 1;
  options->threads = 1;
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
  options->threads = 1;
}

const char* a2afft_error_message(void) {
  return last_error.c_str();
}

const char* a2afft_version(void) {
  return a2afft::version();
}

// ---- 3D

int a2afft_fft3d_create(MPI_Comm comm, const size_t shape[3], const a2afft_fft3d_options* options,
                        a2afft_fft3d* plan) {
  constexpr const char* who = "a2afft_fft3d_create";
  std::string failure =
      shape == nullptr ? std::string(who) + ": shape is NULL; pass {n0, n1, n2}" : "";
  return create(
      comm, options, a2afft_fft3d_options_init, plan, who, failure,
      [&](const a2afft_fft3d_options& given) {
        a2afft::Fft3dOptions cpp;
        read_shared(given, cpp);
        cpp.kind = static_cast<a2afft::Kind>(given.kind);
        cpp.axes = axes_of(comm, given.transforms, who);
        cpp.padding = padding_of(given.padding, 3);
        cpp.input_box =
            box_option(given.has_input_box, given.input_lower, given.input_size, given.input_order);
        cpp.output_box = box_option(given.has_output_box, given.output_lower, given.output_size,
                                    given.output_order);
        cpp.reshape_exchange = text_or(given.reshape_exchange, "auto");
        cpp.grid = {given.grid[0], given.grid[1]};
        cpp.row_exchange = text_or(given.row_exchange, "auto");
        cpp.column_exchange = text_or(given.column_exchange, "auto");
        cpp.output = static_cast<a2afft::Fft3dOutput>(given.output);
        return new a2afft_fft3d_plan{a2afft::Fft3d(comm, {shape[0], shape[1], shape[2]}, cpp), {}};
      });
}

int a2afft_fft3d_create_f(MPI_Fint comm, const size_t shape[3], const a2afft_fft3d_options* options,
                          a2afft_fft3d* plan) {
  return a2afft_fft3d_create(MPI_Comm_f2c(comm), shape, options, plan);
}

A2AFFT_PLAN_CALLS(fft3d)
A2AFFT_BOX_PLAN_CALLS(fft3d, 3)

// ---- 2D

int a2afft_fft2d_create(MPI_Comm comm, const size_t shape[2], const a2afft_fft2d_options* options,
                        a2afft_fft2d* plan) {
  constexpr const char* who = "a2afft_fft2d_create";
  std::string failure = shape == nullptr ? std::string(who) + ": shape is NULL; pass {n0, n1}" : "";
  return create(comm, options, a2afft_fft2d_options_init, plan, who, failure,
                [&](const a2afft_fft2d_options& given) {
                  a2afft::Fft2dOptions cpp;
                  read_shared(given, cpp);
                  cpp.kind = static_cast<a2afft::Kind>(given.kind);
                  cpp.axes = axes_of(comm, given.transforms, who);
                  cpp.padding = padding_of(given.padding, 2);
                  cpp.exchange = text_or(given.exchange, "auto");
                  cpp.output = static_cast<a2afft::Fft2dOutput>(given.output);
                  return new a2afft_fft2d_plan{a2afft::Fft2d(comm, {shape[0], shape[1]}, cpp), {}};
                });
}

int a2afft_fft2d_create_f(MPI_Fint comm, const size_t shape[2], const a2afft_fft2d_options* options,
                          a2afft_fft2d* plan) {
  return a2afft_fft2d_create(MPI_Comm_f2c(comm), shape, options, plan);
}

A2AFFT_PLAN_CALLS(fft2d)
A2AFFT_BOX_PLAN_CALLS(fft2d, 2)

// ---- 1D

int a2afft_fft1d_create(MPI_Comm comm, size_t n, const a2afft_fft1d_options* options,
                        a2afft_fft1d* plan) {
  return create(comm, options, a2afft_fft1d_options_init, plan, "a2afft_fft1d_create", {},
                [&](const a2afft_fft1d_options& given) {
                  a2afft::Fft1dOptions cpp;
                  read_shared(given, cpp);
                  cpp.exchange = text_or(given.exchange, "auto");
                  cpp.n1 = given.n1;
                  cpp.output = static_cast<a2afft::Fft1dOutput>(given.output);
                  return new a2afft_fft1d_plan{a2afft::Fft1d(comm, n, cpp), {}};
                });
}

int a2afft_fft1d_create_f(MPI_Fint comm, size_t n, const a2afft_fft1d_options* options,
                          a2afft_fft1d* plan) {
  return a2afft_fft1d_create(MPI_Comm_f2c(comm), n, options, plan);
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
  return count(plan, &a2afft::DistributedFft::input_bytes);
}

A2AFFT_PLAN_CALLS(fft1d)

// ---- The exchange

int a2afft_exchange_create(MPI_Comm comm, size_t block_bytes, const char* spec,
                           a2afft_exchange* exchange) {
  constexpr const char* who = "a2afft_exchange_create";
  if (exchange != nullptr) *exchange = nullptr;
  return guarded([&] {
    agree(
        comm,
        exchange == nullptr ? std::string(who) + ": exchange is NULL; pass the address of one" : "",
        who);
    auto made = a2afft::make_exchange(comm, block_bytes, text_or(spec, "auto"));
    *exchange = new a2afft_exchange_plan{std::move(made), {}};
  });
}

int a2afft_exchange_create_f(MPI_Fint comm, size_t block_bytes, const char* spec,
                             a2afft_exchange* exchange) {
  return a2afft_exchange_create(MPI_Comm_f2c(comm), block_bytes, spec, exchange);
}

int a2afft_exchange_destroy(a2afft_exchange* exchange) {
  return destroy(exchange);
}

int a2afft_exchange_run(a2afft_exchange exchange, const void* send, void* recv) {
  return guarded([&] { checked(exchange, "a2afft_exchange_run").exchange->run(send, recv); });
}

size_t a2afft_exchange_buffer_bytes(a2afft_exchange exchange) {
  return exchange == nullptr ? 0 : exchange->exchange->buffer_bytes();
}

const char* a2afft_exchange_describe(a2afft_exchange exchange) {
  if (exchange == nullptr) return "";
  if (exchange->description.empty()) exchange->description = exchange->exchange->describe();
  return exchange->description.c_str();
}

}  // extern "C"
