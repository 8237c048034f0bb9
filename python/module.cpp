// _a2afft: the public C++ API (include/a2afft/) for Python, through pybind11. Thin on purpose:
// plans are built from plain arguments, and transforms run through the plans' type-erased
// execute() on the raw memory of NumPy arrays (no copies), which checks every rank's byte
// counts collectively. Argument polish (dtypes, shapes, slices, output arrays) lives in
// python/a2afft/__init__.py. Communicators come from mpi4py; library exceptions become
// a2afft.Error, a2afft.UsageError (also a ValueError) and a2afft.MpiError with the same message.

#include <mpi.h>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <tuple>

#include <mpi4py/mpi4py.h>

#include <memory>
#include <string>
#include <utility>

#include <a2afft/a2afft.hpp>

namespace py = pybind11;

namespace {

// The MPI_Comm inside an mpi4py communicator; TypeError for anything else.
MPI_Comm communicator(const py::object& comm) {
  MPI_Comm* handle = PyMPIComm_Get(comm.ptr());
  if (handle == nullptr) throw py::error_already_set();
  return *handle;
}

// The memory of a C-contiguous NumPy array (the wrapper checks dtype and shape first).
std::pair<void*, std::size_t> memory_of(const py::array& array) {
  if (!(array.flags() & py::array::c_style)) {
    throw a2afft::UsageError("the array is not C-contiguous; pass numpy.ascontiguousarray(a)");
  }
  return {const_cast<void*>(array.data()), static_cast<std::size_t>(array.nbytes())};
}

// A plan that Python may close() before MPI_Finalize (mpi4py finalizes MPI at exit, before
// the interpreter frees its objects); every call after close() is a UsageError.
template <typename Plan>
struct Held {
  std::unique_ptr<Plan> plan;

  Plan& get() const {
    if (!plan) throw a2afft::UsageError("this plan was closed; make a new one");
    return *plan;
  }
  void close() { plan.reset(); }
  // in and out of one transform, with the GIL released while it runs (it is collective: other
  // Python threads go on).
  void execute(a2afft::Direction direction, const py::array& in, const py::array& out) {
    const auto [in_data, in_bytes] = memory_of(in);
    const auto [out_data, out_bytes] = memory_of(out);
    Plan& plan_ref = get();
    const py::gil_scoped_release unlocked;
    plan_ref.execute(direction, in_data, in_bytes, out_data, out_bytes);
  }
};

py::tuple box_tuple(const a2afft::Box3& box) {
  return py::make_tuple(box.lower, box.size, box.order);
}
py::tuple box_tuple(const a2afft::Box2& box) {
  return py::make_tuple(box.lower, box.size, box.order);
}

// What every plan class offers alike.
template <typename Plan>
void bind_common(py::class_<Held<Plan>>& plan) {
  plan.def("close", &Held<Plan>::close, "Frees the plan (collective, as its destruction)")
      .def("execute", &Held<Plan>::execute, py::arg("direction"), py::arg("input"),
           py::arg("output"))
      .def("describe", [](const Held<Plan>& held) { return held.get().describe(); })
      .def("last_times",
           [](const Held<Plan>& held) {
             const a2afft::FftTimes times = held.get().last_times();
             return py::make_tuple(times.transpose_seconds, times.compute_seconds);
           })
      .def("workspace_bytes", [](const Held<Plan>& held) { return held.get().workspace_bytes(); })
      .def("batch", [](const Held<Plan>& held) { return held.get().batch(); })
      .def("threads", [](const Held<Plan>& held) { return held.get().threads(); });
}

// Fft3d and Fft2d: boxes and byte counts of input, output and in-place arrays.
template <typename Plan>
void bind_boxes(py::class_<Held<Plan>>& plan) {
  plan.def("input_box", [](const Held<Plan>& held) { return box_tuple(held.get().input_box()); })
      .def("output_box", [](const Held<Plan>& held) { return box_tuple(held.get().output_box()); })
      .def("in_place_elements",
           [](const Held<Plan>& held) { return held.get().in_place_elements(); })
      .def("padded_shape", [](const Held<Plan>& held) { return held.get().padded_shape(); });
}

// A plan's options: the shared ones the wrapper filled once (PlanOptions), and the plan's own.
template <typename Options>
Options with_shared(const a2afft::PlanOptions& shared) {
  Options options;
  static_cast<a2afft::PlanOptions&>(options) = shared;
  return options;
}

// a2afft.Error (RuntimeError), with UsageError (also a ValueError) and MpiError below it.
void bind_errors(py::module_& module) {
  static py::exception<a2afft::Error> error(module, "Error", PyExc_RuntimeError);
  static py::object usage_error = py::reinterpret_steal<py::object>(PyErr_NewException(
      "a2afft.UsageError", py::make_tuple(error, py::handle(PyExc_ValueError)).ptr(), nullptr));
  static py::object mpi_error = py::reinterpret_steal<py::object>(
      PyErr_NewException("a2afft.MpiError", error.ptr(), nullptr));
  module.attr("UsageError") = usage_error;
  module.attr("MpiError") = mpi_error;
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const a2afft::UsageError& e) {
      PyErr_SetString(usage_error.ptr(), e.what());
    } catch (const a2afft::MpiError& e) {
      PyErr_SetString(mpi_error.ptr(), e.what());
    } catch (const a2afft::Error& e) {
      PyErr_SetString(error.ptr(), e.what());
    }
  });
}

