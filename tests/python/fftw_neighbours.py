"""a2afft beside mpi4py-fft in one process (issue 30; ctest python.fftw_neighbours, under mpirun).

scripts/bench-python crashed in Fft3d.close() (a segmentation fault in fftw_destroy_plan): its
a2afft plan was made before mpi4py-fft's first plan, and mpi4py-fft calls
fftw_plan_with_nthreads() without fftw_init_threads(), which makes FFTW 3.3.9+ call
fftw_cleanup() and free the solvers that a2afft's plan still pointed to. Whether the freed memory
was still mapped decided whether close() crashed, so the crash came 2 times in 16. What is
deterministic is that the cleanup forgets FFTW's wisdom: this script checks that the wisdom of
a2afft's plan outlives mpi4py-fft's first plan of each precision, then uses and closes the plan
as the benchmark did. Its own process, so that mpi4py-fft has planned nothing before (the pytest
run has). Prints PASS on rank 0; exits 1 on any failure."""

import os
import shutil
import sys
import tempfile

import numpy as np
from mpi4py import MPI
from mpi4py_fft import PFFT, newDistArray
from mpi4py_fft.fftw import export_wisdom

import a2afft

comm = MPI.COMM_WORLD
SHAPE = (16, 12, 10)


def wisdom_lines(name, dtype):
    """FFTW's wisdom of dtype's precision in this process (mpi4py-fft writes one file per
    precision and rank, its name prefixed, into the working directory)."""
    export_wisdom(name)
    key = "F" if np.dtype(dtype) in (np.complex64, np.float32) else "D"
    with open(f"{key}{comm.rank}_{name}") as wisdom:
        return set(line.strip() for line in wisdom if line.strip().startswith("(fftw"))


def one_sequence(kind, dtype):
    """The benchmark's order: a2afft plans and runs, mpi4py-fft plans, a2afft runs and closes.
    Returns what went wrong, or None."""
    ours = a2afft.Fft3d(comm, SHAPE, kind=kind, dtype=dtype, exchange="pairwise", rigor="measure")
    u = np.random.default_rng(comm.rank).standard_normal(ours.local_input_shape).astype(dtype)
    first = ours.forward(u).copy()
    ours_wisdom = wisdom_lines(f"before-{kind}-{np.dtype(dtype).name}", dtype)
    theirs = PFFT(comm, SHAPE, axes=(0, 1, 2), dtype=dtype)
    after = wisdom_lines(f"after-{kind}-{np.dtype(dtype).name}", dtype)
    v = newDistArray(theirs, False)
    v[:] = 1
    theirs.forward(v, newDistArray(theirs, True))
    again = ours.forward(u)
    ours.close()  # crashed here before the fix
    theirs.destroy()
    if not ours_wisdom:
        return "no FFTW wisdom after a2afft's measured plan"
    if not ours_wisdom <= after:
        lost = len(ours_wisdom - after)
        return (f"mpi4py-fft's first plan erased {lost} of {len(ours_wisdom)} lines of a2afft's "
                "wisdom: FFTW's planner was cleaned up under a live a2afft plan")
    if not np.array_equal(first, again):
        return "a2afft's plan gave another result after mpi4py-fft planned"
    return None


def main():
    failures = []
    directory = tempfile.mkdtemp(prefix="a2afft-fftw-neighbours-") if comm.rank == 0 else None
    os.chdir(comm.bcast(directory))
    for kind, dtype in (("c2c", np.complex128), ("r2c", np.float32)):
        problem = one_sequence(kind, dtype)
        problems = [p for p in comm.allgather(problem) if p]
        if problems:
            failures.append(f"{kind} {np.dtype(dtype).name}: {problems[0]}")
    comm.Barrier()
    if directory:
        shutil.rmtree(directory)
    if comm.rank == 0:
        for failure in failures:
            print("FAIL:", failure)
        if not failures:
            print(f"PASS: a2afft plans outlive mpi4py-fft's first plans (c2c double, r2c float) "
                  f"on {comm.size} ranks")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
