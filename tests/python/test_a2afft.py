"""The Python package under mpirun -np 1..4 (ctest python.npN): round trips, agreement with
numpy.fft on the gathered array and with mpi4py-fft on the same distributed input, every kind,
dtype and batch, the exchange against MPI_Alltoall, and bad arguments. Every check is collective
(agreed over the ranks before it is asserted), so no rank leaves a test while the others wait."""

import numpy as np
import pytest
from mpi4py import MPI

import a2afft

comm = MPI.COMM_WORLD
DTYPES = {("c2c", "double"): np.complex128, ("c2c", "single"): np.complex64,
          ("r2c", "double"): np.float64, ("r2c", "single"): np.float32}
TOLERANCE = {np.complex128: 1e-12, np.float64: 1e-12, np.complex64: 2e-5, np.float32: 2e-5}


def everywhere(condition):
    """True on every rank when `condition` holds on every rank."""
    return comm.allreduce(bool(condition), op=MPI.LAND)


def global_input(shape, dtype, batch, seed=7):
    """The same array on every rank: batch fields interleaved as a trailing axis."""
    rng = np.random.default_rng(seed)
    full = tuple(shape) + ((batch,) if batch > 1 else ())
    data = rng.standard_normal(full)
    if np.dtype(dtype).kind == "c":
        data = data + 1j * rng.standard_normal(full)
    return data.astype(dtype)


def reference(data, kind, dims, batch):
    axes = tuple(range(dims))
    return np.fft.rfftn(data, axes=axes) if kind == "r2c" else np.fft.fftn(data, axes=axes)


def gather(local, slices, axes, shape, dtype, batch):
    """The global array from every rank's block (its slices, its axes order), on every rank."""
    full = np.zeros(tuple(shape) + ((batch,) if batch > 1 else ()), dtype=dtype)
    for block, where, order in comm.allgather((local, slices, axes)):
        if block.size:
            inverse = tuple(np.argsort(order)) + ((len(order),) if batch > 1 else ())
            full[where] = block.transpose(inverse)
    return full


def relative_error(got, expected):
    scale = max(np.abs(expected).max(), 1e-300)
    return np.abs(got - expected).max() / scale


@pytest.mark.parametrize("kind,precision", sorted(DTYPES))
@pytest.mark.parametrize("batch", [1, 3])
def test_fft3d_matches_numpy_and_round_trips(kind, precision, batch):
    dtype = DTYPES[(kind, precision)]
    shape = (6, 5, 7)
    fft = a2afft.Fft3d(comm, shape, kind=kind, dtype=dtype, batch=batch, exchange="pairwise",
                       rigor="estimate")
    data = global_input(shape, dtype, batch)
    u = np.ascontiguousarray(data[fft.local_input_slices])
    u_hat = fft.forward(u)
    assert everywhere(u_hat.dtype == fft.output_dtype and u_hat.shape == fft.local_output_shape)
    expected = reference(data.astype(np.complex128 if kind == "c2c" else np.float64), kind, 3,
                         batch)
    gathered = gather(u_hat, fft.local_output_slices, fft.output_axes, expected.shape[:3],
                      fft.output_dtype, batch)
    assert everywhere(relative_error(gathered, expected) < TOLERANCE[dtype])
    back = fft.backward(u_hat)
    assert everywhere(relative_error(back / np.prod(shape), u) < TOLERANCE[dtype])
    fft.close()


def test_fft3d_transposed_and_natural_outputs_and_scaling():
    shape = (5, 4, 6)
    data = global_input(shape, np.complex128, 1)
    for output in ("transposed", "natural"):
        with a2afft.Fft3d(comm, shape, output=output, scaling="full", exchange="mpi",
                          rigor="estimate") as fft:
            u = np.ascontiguousarray(data[fft.local_input_slices])
            out = np.empty(fft.local_output_shape, dtype=np.complex128)
            assert everywhere(fft.forward(u, out=out) is out)
            expected = np.fft.fftn(data)[fft.local_output_slices]
            assert everywhere(relative_error(out, expected.transpose(fft.output_axes)) < 1e-12)
            if output == "natural":
                assert everywhere(fft.output_axes == (0, 1, 2))
            assert everywhere(relative_error(fft.backward(out), u) < 1e-12)  # scaling="full"
            times = fft.timings
            assert everywhere(times["transpose"] >= 0 and times["compute"] >= 0)
            # One rank has no transpose: describe() says so with '-'.
            assert everywhere(("mpi" if comm.size > 1 else "row=-,column=-") in fft.describe())


