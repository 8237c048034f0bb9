"""a2afft from Python: distributed FFTs (3D pencils, 2D slabs, 1D six-step) and the all-to-all
exchanges behind them, on NumPy arrays and mpi4py communicators.

    from mpi4py import MPI
    import numpy as np
    import a2afft

    fft = a2afft.Fft3d(MPI.COMM_WORLD, (128, 128, 128), kind="r2c", dtype=np.float64)
    u = np.random.rand(*fft.local_input_shape)         # this rank's part: fft.local_input_slices
    u_hat = fft.forward(u)                             # this rank's part: fft.local_output_slices
    v = fft.backward(u_hat)                            # = u * 128**3 (scaling="none", as FFTW)

Every constructor and transform is collective over the communicator, as in mpi4py-fft and
FFTW-MPI. Arrays are used in place (no copies) when they are C-contiguous with the plan's
dtype; forward() and backward() allocate their output unless `out=` is given. Bad arguments
raise a2afft.UsageError (a ValueError) with the library's message, on every rank alike.
"""

import atexit
import weakref

import numpy as np
from mpi4py import MPI

from . import _a2afft
from ._a2afft import Error, MpiError, UsageError

__all__ = ["Fft3d", "Fft2d", "Fft1d", "exchange", "Error", "UsageError", "MpiError", "version"]

version = _a2afft.version

# Plans still open; closed (collectively, in creation order) before mpi4py finalizes MPI at exit:
# this hook is registered after mpi4py's, so it runs first.
_open_plans = weakref.WeakValueDictionary()
_plans_made = 0


def _close_all():
    for key in sorted(_open_plans.keys()):
        plan = _open_plans.get(key)
        if plan is not None:
            plan.close()


atexit.register(_close_all)

_RIGOR = {"estimate": _a2afft.Rigor.estimate, "measure": _a2afft.Rigor.measure,
          "patient": _a2afft.Rigor.patient}
_SCALING = {"none": _a2afft.Scaling.none, "full": _a2afft.Scaling.full,
            "symmetric": _a2afft.Scaling.symmetric}


def _choice(name, value, table):
    if value not in table:
        raise UsageError(f"{name}={value!r} is not valid; expected one of {', '.join(table)}")
    return table[value]


def _padding(padding, dims):
    """padding= as the plan's factors: None (none), one number for every axis, or one per
    axis; the library checks the values."""
    if padding is None:
        return []
    factors = [padding] * dims if isinstance(padding, (int, float)) else list(padding)
    try:
        return [float(factor) for factor in factors]
    except (TypeError, ValueError):
        raise UsageError(f"padding={padding!r} is not valid; expected a factor >= 1 (e.g. 1.5) "
                         f"or {dims} of them, one per axis") from None


def _axes(transforms, kind, dims):
    """(the AxisKind of each axis or [] for the kind's defaults, and the kind they make) for
    transforms= "dct2,dft,r2c" or ("dct2", "dft", "r2c"); the library checks the rest."""
    if transforms is None:
        if kind == "r2r":
            raise UsageError("kind='r2r' is not valid without transforms=; name each axis's cosine "
                             "or sine transform, e.g. transforms=\"dct2,dct2,dct2\"")
        return [], kind
    text = transforms if isinstance(transforms, str) else ",".join(transforms)
    axes = _a2afft.parse_axis_kinds(text)
    if len(axes) != dims:
        raise UsageError(f"transforms={transforms!r} name {len(axes)} axes; expected {dims}, "
                         "one per axis, slowest first")
    made = ("r2c" if _a2afft.AxisKind.r2c in axes else
            "c2c" if _a2afft.AxisKind.dft in axes else "r2r")
    if kind not in ("c2c", made):
        raise UsageError(f"kind={kind!r} does not fit transforms={text!r}, which make a {made} "
                         f"transform; leave kind c2c or set it to {made!r}")
    return axes, made


