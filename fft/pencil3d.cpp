#include "pencil3d.hpp"

#include <algorithm>
#include <stdexcept>

#include "error.hpp"
#include "make_exchange.hpp"
#include "mpi/comm.hpp"
#include "pencil_program.hpp"

namespace a2afft::detail::fft {

// One of the two transposes: the forward and the inverse direction share one exchange plan,
// since both move blocks of the same size among the same ranks.
template <typename Real>
struct BasicPencil3d<Real>::Transpose {
  TransposeStep there;
  TransposeStep back;
  std::unique_ptr<ExchangePlan> exchange;  // none inside a single rank
};

namespace {

// The grid, once every rank has checked that it covers exactly the job's ranks.
const ProcGrid& grid_of_job(const ProcGrid& grid, int ranks) {
  if (grid.rows * grid.columns != ranks) {
    throw UsageError("grid " + grid.to_string() + " has " +
                     std::to_string(grid.rows * grid.columns) + " ranks but the job has " +
                     std::to_string(ranks));
  }
  return grid;
}

// Real input and an r2c last axis are one thing; either option sets both.
Pencil3dOptions with_real_input(Pencil3dOptions options) {
  if (options.real_input) options.axes[2] = AxisKind::r2c;
  options.real_input = options.axes[2] == AxisKind::r2c;
  return options;
}

// r2c transforms the z lines of n2 reals into n2/2+1 complex points.
Shape3 complex_shape(const Shape3& shape, bool real_input) {
  return real_input ? Shape3{shape[0], shape[1], shape[2] / 2 + 1} : shape;
}

// The padded side's complex shape, or {} without padding.
Shape3 complex_padded_shape(const Pencil3dOptions& options) {
  if (options.padded == Shape3{}) return {};
  return complex_shape(options.padded, with_real_input(options).real_input);
}

}  // namespace

template <typename Real>
BasicPencil3d<Real>::BasicPencil3d(const Topology& topology, const Shape3& shape,
                                   const ProcGrid& grid, const Pencil3dOptions& options)
    : shape_(shape),
      physical_(options.padded == Shape3{} ? shape : options.padded),
      geometry_(complex_shape(shape, with_real_input(options).real_input),
                grid_of_job(grid, topology.size()), topology.rank(),
                options.natural_output ? PencilOutput::natural : PencilOutput::transposed,
                complex_padded_shape(options)),
      options_(with_real_input(options)),
      input_box_(geometry_.input_box()),
      real_data_(std::none_of(
          options_.axes.begin(), options_.axes.end(),
          [](AxisKind axis) { return axis == AxisKind::dft || axis == AxisKind::r2c; })),
      scalar_bytes_(real_data_ ? sizeof(Real) : sizeof(Complex)),
      element_bytes_(options.batch * scalar_bytes_) {
  if (options.batch == 0) throw std::logic_error("a pencil plan of a batch of 0 fields");
  if (options_.real_input) input_box_.extent[2] = physical_[2];
  // Row transpose among the p1 ranks of row a; column transpose among the p0 ranks of column b.
  const mpi::Comm row_comm = mpi::Comm::split(topology.comm(), geometry_.row(), geometry_.column());
  const mpi::Comm column_comm =
      mpi::Comm::split(topology.comm(), geometry_.column(), geometry_.row());
  row_topology_ = std::make_unique<Topology>(topology, row_comm.get());
  column_topology_ = std::make_unique<Topology>(topology, column_comm.get());
  make_exchanges(topology, grid);
  allocate_arrays();
  compile_programs();
}

template <typename Real>
BasicPencil3d<Real>::~BasicPencil3d() = default;

// The row's and the column's transposes, each with its exchange plan (none inside one rank).
template <typename Real>
void BasicPencil3d<Real>::make_exchanges(const Topology& topology, const ProcGrid& grid) {
  const TransposeShape& row_shape = geometry_.row_transpose();
  const TransposeShape& column_shape = geometry_.column_transpose();
  row_ = std::make_unique<Transpose>(
      Transpose{TransposeStep(row_shape), TransposeStep(row_shape.inverse()), nullptr});
  column_ = std::make_unique<Transpose>(
      Transpose{TransposeStep(column_shape), TransposeStep(column_shape.inverse()), nullptr});
  const std::array<bool, 2> own_block_left = pencil_own_block_left(geometry_);
  const auto make_plan = [&](Transpose& step, const Topology& members, const Spec& spec,
                             bool own_left) {
    if (step.there.is_identity()) return;
    // Each row (or column) decides for itself, so refusals are agreed over all ranks first.
    const ExchangeProblem problem{members, step.there.block_elements() * element_bytes_, own_left};
    if (const std::string why = agreed_refusal(spec, problem, topology.comm()); !why.empty()) {
      throw UsageError(spec.to_string() + " cannot run on some " +
                       (&step == row_.get() ? "row" : "column") + " of the " + grid.to_string() +
                       " grid: " + why);
    }
    step.exchange = make_exchange(spec, problem);
  };
  make_plan(*row_, *row_topology_, options_.row_exchange, own_block_left[0]);
  make_plan(*column_, *column_topology_, options_.column_exchange, own_block_left[1]);
}

template <typename Real>
void BasicPencil3d<Real>::allocate_arrays() {
  // Bytes of `points` points of every field, as the complex numbers that hold them.
  const auto complex_units = [&](std::size_t points) {
    return (points * element_bytes_ + sizeof(Complex) - 1) / sizeof(Complex);
  };
  // One pair of buffers serves both transposes; the row exchange's memory, when there is one.
  ExchangePlan* owner = row_->exchange ? row_->exchange.get() : column_->exchange.get();
  send_ = ExchangeArray<Complex>(owner, complex_units(geometry_.buffer_elements()));
  recv_ = ExchangeArray<Complex>(owner, complex_units(geometry_.buffer_elements()));
  work_ = ExchangeArray<Complex>(nullptr, complex_units(geometry_.data_elements()));
  // Each thread's scratch planes start a whole number of cache lines apart: aligned for FFTW
  // alike, and no line shared between threads (one thread: one plane, as it always was).
  const auto threads = static_cast<std::size_t>(options_.threads);
  const auto slot_of = [&](std::size_t bytes) {
    return threads == 1 ? bytes : (bytes + 63) / 64 * 64;
  };
  threads_.count = options_.threads;
  if (options_.real_input) {
    const std::size_t slot_bytes =
        slot_of(input_box_.extent[1] * physical_[2] * options_.batch * sizeof(Real));
    real_plane_.resize(threads * slot_bytes / sizeof(Real));
    threads_.slot_bytes[static_cast<std::size_t>(ProgramArray::real_plane)] = slot_bytes;
  }
  if (geometry_.transposes_locally()) {
    const std::size_t slot_bytes =
        slot_of(complex_units(geometry_.stage(2).plane_stride) * sizeof(Complex));
    plane_scratch_ = ExchangeArray<Complex>(nullptr, threads * slot_bytes / sizeof(Complex));
    threads_.slot_bytes[static_cast<std::size_t>(ProgramArray::plane_scratch)] = slot_bytes;
  }
  start_threads(options_.threads);
}

// Both directions' programs, forward first; their FFT plans are made as the programs first
// need them, so in the order the sweeps run.
template <typename Real>
void BasicPencil3d<Real>::compile_programs() {
  for (std::size_t stage = 0; stage < 3; ++stage) {
    resizes_[stage] =
        pencil_plane_resize(geometry_, shape_, physical_, options_.axes, options_.batch, stage);
  }
  ffts_ = std::make_unique<PencilPlaneFfts<Real>>(
      PencilPlanSetup<Real>{&geometry_, options_.axes, physical_, options_.batch, options_.rigor,
                            real_data_, work_.data(), real_plane_.data(), options_.threads});
  PencilProgramSetup setup;
  setup.geometry = &geometry_;
  setup.batch = options_.batch;
  setup.scalar_bytes = scalar_bytes_;
  setup.real_input = options_.real_input;
  setup.real_plane_bytes = input_box_.extent[1] * physical_[2] * options_.batch * sizeof(Real);
  setup.transposes = {&row_->there, &column_->there, &column_->back, &row_->back};
  setup.exchanges = {row_->exchange.get(), column_->exchange.get(), column_->exchange.get(),
                     row_->exchange.get()};
  setup.ranks_in_exchange = {row_topology_->rank(), column_topology_->rank(),
                             column_topology_->rank(), row_topology_->rank()};
  setup.resizes = &resizes_;
  setup.scaling = options_.scaling;
  setup.logical_points = logical_points({options_.axes.begin(), options_.axes.end()}, physical_);
  const std::array<bool, 2> leaves = leaves_own_block();
  forward_ = compile_pencil_program(setup, pencil_schedule(geometry_, false, leaves),
                                    Direction::forward, *ffts_);
  backward_ = compile_pencil_program(setup, pencil_schedule(geometry_, true, leaves),
                                     Direction::backward, *ffts_);
}

template <typename Real>
std::array<bool, 2> BasicPencil3d<Real>::leaves_own_block() const {
  const auto leaves = [](const Transpose& step) {
    return step.exchange != nullptr && step.exchange->can_leave_own_block();
  };
  return {leaves(*row_), leaves(*column_)};
}

template <typename Real>
ProgramArrays BasicPencil3d<Real>::arrays(const void* in, void* out) const {
  const auto bytes = [](const void* array) {
    return static_cast<std::byte*>(const_cast<void*>(array));  // the input is only ever read
  };
  return {bytes(in),
          bytes(out),
          bytes(work_.data()),
          bytes(send_.data()),
          bytes(recv_.data()),
          bytes(plane_scratch_.data()),
          bytes(real_plane_.data())};
}

template <typename Real>
void BasicPencil3d<Real>::forward(const void* in, void* out) {
  check_fftw_alignment(in, "forward's input");
  check_fftw_alignment(out, "forward's output");
  run_program(forward_, arrays(in, out), timer_, counter_, threads_);
}

template <typename Real>
void BasicPencil3d<Real>::backward(const void* in, void* out) {
  check_fftw_alignment(in, "backward's input");
  check_fftw_alignment(out, "backward's output");
  run_program(backward_, arrays(in, out), timer_, counter_, threads_);
}

template <typename Real>
TransformTraffic BasicPencil3d<Real>::traffic(bool backward) const {
  const TrafficCounter counted = program_traffic(backward ? backward_ : forward_);
  const Shape3& complex_shape = geometry_.shape();
  const int ranks = geometry_.grid().rows * geometry_.grid().columns;
  TransformTraffic traffic;
  traffic.bytes_moved = counted.bytes_moved();
  traffic.array_bytes = complex_shape[0] * complex_shape[1] * complex_shape[2] * element_bytes_ /
                        static_cast<std::size_t>(ranks);
  traffic.memory_passes = static_cast<double>(traffic.bytes_moved) /
                          static_cast<double>(std::max<std::size_t>(1, traffic.array_bytes));
  traffic.exchanged_bytes = counted.bytes_exchanged();
  return traffic;
}

template <typename Real>
std::size_t BasicPencil3d<Real>::in_place_elements() const {
  const std::size_t input_bytes =
      input_scalars() * (options_.real_input ? sizeof(Real) : scalar_bytes_);
  const std::size_t bytes = std::max(input_bytes, output_scalars() * scalar_bytes_);
  return (bytes + scalar_bytes_ - 1) / scalar_bytes_;
}

template <typename Real>
std::size_t BasicPencil3d<Real>::workspace_bytes() const {
  return (work_.size() + send_.size() + recv_.size() + plane_scratch_.size()) * sizeof(Complex) +
         real_plane_.size() * sizeof(Real);
}

template <typename Real>
std::string BasicPencil3d<Real>::describe_exchange(PencilTranspose which) const {
  const Transpose& step = which == PencilTranspose::row ? *row_ : *column_;
  return step.exchange ? step.exchange->describe() : std::string("-");
}

template <typename Real>
std::string BasicPencil3d<Real>::describe() const {
  return "row=" + describe_exchange(PencilTranspose::row) +
         ",column=" + describe_exchange(PencilTranspose::column);
}

template class BasicPencil3d<double>;
template class BasicPencil3d<float>;

}  // namespace a2afft::detail::fft