def test_timed_grid_is_one_grid_everywhere_and_matches_numpy():
    shape = (6, 5, 7)
    data = global_input(shape, np.complex128, 1)
    with a2afft.Fft3d(comm, shape, grid="auto", exchange="pairwise", rigor="estimate") as fft:
        assert everywhere(fft.grid[0] * fft.grid[1] == comm.size)
        assert everywhere(len(set(comm.allgather(fft.grid))) == 1)
        assert everywhere(f"grid {fft.grid[0]}x{fft.grid[1]} timed" in fft.describe())
        u_hat = fft.forward(np.ascontiguousarray(data[fft.local_input_slices]))
        gathered = gather(u_hat, fft.local_output_slices, fft.output_axes, shape, np.complex128,
                          1)
        assert everywhere(relative_error(gathered, np.fft.fftn(data)) < 1e-12)


@pytest.mark.parametrize("kind", ["c2c", "r2c"])
def test_fft2d_matches_numpy(kind):
    shape = (6, 7)
    dtype = np.complex128 if kind == "c2c" else np.float64
    data = global_input(shape, dtype, 1)
    with a2afft.Fft2d(comm, shape, kind=kind, dtype=dtype, exchange="pairwise",
                      rigor="estimate") as fft:
        u_hat = fft.forward(np.ascontiguousarray(data[fft.local_input_slices]))
        expected = reference(data, kind, 2, 1)
        gathered = gather(u_hat, fft.local_output_slices, fft.output_axes, expected.shape,
                          np.complex128, 1)
        assert everywhere(relative_error(gathered, expected) < 1e-12)


def r2r_matrix(kind, n):
    """FFTW's r2r kind as a matrix (FFTW manual, "1d Real-even DFTs (DCTs)" and "(DSTs)")."""
    j = np.arange(n)[None, :]
    k = np.arange(n)[:, None]
    sign = (-1.0) ** k[:, 0]
    if kind == "dct1":
        m = 2 * np.cos(np.pi * j * k / (n - 1))
        m[:, 0], m[:, -1] = 1, sign
    elif kind == "dct2":
        m = 2 * np.cos(np.pi * (j + 0.5) * k / n)
    elif kind == "dct3":
        m = 2 * np.cos(np.pi * j * (k + 0.5) / n)
        m[:, 0] = 1
    elif kind == "dct4":
        m = 2 * np.cos(np.pi * (j + 0.5) * (k + 0.5) / n)
    elif kind == "dst1":
        m = 2 * np.sin(np.pi * (j + 1) * (k + 1) / (n + 1))
    elif kind == "dst2":
        m = 2 * np.sin(np.pi * (j + 0.5) * (k + 1) / n)
    elif kind == "dst3":
        m = 2 * np.sin(np.pi * (j + 1) * (k + 0.5) / n)
        m[:, -1] = sign
    else:  # dst4
        m = 2 * np.sin(np.pi * (j + 0.5) * (k + 0.5) / n)
    return m


def per_axis_reference(data, transforms):
    """numpy: rfft along the last axis if it is r2c, then each other axis's fft or r2r matrix."""
    out = np.fft.rfft(data, axis=-1) if transforms[-1] == "r2c" else data.astype(complex)
    for axis, kind in enumerate(transforms):
        if kind == "dft":
            out = np.fft.fft(out, axis=axis)
        elif kind not in ("r2c", "none"):
            out = np.moveaxis(np.tensordot(r2r_matrix(kind, out.shape[axis]), out,
                                           axes=([1], [axis])), 0, axis)
    return out