def _types(kind, dtype, real_allowed):
    """(kind, precision, input dtype, output dtype) for a kind and the input dtype."""
    if kind not in ("c2c", "r2c", "r2r") or (kind != "c2c" and not real_allowed):
        valid = "c2c or r2c (r2r through transforms=)" if real_allowed else "c2c (1D has no r2c)"
        raise UsageError(f"kind={kind!r} is not valid; expected {valid}")
    default = np.complex128 if kind == "c2c" else np.float64
    try:
        dtype = np.dtype(default if dtype is None else dtype)
    except TypeError as error:
        raise UsageError(f"dtype={dtype!r} is not a NumPy dtype") from error
    valid = {"c2c": (np.complex128, np.complex64), "r2c": (np.float64, np.float32),
             "r2r": (np.float64, np.float32)}[kind]
    if dtype not in [np.dtype(t) for t in valid]:
        raise UsageError(f"dtype={dtype} is not valid for kind={kind!r}; expected "
                         f"{' or '.join(np.dtype(t).name for t in valid)} (the input's dtype)")
    single = dtype in (np.dtype(np.complex64), np.dtype(np.float32))
    precision = _a2afft.Precision.single if single else _a2afft.Precision.double
    output = dtype if kind == "r2r" else np.dtype(np.complex64 if single else np.complex128)
    return getattr(_a2afft.Kind, kind), precision, dtype, output


# The plans' FFTW kernels need 16-byte aligned arrays; NumPy aligns to the item (8 bytes for
# complex64 and float64, smaller arrays included), so outputs are allocated aligned here, and an
# input or out= array that is not aligned goes through an aligned copy.
_ALIGNMENT = 64


def _aligned_empty(shape, dtype):
    dtype = np.dtype(dtype)
    count = int(np.prod(shape, dtype=np.int64))
    raw = np.empty(count * dtype.itemsize + _ALIGNMENT, dtype=np.uint8)
    start = (-raw.ctypes.data) % _ALIGNMENT
    return raw[start:start + count * dtype.itemsize].view(dtype).reshape(shape)


def _is_aligned(array):
    return array.ctypes.data % 16 == 0


def _communicator(comm):
    comm = MPI.COMM_WORLD if comm is None else comm
    if not isinstance(comm, MPI.Comm):
        raise UsageError(f"comm={comm!r} is not an mpi4py communicator")
    return comm


class _Plan:
    """What the three FFT plans share: transforms on NumPy arrays, timings, describe()."""

    def _register(self, comm, plan, input_dtype, output_dtype, batch):
        global _plans_made
        self._comm, self._plan = comm, plan
        self.input_dtype, self.output_dtype, self.batch = input_dtype, output_dtype, batch
        self.threads = plan.threads()  # the count "auto" chose, else the one asked for
        _plans_made += 1
        _open_plans[_plans_made] = self

    def _with_batch(self, shape):
        return tuple(shape) + ((self.batch,) if self.batch > 1 else ())

    def _transform(self, direction, array, out, in_shape, in_dtype, out_shape, out_dtype):
        name = "forward" if direction == _a2afft.Direction.forward else "backward"
        problem = None
        if not isinstance(array, np.ndarray):
            problem = f"{name}: the input is a {type(array).__name__}, not a NumPy array"
        elif array.dtype != in_dtype or array.shape != in_shape:
            problem = (f"{name}: the input is {array.dtype} of shape {array.shape}; this rank's "
                       f"part must be {in_dtype} of shape {in_shape}")
        elif not array.flags.c_contiguous:
            problem = f"{name}: the input is not C-contiguous; pass numpy.ascontiguousarray(a)"
        if out is None and problem is None:
            out = _aligned_empty(out_shape, out_dtype)
        elif out is not None and problem is None:
            if not isinstance(out, np.ndarray) or out.dtype != out_dtype or \
                    out.shape != out_shape or not out.flags.c_contiguous:
                problem = (f"{name}: out= must be a C-contiguous {out_dtype} array of shape "
                           f"{out_shape} on this rank")
        if problem is not None:
            # Every rank takes part in the transform's own collective check, which then fails
            # everywhere (naming this rank): no rank is left waiting in the transform.
            try:
                self._plan.execute(direction, np.empty(0, np.uint8), np.empty(0, np.uint8))
            except UsageError:
                pass
            raise UsageError(problem)
        source = array if _is_aligned(array) else _aligned_empty(array.shape, array.dtype)
        if source is not array:
            source[...] = array
        target = out if _is_aligned(out) or out is array else _aligned_empty(out.shape, out.dtype)
        self._plan.execute(direction, source, target if out is not array else source)
        if out is array and source is not array:
            out[...] = source
        elif target is not out:
            out[...] = target
        return out

    def describe(self):
        """The plan as it runs: grid, exchanges (auto's choice shown), kind, precision."""
        return self._plan.describe()

    @property
    def timings(self):
        """{'transpose': s, 'compute': s} of the last forward() or backward() on this rank."""
        transpose, compute = self._plan.last_times()
        return {"transpose": transpose, "compute": compute}

    @property
    def workspace_bytes(self):
        return self._plan.workspace_bytes()

    def close(self):
        """Frees the plan now (collective). Plans left open are closed before MPI finalizes."""
        if self._plan is not None:
            self._plan.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _plan_options(kind_value, precision, batch, exchange, rigor, scaling, wisdom_file,
                  threads=1):
    """The options every plan shares (a2afft::PlanOptions), filled once for Fft3d, Fft2d and
    Fft1d. threads: of each rank (OpenMP), >= 1, or "auto" to time 1, 2, 4, ... up to the cores
    each rank has and keep the fastest (a2afft::timed_threads); more than 1 needs MPI initialized
    with at least MPI_THREAD_FUNNELED (mpi4py's default, MPI_THREAD_MULTIPLE, is enough)."""
    options = _a2afft.PlanOptions()
    if isinstance(threads, str) and threads != "auto":
        raise UsageError(f"threads={threads!r} is not valid; expected a count >= 1 or \"auto\"")
    options.threads = -1 if threads == "auto" else int(threads)
    options.kind, options.precision, options.batch = kind_value, precision, int(batch)
    options.exchange = exchange
    options.rigor = _choice("rigor", rigor, _RIGOR)
    options.scaling = _choice("scaling", scaling, _SCALING)
    options.wisdom_file = wisdom_file
    return options


