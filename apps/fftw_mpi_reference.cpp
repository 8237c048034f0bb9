#include "fftw_mpi_reference.hpp"

#include <algorithm>
#include <type_traits>

#include <a2afft/error.hpp>
#include <a2afft/tools/fft_tools.hpp>

#include "fftw_serial_reference.hpp"

namespace a2afft::commands {
namespace {

// FFTW-MPI's calls of each precision, so the 3D reference is one code path over both.
template <typename Real>
struct FftwMpiApi;
template <>
struct FftwMpiApi<double> : FftwApi<double> {  // its plan type, execute and destroy
  static constexpr auto init = fftw_mpi_init;
  static constexpr auto local_size = fftw_mpi_local_size_many_transposed;
  static constexpr auto local_size_1d = fftw_mpi_local_size_many_1d;
  static constexpr auto plan_dft = fftw_mpi_plan_many_dft;
  static constexpr auto plan_r2c = fftw_mpi_plan_many_dft_r2c;
  static constexpr auto plan_c2r = fftw_mpi_plan_many_dft_c2r;
  static constexpr auto plan_r2r = fftw_mpi_plan_many_r2r;
};
template <>
struct FftwMpiApi<float> : FftwApi<float> {  // its plan type, execute and destroy
  static constexpr auto init = fftwf_mpi_init;
  static constexpr auto local_size = fftwf_mpi_local_size_many_transposed;
  static constexpr auto local_size_1d = fftwf_mpi_local_size_many_1d;
  static constexpr auto plan_dft = fftwf_mpi_plan_many_dft;
  static constexpr auto plan_r2c = fftwf_mpi_plan_many_dft_r2c;
  static constexpr auto plan_c2r = fftwf_mpi_plan_many_dft_c2r;
  static constexpr auto plan_r2r = fftwf_mpi_plan_many_r2r;
};

// fftw(f)_mpi_init before the first plan of the precision; FFTW asks for it once per process.
template <typename Real>
void initialize() {
  static const bool initialized = [] {
    FftwMpiApi<Real>::init();
    return true;
  }();
  (void)initialized;
}

// ", 2 threads" in a plan's description, so that rows of several counts stay apart.
std::string threads_text(int threads) {
  return threads > 1 ? ", " + std::to_string(threads) + " threads" : "";
}

// Why FFTW-MPI cannot compute `transform`, or "": its r2r plans take a cosine or sine kind on
// every axis, and its DFTs none; it has no padded transforms.
std::string axes_refusal(const BenchmarkTransform& transform) {
  if (transform.padded()) {
    return "fftw-mpi: FFTW-MPI cannot run " + transform.to_string() +
           ": it has no padded (dealiased) transforms";
  }
  for (const AxisKind axis : transform.axes) {
    const bool dft_family = axis == AxisKind::dft || axis == AxisKind::r2c;
    if (transform.kind == Kind::r2r ? axis == AxisKind::none : !dft_family) {
      return "fftw-mpi: FFTW-MPI cannot run " + transform.to_string() +
             (transform.kind == Kind::r2r ? ": its plans transform every axis"
                                          : ": its DFT plans take no cosine, sine or none axis");
    }
  }
  return {};
}

// Runs `plan` and returns its seconds.
template <typename Real>
double timed(typename FftwMpiApi<Real>::Plan plan) {
  const double start = MPI_Wtime();
  FftwMpiApi<Real>::execute(plan);
  return MPI_Wtime() - start;
}

template <typename Real>
class FftwMpi3d final : public FftCandidate {
 public:
  using Api = FftwMpiApi<Real>;
  using C = typename Api::FftwComplex;