@pytest.mark.parametrize("transforms", [("dct2", "dft", "r2c"), ("dst1", "dct3", "dst4"),
                                        ("dct1", "none", "dst2"), ("dct4", "dst3", "dft")])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_per_axis_transforms_match_numpy(transforms, dtype):
    shape = (6, 5, 7)
    complex_data = "dft" in transforms and "r2c" not in transforms
    dtype = {np.float64: np.complex128, np.float32: np.complex64}[dtype] if complex_data else dtype
    data = global_input(shape, dtype, 1)
    with a2afft.Fft3d(comm, shape, transforms=",".join(transforms), dtype=dtype,
                      exchange="pairwise", rigor="estimate", scaling="full") as fft:
        u = np.ascontiguousarray(data[fft.local_input_slices])
        u_hat = fft.forward(u)
        expected = per_axis_reference(data.astype(np.complex128 if complex_data else np.float64),
                                      transforms)
        if "r2c" not in transforms and not complex_data:
            expected = expected.real
            assert everywhere(fft.kind == "r2r" and u_hat.dtype == dtype)
        gathered = gather(u_hat, fft.local_output_slices, fft.output_axes, expected.shape,
                          fft.output_dtype, 1)
        assert everywhere(relative_error(gathered, expected) < 4 * TOLERANCE[dtype])
        assert everywhere(relative_error(fft.backward(u_hat), u) < 4 * TOLERANCE[dtype])