void bind_enums(py::module_& module) {
  py::enum_<a2afft::Direction>(module, "Direction")
      .value("forward", a2afft::Direction::forward)
      .value("backward", a2afft::Direction::backward);
  py::enum_<a2afft::Kind>(module, "Kind")
      .value("c2c", a2afft::Kind::c2c)
      .value("r2c", a2afft::Kind::r2c)
      .value("r2r", a2afft::Kind::r2r);
  py::enum_<a2afft::AxisKind> axis(module, "AxisKind");
  for (const a2afft::AxisKind kind :
       a2afft::parse_axis_kinds("dft,r2c,dct1,dct2,dct3,dct4,dst1,dst2,dst3,dst4,none")) {
    axis.value(a2afft::to_string(kind).c_str(), kind);
  }
  module.def("parse_axis_kinds", &a2afft::parse_axis_kinds, py::arg("text"),
             "The AxisKind of each word of 'dct2,dft,r2c' (UsageError names a bad one)");
  py::enum_<a2afft::Precision>(module, "Precision")
      .value("double", a2afft::Precision::double_precision)
      .value("single", a2afft::Precision::single_precision);
  py::enum_<a2afft::Rigor>(module, "Rigor")
      .value("estimate", a2afft::Rigor::estimate)
      .value("measure", a2afft::Rigor::measure)
      .value("patient", a2afft::Rigor::patient);
  py::enum_<a2afft::Scaling>(module, "Scaling")
      .value("none", a2afft::Scaling::none)
      .value("full", a2afft::Scaling::full)
      .value("symmetric", a2afft::Scaling::symmetric);
}

// The options every plan shares, filled once by the wrapper (a2afft/__init__.py).
void bind_plan_options(py::module_& module) {
  py::class_<a2afft::PlanOptions>(module, "PlanOptions")
      .def(py::init<>())
      .def_readwrite("exchange", &a2afft::PlanOptions::exchange)
      .def_readwrite("rigor", &a2afft::PlanOptions::rigor)
      .def_readwrite("scaling", &a2afft::PlanOptions::scaling)
      .def_readwrite("wisdom_file", &a2afft::PlanOptions::wisdom_file)
      .def_readwrite("kind", &a2afft::PlanOptions::kind)
      .def_readwrite("precision", &a2afft::PlanOptions::precision)
      .def_readwrite("batch", &a2afft::PlanOptions::batch)
      .def_readwrite("axes", &a2afft::PlanOptions::axes)
      .def_readwrite("padding", &a2afft::PlanOptions::padding)
      .def_readwrite("threads", &a2afft::PlanOptions::threads);
}

// Plans the options describe, collectively, with the GIL released meanwhile.
template <typename Plan, typename Shape, typename Options>
Held<Plan> planned(const py::object& comm, const Shape& shape, const Options& options) {
  const MPI_Comm handle = communicator(comm);
  const py::gil_scoped_release unlocked;
  return Held<Plan>{std::make_unique<Plan>(handle, shape, options)};
}

// (lower, size, order) from Python, as a box; none stays none.
using BoxTuple =
    std::tuple<std::array<std::size_t, 3>, std::array<std::size_t, 3>, std::array<int, 3>>;
std::optional<a2afft::Box3> box_of(const std::optional<BoxTuple>& given) {
  if (!given) return std::nullopt;
  a2afft::Box3 box;
  std::tie(box.lower, box.size, box.order) = *given;
  return box;
}

