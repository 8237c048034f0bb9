#include "fftw_serial_reference.hpp"

#include <type_traits>
#include <vector>

#include <a2afft/error.hpp>
#include <a2afft/tools/fft_tools.hpp>

namespace a2afft::commands {
namespace {

// The whole array on the one rank, in place, as FFTW's serial many-plans take it: `rank`
// dimensions of `dims`, the batch interleaved (stride batch, distance 1), r2c rows padded.
template <typename Real>
class FftwSerial3d final : public FftCandidate {
 public:
  using Api = FftwApi<Real>;
  using C = typename Api::FftwComplex;

  FftwSerial3d(const std::array<std::size_t, 3>& shape, Rigor rigor,
               const BenchmarkTransform& transform, bool two_d, Arrays arrays)
      : FftCandidate("fftw", transform), shape_(shape), two_d_(two_d) {
    const std::array<std::size_t, 3> complex = transform.output_shape(shape);
    const bool r2c = transform.kind == Kind::r2c;
    padded_row_ = r2c ? 2 * complex[2] : shape[2];
    box_ = {{0, 0, 0}, shape};
    output_box_ = {{0, 0, 0}, complex};
    const std::size_t slots = shape[0] * shape[1] * (r2c ? complex[2] : shape[2]);
    array_ = candidate_array(slots * transform.batch * sizeof(C), arrays);
    data_ = array_.as<C>();
    plan(rigor);
    if (forward_ == nullptr || backward_ == nullptr) {
      release();  // the destructor does not run for a constructor that throws
      throw UsageError("fftw: FFTW could not plan " + shape_to_string(shape) + " " +
                       transform.to_string());
    }
  }
  ~FftwSerial3d() override { release(); }
  FftwSerial3d(const FftwSerial3d&) = delete;
  FftwSerial3d& operator=(const FftwSerial3d&) = delete;

  std::string describe() const override {
    const Kind kind = transform().kind;
    return std::string(std::is_same_v<Real, float> ? "fftwf" : "fftw") + "_plan_many_" +
           (kind == Kind::r2r   ? "r2r"
            : kind == Kind::r2c ? "dft_r2c"
                                : "dft") +
           (two_d_ ? "(rank 2)" : "(rank 3)");
  }
  Box3 input_box() const override { return box_; }
  void load(const std::vector<Complex>& input) override {
    store_fields(transform(), input, {shape_[2], padded_row_}, data_);
  }
  void forward() override { last_seconds_ = timed(forward_); }
  void backward() override { last_seconds_ = timed(backward_); }
  std::vector<Complex> gather_output() const override {
    return field_zero(transform(), data_, output_box_.elements());
  }
  RoundTrip round_trip(const std::vector<Complex>& input, double points) const override {
    return compare_fields(transform(), input, {shape_[2], padded_row_}, data_, points);
  }
  FftTimes last_times() const override { return {0.0, last_seconds_}; }

 private:
  void plan(Rigor rigor) {
    const unsigned flags = fftw_planner_flags(rigor);
    const int rank = two_d_ ? 2 : 3;
    std::array<int, 3> n{}, real_rows{}, complex_rows{};
    for (std::size_t d = 0; d < 3; ++d) {
      n[d] = static_cast<int>(shape_[d]);
      real_rows[d] = n[d];
      complex_rows[d] = static_cast<int>(transform().output_shape(shape_)[d]);
    }
    real_rows[2] = static_cast<int>(padded_row_);
    const int skip = two_d_ ? 1 : 0;
    const int howmany = static_cast<int>(transform().batch);
    auto* real = reinterpret_cast<Real*>(data_);
    if (transform().kind == Kind::r2r) {
      std::vector<fftw_r2r_kind> forward_kinds, backward_kinds;
      for (const AxisKind axis : transform().axes) {
        forward_kinds.push_back(static_cast<fftw_r2r_kind>(fftw_r2r_kind_of(axis, false)));
        backward_kinds.push_back(static_cast<fftw_r2r_kind>(fftw_r2r_kind_of(axis, true)));
      }
      forward_ = Api::plan_many_r2r(rank, n.data() + skip, howmany, real, nullptr, howmany, 1, real,
                                    nullptr, howmany, 1, forward_kinds.data(), flags);
      backward_ = Api::plan_many_r2r(rank, n.data() + skip, howmany, real, nullptr, howmany, 1,
                                     real, nullptr, howmany, 1, backward_kinds.data(), flags);
    } else if (transform().kind == Kind::r2c) {
      forward_ =
          Api::plan_many_r2c(rank, n.data() + skip, howmany, real, real_rows.data() + skip, howmany,
                             1, data_, complex_rows.data() + skip, howmany, 1, flags);
      backward_ =
          Api::plan_many_c2r(rank, n.data() + skip, howmany, data_, complex_rows.data() + skip,
                             howmany, 1, real, real_rows.data() + skip, howmany, 1, flags);
    } else {
      forward_ = Api::plan_many_dft(rank, n.data() + skip, howmany, data_, nullptr, howmany, 1,
                                    data_, nullptr, howmany, 1, FFTW_FORWARD, flags);
      backward_ = Api::plan_many_dft(rank, n.data() + skip, howmany, data_, nullptr, howmany, 1,
                                     data_, nullptr, howmany, 1, FFTW_BACKWARD, flags);
    }
  }

  static double timed(typename Api::Plan plan) {
    const double start = MPI_Wtime();
    Api::execute(plan);
    return MPI_Wtime() - start;
  }

  void release() {
    if (forward_ != nullptr) Api::destroy(forward_);
    if (backward_ != nullptr) Api::destroy(backward_);
    forward_ = backward_ = nullptr;
  }

  std::array<std::size_t, 3> shape_;
  bool two_d_;
  Box3 box_;
  Box3 output_box_;
  std::size_t padded_row_ = 0;  // input slots per row: 2(n2/2+1) reals for r2c
  Buffer array_;
  C* data_ = nullptr;  // array_'s
  typename Api::Plan forward_ = nullptr;
  typename Api::Plan backward_ = nullptr;
  double last_seconds_ = 0;
};

}  // namespace

std::string fftw_serial_refusal(int ranks, const BenchmarkTransform& transform) {
  const std::string cannot = "fftw: FFTW's serial plan cannot run ";
  if (ranks != 1) {
    return cannot + "on " + std::to_string(ranks) + " ranks; it transforms the whole array on one";
  }
  if (transform.padded()) return cannot + transform.to_string() + ": it has no padded transforms";
  for (const AxisKind axis : transform.axes) {
    const bool dft_family = axis == AxisKind::dft || axis == AxisKind::r2c;
    if (transform.kind == Kind::r2r ? axis == AxisKind::none : !dft_family) {
      return cannot + transform.to_string() + ": its many-plans take one family on every axis";
    }
  }
  return {};
}

std::unique_ptr<FftCandidate> make_fftw_serial_3d(MPI_Comm comm,
                                                  const std::array<std::size_t, 3>& shape,
                                                  Rigor rigor, const BenchmarkTransform& transform,
                                                  bool two_d, Arrays arrays) {
  int ranks = 0;
  MPI_Comm_size(comm, &ranks);
  if (const std::string why = fftw_serial_refusal(ranks, transform); !why.empty()) {
    throw UsageError(why);
  }
  if (transform.precision == Precision::single_precision) {
    return std::make_unique<FftwSerial3d<float>>(shape, rigor, transform, two_d, arrays);
  }
  return std::make_unique<FftwSerial3d<double>>(shape, rigor, transform, two_d, arrays);
}

}  // namespace a2afft::commands