@pytest.mark.parametrize("kind", ["c2c", "r2c"])
def test_bricks_in_and_out_match_numpy(kind):
    """The application's own boxes: bricks of dims 0 and 1 in, slabs of dim 2 out (x fastest)."""
    shape = (6, 5, 7)
    dtype = np.complex128 if kind == "c2c" else np.float64
    data = global_input(shape, dtype, 1)
    p, r = comm.size, comm.rank
    rows = [(i * shape[0]) // p for i in range(p + 1)]
    spectrum = (6, 5, 7 if kind == "c2c" else 4)
    cols = [(i * spectrum[2]) // p for i in range(p + 1)]
    in_box = ((rows[r], 0, 0), (rows[r + 1] - rows[r], 5, 7))
    out_box = ((0, 0, cols[r]), (6, 5, cols[r + 1] - cols[r]), (2, 1, 0))
    with a2afft.Fft3d(comm, shape, kind=kind, dtype=dtype, input_box=in_box, output_box=out_box,
                      exchange="pairwise", rigor="estimate") as fft:
        assert everywhere(fft.local_input_slices == (slice(rows[r], rows[r + 1]), slice(0, 5),
                                                     slice(0, 7)))
        u = np.ascontiguousarray(data[fft.local_input_slices])
        u_hat = fft.forward(u)
        assert everywhere(fft.output_axes == (2, 1, 0))
        expected = reference(data, kind, 3, 1)
        gathered = gather(u_hat, fft.local_output_slices, fft.output_axes, expected.shape,
                          np.complex128, 1)
        assert everywhere(relative_error(gathered, expected) < 1e-12)
        assert everywhere(relative_error(fft.backward(u_hat) / np.prod(shape), u) < 1e-12)
    with pytest.raises(a2afft.UsageError, match="input box"):  # a gap, or an overlap
        a2afft.Fft3d(comm, shape, input_box=((0, 0, 0), (1, 1, 1)), rigor="estimate")


def test_bad_transforms_raise_usage_error():
    for transforms, text in [("dct2,dft", "name 2 axes; expected 3"),
                             ("dct9,dft,dft", "transform 'dct9'"),
                             ("r2c,dft,dft", "only the last (contiguous) axis can be r2c")]:
        with pytest.raises(a2afft.UsageError, match=text.replace("(", r"\(").replace(")", r"\)")):
            a2afft.Fft3d(comm, (4, 4, 4), transforms=transforms, rigor="estimate")
    with pytest.raises(a2afft.UsageError, match="does not fit"):
        a2afft.Fft3d(comm, (4, 4, 4), kind="r2c", transforms="dct2,dct2,dct2")


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
@pytest.mark.parametrize("output", ["natural", "scrambled"])
def test_fft1d_matches_numpy(dtype, output):
    ranks = comm.size
    n = 16 * ranks * ranks * 3
    data = global_input((n,), dtype, 1)
    with a2afft.Fft1d(comm, n, dtype=dtype, exchange="pairwise", output=output,
                      rigor="estimate") as fft:
        x = np.ascontiguousarray(data[fft.local_input_slices])
        x_hat = fft.forward(x)
        expected = np.fft.fft(data.astype(np.complex128))[fft.output_indices]
        assert everywhere(relative_error(x_hat, expected) < TOLERANCE[dtype])
        assert everywhere(relative_error(fft.backward(x_hat) / n, x) < TOLERANCE[dtype])


def test_same_output_as_mpi4py_fft_on_the_same_distributed_input():
    """mpi4py-fft's PFFT (slabs, or pencils from 4 ranks) and a2afft's Fft3d on one array: the
    gathered outputs agree. mpi4py-fft stores its output block in global axis order; a2afft's
    transposed output stores the block of local_output_slices with axes output_axes."""
    from mpi4py_fft import PFFT, newDistArray

    shape = (8, 6, 5)
    data = global_input(shape, np.complex128, 1)
    theirs = PFFT(comm, shape, axes=(0, 1, 2), dtype=np.complex128)
    u = newDistArray(theirs, False)
    u[:] = data[u.local_slice()]
    # mpi4py-fft's forward divides by N unless told not to; a2afft's, as FFTW's, does not.
    their_hat = theirs.forward(u, normalize=False)
    their_slices = newDistArray(theirs, True).local_slice()
    their_global = gather(np.asarray(their_hat), their_slices, (0, 1, 2), shape, np.complex128, 1)
    with a2afft.Fft3d(comm, shape, exchange="pairwise", rigor="estimate") as ours:
        our_hat = ours.forward(np.ascontiguousarray(data[ours.local_input_slices]))
        our_global = gather(our_hat, ours.local_output_slices, ours.output_axes, shape,
                            np.complex128, 1)
    theirs.destroy()
    assert everywhere(relative_error(our_global, their_global) < 1e-12)


def padded_spectrum(modes, padded):
    """numpy's explicit zero padding of a c2c spectrum of odd sizes (no Nyquist mode to split):
    each axis's non-negative frequencies at the start, the negative ones at the end."""
    out = np.zeros(padded, dtype=np.complex128)
    index = tuple(np.r_[0:(n + 1) // 2, m - n // 2:m] for n, m in zip(modes.shape, padded))
    out[np.ix_(*index)] = modes
    return out


@pytest.mark.parametrize("grid", [None, "slabs"])
def test_padded_backward_is_numpys_explicit_zero_padding(grid):
    shape, padding = (5, 7, 9), 1.5
    with a2afft.Fft3d(comm, shape, padding=padding, exchange="pairwise", rigor="estimate",
                      grid=(comm.size, 1) if grid else None) as fft:
        assert fft.padded_shape == (7, 10, 13)
        modes = global_input(shape, np.complex128, 1)
        u = fft.backward(np.ascontiguousarray(
            modes[fft.local_output_slices].transpose(fft.output_axes)))
        expected = np.fft.ifftn(padded_spectrum(modes, fft.padded_shape)) * np.prod(
            fft.padded_shape)
        assert everywhere(relative_error(u, expected[fft.local_input_slices]) < 1e-12)
        # forward keeps the modes: of the band-limited u, exactly the modes again
        back = gather(fft.forward(u), fft.local_output_slices, fft.output_axes, shape,
                      np.complex128, 1)
        assert everywhere(relative_error(back / np.prod(fft.padded_shape), modes) < 1e-12)


@pytest.mark.parametrize("kind", ["c2c", "r2c"])
def test_padded_same_as_mpi4py_fft_padded_pfft(kind):
    """mpi4py-fft's PFFT(padding=[1.5]*3) and a2afft's Fft3d(padding=1.5) on the same
    distributed padded grid and spectrum: the gathered results agree both ways. Even sizes, so
    Nyquist modes are split and folded; n2 = 10 has n2/2+1 even, where mpi4py-fft's r2c axis
    uses the same symmetric split as a2afft (for n2 divisible by 4 it does not split)."""
    from mpi4py_fft import PFFT, newDistArray

    shape = (8, 6, 10)
    dtype = np.float64 if kind == "r2c" else np.complex128
    theirs = PFFT(comm, shape, axes=(0, 1, 2), dtype=dtype, padding=[1.5, 1.5, 1.5])
    padded = theirs.forward.input_array.shape
    u = newDistArray(theirs, False)
    physical = global_input(tuple(int(np.floor(1.5 * n)) for n in shape), dtype, 1)
    u[:] = physical[u.local_slice()]
    # mpi4py-fft's forward divides by the padded grid's points; a2afft's, as FFTW's, does not.
    their_hat = theirs.forward(u, normalize=False)
    modes_shape = shape[:2] + ((shape[2] // 2 + 1,) if kind == "r2c" else shape[2:])
    their_slices = newDistArray(theirs, True).local_slice()
    their_global = gather(np.asarray(their_hat), their_slices, (0, 1, 2), modes_shape,
                          np.complex128, 1)
    their_u = theirs.backward(their_hat.copy())
    their_u_global = gather(np.asarray(their_u), u.local_slice(), (0, 1, 2),
                            physical.shape, dtype, 1)
    with a2afft.Fft3d(comm, shape, kind=kind, padding=1.5, exchange="pairwise",
                      rigor="estimate") as ours:
        assert ours.padded_shape == physical.shape and len(padded) == 3
        our_hat = ours.forward(np.ascontiguousarray(physical[ours.local_input_slices]))
        our_global = gather(our_hat, ours.local_output_slices, ours.output_axes, modes_shape,
                            np.complex128, 1)
        spectrum = np.ascontiguousarray(
            their_global[ours.local_output_slices].transpose(ours.output_axes))
        our_u = gather(ours.backward(spectrum), ours.local_input_slices, (0, 1, 2),
                       physical.shape, dtype, 1)
    theirs.destroy()
    assert everywhere(relative_error(our_global, their_global) < 1e-12)
    assert everywhere(relative_error(our_u, their_u_global) < 1e-12)


def test_exchange_matches_mpi_alltoall():
    ranks, rank = comm.size, comm.rank
    block = 37
    # Byte i of the block from `source` to `destination` encodes all three.
    def pattern(source, destination):
        return ((np.arange(block) * 7 + source * 131 + destination * 31) % 251).astype(np.uint8)
    send = np.concatenate([pattern(rank, destination) for destination in range(ranks)])
    for spec in ("mpi", "pairwise", "tra", "onmpml", "auto"):
        exchange = a2afft.exchange(comm, block, spec)
        recv = np.zeros_like(send)
        exchange.run(send, recv)
        vendor = np.zeros_like(send)
        comm.Alltoall(send, vendor)
        assert everywhere(np.array_equal(recv, vendor))
        assert everywhere(exchange.buffer_bytes == block * ranks and exchange.ranks == ranks)
        exchange.close()


def message_everywhere(make):
    """The message of the a2afft.UsageError that make() raises on every rank (None if not)."""
    try:
        make()
    except a2afft.UsageError as error:
        return comm.allgather(str(error))
    return comm.allgather(None)


@pytest.mark.parametrize("make,text", [
    (lambda: a2afft.Fft3d(comm, (8, 0, 4)), "0"),
    (lambda: a2afft.Fft3d(comm, (8, 4)), "shape=(8, 4) is not valid"),
    (lambda: a2afft.Fft3d(comm, (8, 4, 4), dtype=np.int32), "dtype=int32 is not valid"),
    (lambda: a2afft.Fft3d(comm, (8, 4, 4), kind="r2c", dtype=np.complex128),
     "dtype=complex128 is not valid for kind='r2c'"),
    (lambda: a2afft.Fft3d(comm, (8, 4, 4), kind="r2r"), "kind='r2r' is not valid"),
    (lambda: a2afft.Fft3d(comm, (8, 4, 4), exchange="tra3"), "unknown exchange 'tra3'"),
    (lambda: a2afft.Fft3d(comm, (8, 4, 4), rigor="fast"), "rigor='fast' is not valid"),
    (lambda: a2afft.Fft3d(comm, (8, 4, 4), grid="timed"), "grid='timed' is not valid"),
    (lambda: a2afft.Fft1d(comm, 0), "n=0 is not valid"),
    (lambda: a2afft.exchange(comm, 8, "tra:radix=0"), "radix=0 is not valid"),
])
def test_bad_arguments_raise_usage_error_on_every_rank(make, text):
    messages = message_everywhere(make)
    assert all(message is not None and text in message for message in messages), messages


def test_a_length_the_ranks_cannot_split_is_an_error_on_every_rank():
    n = comm.size * comm.size + 1
    messages = message_everywhere(lambda: a2afft.Fft1d(comm, n, rigor="estimate"))
    if comm.size == 1:  # every length splits on one rank
        assert messages == [None], messages
    else:
        assert all(message and "has no six-step split" in message for message in messages), messages


def test_a_wrong_array_on_one_rank_is_an_error_on_every_rank():
    with a2afft.Fft3d(comm, (6, 5, 4), exchange="pairwise", rigor="estimate") as fft:
        good = np.zeros(fft.local_input_shape, dtype=np.complex128)
        bad = np.zeros(fft.local_input_shape, dtype=np.complex64)
        messages = message_everywhere(lambda: fft.forward(bad if comm.rank == 0 else good))
        assert all(messages), messages
        assert "complex64" in messages[0]
        fft.forward(good)  # the plan still works afterwards
    exchange = a2afft.exchange(comm, 8, "pairwise")
    send = np.zeros(8 * comm.size, dtype=np.uint8)
    short = np.zeros(8 * comm.size - 1, dtype=np.uint8)
    messages = message_everywhere(lambda: exchange.run(send, short if comm.rank == 0 else send.copy()))
    assert all(messages) and "bytes" in messages[-1], messages


@pytest.mark.parametrize("make", [
    lambda threads: a2afft.Fft3d(comm, (8, 6, 10), kind="r2c", batch=2, exchange="pairwise",
                                 rigor="estimate", threads=threads),
    lambda threads: a2afft.Fft2d(comm, (12, 10), dtype=np.complex64, exchange="pairwise",
                                 rigor="estimate", threads=threads),
    lambda threads: a2afft.Fft1d(comm, 16 * comm.size * comm.size, exchange="pairwise",
                                 rigor="estimate", threads=threads),
], ids=["fft3d r2c batch 2", "fft2d c2c float", "fft1d"])
def test_two_threads_give_the_bits_of_one(make):
    # mpi4py initializes MPI_THREAD_MULTIPLE, so threads=2 plans (issue 45).
    one, two = make(1), make(2)
    data = global_input(one.shape if hasattr(one, "shape") else (one.n,), one.input_dtype,
                        one.batch)
    u = np.ascontiguousarray(data[one.local_input_slices])
    assert everywhere(np.array_equal(one.forward(u), two.forward(u)))
    one.close()
    two.close()
    with pytest.raises(a2afft.UsageError, match="threads=0 is not valid"):
        make(0)


@pytest.mark.parametrize("make", [
    lambda: a2afft.Fft3d(comm, (6, 5, 7), grid="auto", exchange="pairwise", rigor="estimate",
                         threads="auto"),
    lambda: a2afft.Fft1d(comm, 16 * comm.size * comm.size, exchange="pairwise", rigor="estimate",
                         threads="auto"),
], ids=["fft3d grid and threads timed", "fft1d threads timed"])
def test_timed_threads_are_one_count_everywhere_and_named(make):
    # Every count timed is named in describe(), the winner first; one count on every rank.
    timed = make()
    assert everywhere(len(set(comm.allgather(timed.threads))) == 1)
    assert everywhere(timed.threads >= 1 and f"threads {timed.threads} timed" in timed.describe())
    assert everywhere("threads 1 " in timed.describe())
    timed.close()
    with pytest.raises(a2afft.UsageError, match="threads='many' is not valid"):
        a2afft.Fft1d(comm, 64, threads="many")