def _box(name, box):
    """(lower, size, order) for a box given as (lower, size) or (lower, size, order), or None."""
    if box is None:
        return None
    try:
        parts = [tuple(int(v) for v in part) for part in box]
    except (TypeError, ValueError) as error:
        raise UsageError(f"{name}={box!r} is not valid; expected (lower, size) or "
                         "(lower, size, order), three integers each") from error
    if len(parts) == 2:
        parts.append((0, 1, 2))
    if len(parts) != 3 or any(len(part) != 3 for part in parts) or \
            any(v < 0 for part in parts[:2] for v in part):
        raise UsageError(f"{name}={box!r} is not valid; expected (lower, size) or "
                         "(lower, size, order), three non-negative integers each")
    return tuple(parts)


def _slices(lower, size, axes):
    return tuple(slice(lower[a], lower[a] + size[a]) for a in axes)


class _BoxPlan(_Plan):
    """Fft3d and Fft2d: local boxes of the global arrays."""

    def _set_boxes(self, dims):
        lower, size, order = self._plan.input_box()
        self.local_input_slices = _slices(lower, size, range(dims))
        self.local_input_shape = self._with_batch(size[a] for a in range(dims))
        lower, size, order = self._plan.output_box()
        self.output_axes = tuple(order)
        self.local_output_slices = _slices(lower, size, range(dims))
        self.local_output_shape = self._with_batch(size[a] for a in order)

    def forward(self, array, out=None):
        """Transforms this rank's input part (local_input_shape, input_dtype) and returns its
        output part (local_output_shape, output_dtype; axes in output_axes order)."""
        return self._transform(_a2afft.Direction.forward, array, out, self.local_input_shape,
                               self.input_dtype, self.local_output_shape, self.output_dtype)

    def backward(self, array, out=None):
        """The inverse of forward() (unnormalized unless scaling= says otherwise)."""
        return self._transform(_a2afft.Direction.backward, array, out, self.local_output_shape,
                               self.output_dtype, self.local_input_shape, self.input_dtype)