  FftwMpi3d(MPI_Comm comm, const std::array<std::size_t, 3>& shape, Rigor rigor,
            bool transposed_output, const BenchmarkTransform& transform, bool two_d, Arrays arrays,
            int threads)
      : FftCandidate("fftw-mpi", transform),
        comm_(comm),
        shape_(shape),
        transposed_output_(transposed_output),
        two_d_(two_d),
        threads_(threads) {
    int ranks = 0;
    MPI_Comm_size(comm, &ranks);
    if (const std::string why = fftw_mpi_refusal(shape, ranks, two_d); !why.empty()) {
      throw UsageError(why);
    }
    if (const std::string why = axes_refusal(transform); !why.empty()) throw UsageError(why);
    initialize<Real>();
    const bool r2c = transform.kind == Kind::r2c;
    const auto howmany = static_cast<ptrdiff_t>(transform.batch);
    const std::array<std::size_t, 3> complex = transform.output_shape(shape);
    // A 2D transform (shape[0] == 1 from the fft2d command) is FFTW-MPI's rank-2 plan of
    // n1 x n2, its slabs along n1; its boxes keep the leading dimension of one point.
    const int rank = two_d ? 2 : 3;
    const ptrdiff_t* logical = dims_.data() + (two_d ? 1 : 0);
    dims_ = {static_cast<ptrdiff_t>(shape[0]), static_cast<ptrdiff_t>(shape[1]),
             static_cast<ptrdiff_t>(shape[2])};
    std::array<ptrdiff_t, 3> counted = dims_;
    counted[2] = static_cast<ptrdiff_t>(complex[2]);
    ptrdiff_t local_n0 = 0, start0 = 0, local_n1 = 0, start1 = 0;
    const ptrdiff_t alloc =
        Api::local_size(rank, counted.data() + (two_d ? 1 : 0), howmany, FFTW_MPI_DEFAULT_BLOCK,
                        FFTW_MPI_DEFAULT_BLOCK, comm, &local_n0, &start0, &local_n1, &start1);
    array_ = candidate_array(static_cast<std::size_t>(std::max<ptrdiff_t>(alloc, 1)) * sizeof(C),
                             arrays);
    data_ = array_.as<C>();
    const auto u = [](ptrdiff_t v) { return static_cast<std::size_t>(v); };
    padded_row_ = r2c ? 2 * complex[2] : shape[2];
    if (two_d) {
      input_box_ = {{0, u(start0), 0}, {1, u(local_n0), shape[2]}};
      output_box_ = transposed_output
                        ? Box3{{0, 0, u(start1)}, {1, shape[1], u(local_n1)}, {0, 2, 1}}
                        : Box3{{0, u(start0), 0}, {1, u(local_n0), complex[2]}};
    } else {
      input_box_ = {{u(start0), 0, 0}, {u(local_n0), shape[1], shape[2]}};
      output_box_ = transposed_output
                        ? Box3{{0, u(start1), 0}, {shape[0], u(local_n1), complex[2]}, {1, 0, 2}}
                        : Box3{{u(start0), 0, 0}, {u(local_n0), shape[1], complex[2]}};
    }
    const unsigned flags = fftw_planner_flags(rigor);
    const unsigned out_flag = transposed_output ? FFTW_MPI_TRANSPOSED_OUT : 0;
    const unsigned in_flag = transposed_output ? FFTW_MPI_TRANSPOSED_IN : 0;
    const auto block = FFTW_MPI_DEFAULT_BLOCK;
    plan_fftw_with_threads(transform.precision, threads, [&] {
      if (transform.kind == Kind::r2r) {
        plan_r2r(rank, logical, comm, flags, transposed_output);
      } else if (r2c) {
        auto* real = reinterpret_cast<Real*>(data_);
        forward_ = Api::plan_r2c(rank, logical, howmany, block, block, real, data_, comm,
                                 flags | out_flag);
        backward_ =
            Api::plan_c2r(rank, logical, howmany, block, block, data_, real, comm, flags | in_flag);
      } else {
        forward_ = Api::plan_dft(rank, logical, howmany, block, block, data_, data_, comm,
                                 FFTW_FORWARD, flags | out_flag);
        backward_ = Api::plan_dft(rank, logical, howmany, block, block, data_, data_, comm,
                                  FFTW_BACKWARD, flags | in_flag);
      }
    });
    if (forward_ == nullptr || backward_ == nullptr) {
      release();  // the destructor does not run for a constructor that throws
      throw UsageError("fftw-mpi: FFTW-MPI could not plan " + shape_to_string(shape) + " " +
                       transform.to_string() + " on " + std::to_string(ranks) + " ranks");
    }
  }
  ~FftwMpi3d() override { release(); }
  FftwMpi3d(const FftwMpi3d&) = delete;
  FftwMpi3d& operator=(const FftwMpi3d&) = delete;

  std::string describe() const override {
    const Kind kind = transform().kind;
    return std::string(std::is_same_v<Real, float> ? "fftwf" : "fftw") + "_mpi_plan_many_" +
           (kind == Kind::r2r   ? "r2r"
            : kind == Kind::r2c ? "dft_r2c"
                                : "dft") +
           (two_d_ ? "(rank 2" : "(rank 3") + (transposed_output_ ? ", TRANSPOSED_OUT" : "") +
           threads_text(threads_) + ")";
  }
  int threads() const override { return threads_; }
  Box3 input_box() const override { return input_box_; }
  void load(const std::vector<Complex>& input) override {
    store_fields(transform(), input, {shape_[2], padded_row_}, data_);
  }
  void forward() override { last_seconds_ = timed<Real>(forward_); }
  void backward() override { last_seconds_ = timed<Real>(backward_); }
  std::vector<Complex> gather_output() const override {
    const std::vector<Complex> values = field_zero(transform(), data_, output_box_.elements());
    return gather_global(values.data(), output_box_, transform().output_shape(shape_), comm_);
  }
  RoundTrip round_trip(const std::vector<Complex>& input, double points) const override {
    return compare_fields(transform(), input, {shape_[2], padded_row_}, data_, points);
  }
  FftTimes last_times() const override { return {0.0, last_seconds_}; }