void bind_fft3d(py::module_& module) {
  py::class_<Held<a2afft::Fft3d>> fft3d(module, "Fft3d");
  fft3d
      .def(py::init([](const py::object& comm, const std::array<std::size_t, 3>& shape,
                       const a2afft::PlanOptions& shared, const std::array<int, 2>& grid,
                       const std::string& row_exchange, const std::string& column_exchange,
                       bool natural_output, const std::optional<BoxTuple>& input_box,
                       const std::optional<BoxTuple>& output_box,
                       const std::string& reshape_exchange) {
             auto options = with_shared<a2afft::Fft3dOptions>(shared);
             options.input_box = box_of(input_box);
             options.output_box = box_of(output_box);
             options.reshape_exchange = reshape_exchange;
             options.grid = grid;
             options.row_exchange = row_exchange;
             options.column_exchange = column_exchange;
             options.output =
                 natural_output ? a2afft::Fft3dOutput::natural : a2afft::Fft3dOutput::transposed;
             return planned<a2afft::Fft3d>(comm, shape, options);
           }),
           py::arg("comm"), py::arg("shape"), py::arg("options"), py::arg("grid"),
           py::arg("row_exchange"), py::arg("column_exchange"), py::arg("natural_output"),
           py::arg("input_box") = std::nullopt, py::arg("output_box") = std::nullopt,
           py::arg("reshape_exchange") = "auto")
      .def("grid", [](const Held<a2afft::Fft3d>& held) { return held.get().grid(); });
  bind_common(fft3d);
  bind_boxes(fft3d);
}

void bind_fft2d(py::module_& module) {
  py::class_<Held<a2afft::Fft2d>> fft2d(module, "Fft2d");
  fft2d.def(py::init([](const py::object& comm, const std::array<std::size_t, 2>& shape,
                        const a2afft::PlanOptions& shared, bool natural_output) {
              auto options = with_shared<a2afft::Fft2dOptions>(shared);
              options.output =
                  natural_output ? a2afft::Fft2dOutput::natural : a2afft::Fft2dOutput::transposed;
              return planned<a2afft::Fft2d>(comm, shape, options);
            }),
            py::arg("comm"), py::arg("shape"), py::arg("options"), py::arg("natural_output"));
  bind_common(fft2d);
  bind_boxes(fft2d);
}

void bind_fft1d(py::module_& module) {
  py::class_<Held<a2afft::Fft1d>> fft1d(module, "Fft1d");
  fft1d
      .def(py::init([](const py::object& comm, std::size_t n, const a2afft::PlanOptions& shared,
                       std::size_t n1, bool scrambled_output) {
             auto options = with_shared<a2afft::Fft1dOptions>(shared);
             options.n1 = n1;
             options.output =
                 scrambled_output ? a2afft::Fft1dOutput::scrambled : a2afft::Fft1dOutput::natural;
             return planned<a2afft::Fft1d>(comm, n, options);
           }),
           py::arg("comm"), py::arg("n"), py::arg("options"), py::arg("n1"),
           py::arg("scrambled_output"))
      .def("local_points",
           [](const Held<a2afft::Fft1d>& held) { return held.get().local_points(); })
      .def("input_offset",
           [](const Held<a2afft::Fft1d>& held) { return held.get().input_offset(); })
      .def("n1", [](const Held<a2afft::Fft1d>& held) { return held.get().n1(); })
      .def("n2", [](const Held<a2afft::Fft1d>& held) { return held.get().n2(); })
      .def("output_indices", [](const Held<a2afft::Fft1d>& held) {
        const a2afft::Fft1d& plan = held.get();
        py::array_t<std::size_t> indices(static_cast<py::ssize_t>(plan.local_points()));
        auto view = indices.mutable_unchecked<1>();
        for (py::ssize_t i = 0; i < view.shape(0); ++i)
          view(i) = plan.output_index(static_cast<std::size_t>(i));
        return indices;
      });
  bind_common(fft1d);
}

void bind_exchange(py::module_& module) {
  py::class_<a2afft::Exchange>(module, "Exchange")
      .def("run",
           // The wrapper has checked both sizes on every rank (collectively) before this.
           [](a2afft::Exchange& exchange, const py::array& send, const py::array& recv) {
             const void* send_data = memory_of(send).first;
             void* recv_data = memory_of(recv).first;
             const py::gil_scoped_release unlocked;
             exchange.run(send_data, recv_data);
           })
      .def("describe", &a2afft::Exchange::describe)
      .def_property_readonly("block_bytes", &a2afft::Exchange::block_bytes)
      .def_property_readonly("ranks", &a2afft::Exchange::ranks)
      .def_property_readonly("buffer_bytes", &a2afft::Exchange::buffer_bytes);
  module.def(
      "make_exchange",
      [](const py::object& comm, std::size_t block_bytes, const std::string& spec) {
        const MPI_Comm handle = communicator(comm);
        const py::gil_scoped_release unlocked;
        return a2afft::make_exchange(handle, block_bytes, spec);
      },
      py::arg("comm"), py::arg("block_bytes"), py::arg("spec"));
}

}  // namespace

PYBIND11_MODULE(_a2afft, module) {
  module.doc() = "a2afft's C++ API; use the a2afft package, which wraps it";
  if (import_mpi4py() < 0) throw py::error_already_set();
  bind_errors(module);
  bind_enums(module);
  bind_plan_options(module);
  bind_fft3d(module);
  bind_fft2d(module);
  bind_fft1d(module);
  bind_exchange(module);
  module.def("version", &a2afft::version);
}