class Fft3d(_BoxPlan):
    """A distributed 3D FFT of `shape` on a p0 x p1 pencil grid (`grid`, default the most
    square; grid="auto" times the candidate grids with their exchanges and keeps the fastest,
    the same on every rank, and `describe()` says which won and by how much). Rank (a, b) holds the input block `local_input_slices` (dims 0 and 1 split, all of
    dim 2), stored row-major as `local_input_shape`. The forward output is block
    `local_output_slices` of the transformed array (all of dim 0), stored with its axes in
    `output_axes` order (transposed output: (1, 0, 2), unless padded or n0 = 1), so that
    `global_hat[fft.local_output_slices].transpose(fft.output_axes)` is the local array;
    output="natural" returns the input's layout instead (two more transposes). r2c: real input,
    n0 x n1 x (n2//2+1) complex output. batch=k fields add a trailing axis of k.
    input_box, output_box: this rank's part of the input and of the output as the application
    holds them, (lower, size) or (lower, size, order) with order the axes slowest first (bricks,
    slabs, pencils, empty boxes; heFFTe's inbox and outbox): forward() reshapes them into the
    plan's pencils and back out (reshape_exchange: the variable-size exchange, "auto"); the
    local shapes and slices follow. Every point must be in one box of each.
    transforms: what each axis does, e.g. "dct2,dft,r2c" or ("dst1", "dst1", "dst1"): dft,
    r2c (the last axis only), dct1..dct4, dst1..dst4 (FFTW's REDFT00..RODFT11) or none; the
    kind follows (cosine and sine axes alone: "r2r", real arrays both ways).
    padding: padded (dealiased) transforms as mpi4py-fft's PFFT(padding=...): a factor for
    every axis (1.5 for the 3/2 rule) or one per axis, dft and r2c axes only. shape is then the
    spectrum's modes, `padded_shape` the physical grid (floor(n * factor) points per axis):
    forward() takes the padded grid (the local input) to the modes, backward() pads the modes
    with zeros; only the modes are ever exchanged. scaling="full" divides by the padded grid's
    points, as mpi4py-fft's forward normalizes.

    exchange: the all-to-all of both transposes ("auto", "pairwise", "tra:radix=4", ...;
    `a2afft list`), or row_exchange/column_exchange separately.
    threads: OpenMP threads of each rank (default 1), with the same bits as one thread, or
    "auto" to time the counts (with grid="auto", every grid with every count); more than 1
    needs MPI_THREAD_FUNNELED or above (mpi4py initializes MPI_THREAD_MULTIPLE). The plan's
    `threads` attribute is the count it runs on."""

    def __init__(self, comm=None, shape=None, kind="c2c", dtype=None, exchange="auto", grid=None,
                 batch=1, rigor="measure", output="transposed", scaling="none", wisdom_file="",
                 row_exchange=None, column_exchange=None, transforms=None, input_box=None,
                 output_box=None, reshape_exchange="auto", padding=None, threads=1):
        comm = _communicator(comm)
        if shape is None or len(tuple(shape)) != 3:
            raise UsageError(f"shape={shape!r} is not valid; expected three sizes (n0, n1, n2)")
        axes, kind = _axes(transforms, kind, 3)
        kind_value, precision, input_dtype, output_dtype = _types(kind, dtype, True)
        if isinstance(grid, str) and grid != "auto":
            raise UsageError(f"grid={grid!r} is not valid; expected (p0, p1), \"auto\" or None")
        grid = (0, 0) if grid is None else (-1, -1) if grid == "auto" else tuple(grid)
        if len(grid) != 2:
            raise UsageError(f"grid={grid!r} is not valid; expected (p0, p1), \"auto\" or None")
        options = _plan_options(kind_value, precision, batch, exchange, rigor, scaling,
                                wisdom_file, threads)
        options.axes = axes
        options.padding = _padding(padding, 3)
        plan = _a2afft.Fft3d(comm, tuple(int(n) for n in shape), options,
                             tuple(int(p) for p in grid), row_exchange or "",
                             column_exchange or "",
                             _choice("output", output, {"transposed": False, "natural": True}),
                             _box("input_box", input_box), _box("output_box", output_box),
                             reshape_exchange)
        self._register(comm, plan, input_dtype, output_dtype, int(batch))
        self.shape, self.kind = tuple(int(n) for n in shape), kind
        self.padded_shape = tuple(plan.padded_shape())
        self.grid = tuple(plan.grid())
        self._set_boxes(3)


class Fft2d(_BoxPlan):
    """A distributed 2D FFT of `shape` on slabs: rank r holds rows part r of dim 0. The
    transposed output holds all of dim 0 and part r of dim 1, row-major (output_axes (0, 1)).
    Otherwise as Fft3d."""

    def __init__(self, comm=None, shape=None, kind="c2c", dtype=None, exchange="auto", batch=1,
                 rigor="measure", output="transposed", scaling="none", wisdom_file="",
                 transforms=None, padding=None, threads=1):
        comm = _communicator(comm)
        if shape is None or len(tuple(shape)) != 2:
            raise UsageError(f"shape={shape!r} is not valid; expected two sizes (n0, n1)")
        axes, kind = _axes(transforms, kind, 2)
        kind_value, precision, input_dtype, output_dtype = _types(kind, dtype, True)
        options = _plan_options(kind_value, precision, batch, exchange, rigor, scaling,
                                wisdom_file, threads)
        options.axes = axes
        options.padding = _padding(padding, 2)
        plan = _a2afft.Fft2d(comm, tuple(int(n) for n in shape), options,
                             _choice("output", output, {"transposed": False, "natural": True}))
        self._register(comm, plan, input_dtype, output_dtype, int(batch))
        self.shape, self.kind = tuple(int(n) for n in shape), kind
        self.padded_shape = tuple(plan.padded_shape())
        self._set_boxes(2)