 private:
  // FFTW-MPI's r2r plans, each axis's kind forward and its inverse backward, in place on reals.
  void plan_r2r(int rank, const ptrdiff_t* logical, MPI_Comm comm, unsigned flags,
                bool transposed_output) {
    std::vector<fftw_r2r_kind> forward_kinds, backward_kinds;
    for (const AxisKind axis : transform().axes) {
      forward_kinds.push_back(static_cast<fftw_r2r_kind>(fftw_r2r_kind_of(axis, false)));
      backward_kinds.push_back(static_cast<fftw_r2r_kind>(fftw_r2r_kind_of(axis, true)));
    }
    auto* real = reinterpret_cast<Real*>(data_);
    const auto howmany = static_cast<ptrdiff_t>(transform().batch);
    const auto block = FFTW_MPI_DEFAULT_BLOCK;
    forward_ =
        Api::plan_r2r(rank, logical, howmany, block, block, real, real, comm, forward_kinds.data(),
                      flags | (transposed_output ? FFTW_MPI_TRANSPOSED_OUT : 0U));
    backward_ =
        Api::plan_r2r(rank, logical, howmany, block, block, real, real, comm, backward_kinds.data(),
                      flags | (transposed_output ? FFTW_MPI_TRANSPOSED_IN : 0U));
  }

  void release() {
    if (forward_ != nullptr) Api::destroy(forward_);
    if (backward_ != nullptr) Api::destroy(backward_);
    forward_ = backward_ = nullptr;
  }

  MPI_Comm comm_;
  std::array<std::size_t, 3> shape_;
  bool transposed_output_;
  bool two_d_;
  int threads_;                      // FFTW's threads of each rank
  std::array<ptrdiff_t, 3> dims_{};  // n0, n1, n2 for FFTW-MPI's plans
  Box3 input_box_;
  Box3 output_box_;
  std::size_t padded_row_ = 0;  // input slots per row: 2(n2/2+1) reals for r2c
  Buffer array_;
  C* data_ = nullptr;  // array_'s
  typename Api::Plan forward_ = nullptr;
  typename Api::Plan backward_ = nullptr;
  double last_seconds_ = 0;
};

template <typename Real>
class FftwMpi1d final : public FftCandidate {
 public:
  using Api = FftwMpiApi<Real>;
  using C = typename Api::FftwComplex;

  FftwMpi1d(MPI_Comm comm, std::size_t n, Rigor rigor, const BenchmarkTransform& transform,
            Arrays arrays, int threads)
      : FftCandidate("fftw-mpi", transform), comm_(comm), n_(n), threads_(threads) {
    initialize<Real>();
    const auto length = static_cast<ptrdiff_t>(n);
    const auto howmany = static_cast<ptrdiff_t>(transform.batch);
    ptrdiff_t local_ni = 0, start_i = 0, local_no = 0, start_o = 0;
    const ptrdiff_t alloc =
        Api::local_size_1d(length, howmany, comm, FFTW_FORWARD, fftw_planner_flags(rigor),
                           &local_ni, &start_i, &local_no, &start_o);
    const auto u = [](ptrdiff_t v) { return static_cast<std::size_t>(v); };
    input_box_ = {{0, 0, u(start_i)}, {1, 1, u(local_ni)}};
    output_box_ = {{0, 0, u(start_o)}, {1, 1, u(local_no)}};
    const std::size_t bytes = u(std::max<ptrdiff_t>(alloc, 1)) * sizeof(C);
    in_array_ = candidate_array(bytes, arrays);
    out_array_ = candidate_array(bytes, arrays);
    in_ = in_array_.as<C>();
    out_ = out_array_.as<C>();
    const auto block = FFTW_MPI_DEFAULT_BLOCK;
    plan_fftw_with_threads(transform.precision, threads, [&] {
      forward_ = Api::plan_dft(1, &length, howmany, block, block, in_, out_, comm, FFTW_FORWARD,
                               fftw_planner_flags(rigor));
      backward_ = Api::plan_dft(1, &length, howmany, block, block, out_, in_, comm, FFTW_BACKWARD,
                                fftw_planner_flags(rigor));
    });
    if (forward_ == nullptr || backward_ == nullptr) {
      release();  // the destructor does not run for a constructor that throws
      int ranks = 0;
      MPI_Comm_size(comm, &ranks);
      throw UsageError("fftw-mpi: FFTW-MPI cannot plan a 1D transform of N=" + std::to_string(n) +
                       " on " + std::to_string(ranks) + " ranks");
    }
  }
  ~FftwMpi1d() override { release(); }
  FftwMpi1d(const FftwMpi1d&) = delete;
  FftwMpi1d& operator=(const FftwMpi1d&) = delete;