class Fft1d(_Plan):
    """A distributed 1D c2c FFT of length n (six-step; the ranks must divide N1 and N2, so P^2
    divides n). Rank r holds x[local_input_slices[0]] and, with output="natural", X of the same
    range; output="scrambled" saves a transpose, and local element i then holds
    X[output_indices[i]]."""

    def __init__(self, comm=None, n=None, dtype=None, exchange="auto", batch=1, n1=0,
                 rigor="measure", output="natural", scaling="none", wisdom_file="",
                 threads=1):
        comm = _communicator(comm)
        if n is None or int(n) < 1:
            raise UsageError(f"n={n!r} is not valid; expected a length >= 1")
        kind_value, precision, input_dtype, output_dtype = _types("c2c", dtype, False)
        options = _plan_options(kind_value, precision, batch, exchange, rigor, scaling,
                                wisdom_file, threads)
        plan = _a2afft.Fft1d(comm, int(n), options, int(n1),
                             _choice("output", output, {"natural": False, "scrambled": True}))
        self._register(comm, plan, input_dtype, output_dtype, int(batch))
        self.n, self.n1, self.n2 = int(n), plan.n1(), plan.n2()
        offset, points = plan.input_offset(), plan.local_points()
        self.local_input_slices = (slice(offset, offset + points),)
        self.local_input_shape = self._with_batch((points,))
        self.local_output_shape = self.local_input_shape
        self.output_indices = plan.output_indices()
        self.local_output_slices = self.local_input_slices if output == "natural" else None

    def forward(self, array, out=None):
        return self._transform(_a2afft.Direction.forward, array, out, self.local_input_shape,
                               self.input_dtype, self.local_output_shape, self.output_dtype)

    def backward(self, array, out=None):
        return self._transform(_a2afft.Direction.backward, array, out, self.local_output_shape,
                               self.output_dtype, self.local_input_shape, self.input_dtype)


class Exchange:
    """An all-to-all of block_bytes-byte blocks, planned once: see exchange()."""

    def __init__(self, comm, block_bytes, spec):
        self._comm = _communicator(comm)
        self._exchange = _a2afft.make_exchange(self._comm, int(block_bytes), spec)
        global _plans_made
        _plans_made += 1
        _open_plans[_plans_made] = self

    def run(self, send, recv):
        """MPI_Alltoall on bytes: block j of `send` to rank j, block j of `recv` from rank j.
        Both C-contiguous arrays of buffer_bytes bytes (any dtype, e.g. numpy.uint8)."""
        need = self._exchange.buffer_bytes
        problem = ""
        for name, array in (("send", send), ("recv", recv)):
            if not isinstance(array, np.ndarray) or not array.flags.c_contiguous or \
                    array.nbytes != need:
                problem = problem or (f"Exchange.run: {name} must be a C-contiguous array of "
                                      f"ranks * block_bytes = {need} bytes on every rank")
        if recv is send:
            problem = problem or "Exchange.run: send and recv must not be the same array"
        # One agreement, so a rank with a bad array cannot leave the others waiting.
        problems = self._comm.allgather(problem)
        if any(problems):
            rank = next(r for r, p in enumerate(problems) if p)
            raise UsageError(problem or f"rank {rank}: {problems[rank]}")
        self._exchange.run(send, recv)

    def describe(self):
        return self._exchange.describe()

    @property
    def block_bytes(self):
        return self._exchange.block_bytes

    @property
    def ranks(self):
        return self._exchange.ranks

    @property
    def buffer_bytes(self):
        return self._exchange.buffer_bytes

    def close(self):
        self._exchange = None


def exchange(comm, block_bytes, spec="auto"):
    """Plans an all-to-all of block_bytes-byte blocks on `comm` with backend `spec` ("auto",
    "pairwise", "tra:radix=4", "onmpml", ...: `a2afft list`). Collective."""
    return Exchange(comm, block_bytes, spec)