  std::string describe() const override {
    return std::string(std::is_same_v<Real, float> ? "fftwf" : "fftw") +
           "_mpi_plan_many_dft(rank 1" + threads_text(threads_) + ")";
  }
  int threads() const override { return threads_; }
  Box3 input_box() const override { return input_box_; }
  void load(const std::vector<Complex>& input) override {
    store_fields(transform(), input, {input.size(), input.size()}, in_);
  }
  void forward() override { last_seconds_ = timed<Real>(forward_); }
  void backward() override { last_seconds_ = timed<Real>(backward_); }
  std::vector<Complex> gather_output() const override {
    const std::vector<Complex> values = field_zero(transform(), out_, output_box_.elements());
    return gather_global(values.data(), output_box_, {1, 1, n_}, comm_);
  }
  RoundTrip round_trip(const std::vector<Complex>& input, double points) const override {
    return compare_fields(transform(), input, {input.size(), input.size()}, in_, points);
  }
  FftTimes last_times() const override { return {0.0, last_seconds_}; }

 private:
  void release() {
    if (forward_ != nullptr) Api::destroy(forward_);
    if (backward_ != nullptr) Api::destroy(backward_);
    forward_ = backward_ = nullptr;
  }

  MPI_Comm comm_;
  std::size_t n_;
  int threads_;  // FFTW's threads of each rank
  Box3 input_box_;
  Box3 output_box_;
  Buffer in_array_;
  Buffer out_array_;
  C* in_ = nullptr;  // in_array_'s
  C* out_ = nullptr;
  typename Api::Plan forward_ = nullptr;
  typename Api::Plan backward_ = nullptr;
  double last_seconds_ = 0;
};

}  // namespace

std::string fftw_mpi_refusal(const std::array<std::size_t, 3>& shape, int ranks, bool two_d) {
  const std::size_t n0 = shape[two_d ? 1 : 0];
  const std::size_t n1 = shape[two_d ? 2 : 1];
  const auto p = static_cast<std::size_t>(ranks);
  if (n0 >= p && n1 >= p) return "";
  const std::string array =
      two_d ? std::to_string(n0) + "x" + std::to_string(n1) : shape_to_string(shape);
  return "fftw-mpi: FFTW-MPI is not run on " + array + " over " + std::to_string(ranks) +
         " ranks: it needs at least one plane per rank along n0 and n1 (here " +
         std::to_string(n0) + " and " + std::to_string(n1) +
         "); with fewer, FFTW-MPI 3.3.10 fails to plan or corrupts its heap while planning";
}

CandidateMaker fftw_mpi_maker(bool beside_a2afft, MakeCandidate make) {
  return skipping_refusal_if(beside_a2afft, "fftw-mpi", std::move(make),
                             "; the a2afft rows run without it");
}

std::unique_ptr<FftCandidate> make_fftw_mpi_3d(MPI_Comm comm,
                                               const std::array<std::size_t, 3>& shape, Rigor rigor,
                                               bool transposed_output,
                                               const BenchmarkTransform& transform, bool two_d,
                                               Arrays arrays, int threads) {
  if (transform.precision == Precision::single_precision) {
    return std::make_unique<FftwMpi3d<float>>(comm, shape, rigor, transposed_output, transform,
                                              two_d, arrays, threads);
  }
  return std::make_unique<FftwMpi3d<double>>(comm, shape, rigor, transposed_output, transform,
                                             two_d, arrays, threads);
}

std::unique_ptr<FftCandidate> make_fftw_mpi_1d(MPI_Comm comm, std::size_t n, Rigor rigor,
                                               const BenchmarkTransform& transform, Arrays arrays,
                                               int threads) {
  if (transform.precision == Precision::single_precision) {
    return std::make_unique<FftwMpi1d<float>>(comm, n, rigor, transform, arrays, threads);
  }
  return std::make_unique<FftwMpi1d<double>>(comm, n, rigor, transform, arrays, threads);
}

}  // namespace a2afft::commands
