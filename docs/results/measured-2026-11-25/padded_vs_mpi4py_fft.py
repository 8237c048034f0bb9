"""Padded (3/2-rule) r2c transforms, forward + backward, a2afft against mpi4py-fft's padded PFFT
on the same ranks and the same data, interleaved run by run in one launch (issue 33).

    mpirun -np 2 --bind-to core /usr/bin/python3 padded_vs_mpi4py_fft.py N ITERS OUT.csv

Both from Python on preallocated arrays, both unnormalized (mpi4py-fft's forward(normalize=False),
a2afft's default), both FFTW_MEASURE plans. Each sample is one forward and one backward, the
slowest rank's time after a barrier. Writes one CSV row per engine: the median, min and max."""

import csv
import sys
import time

import numpy as np
from mpi4py import MPI
from mpi4py_fft import PFFT, newDistArray

import a2afft

comm = MPI.COMM_WORLD
n, iters, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
shape = (n, n, n)

theirs = PFFT(comm, shape, axes=(0, 1, 2), dtype=np.float64, padding=[1.5, 1.5, 1.5],
              planner_effort="FFTW_MEASURE")
u = newDistArray(theirs, False)
u[:] = np.random.default_rng(comm.rank).standard_normal(u.shape)
u_hat = newDistArray(theirs, True)
u_back = newDistArray(theirs, False)

ours = a2afft.Fft3d(comm, shape, kind="r2c", padding=1.5, rigor="measure")
x = np.random.default_rng(comm.rank).standard_normal(ours.local_input_shape)
x_hat = np.zeros(ours.local_output_shape, dtype=np.complex128)
x_back = np.zeros(ours.local_input_shape)


def theirs_once():
    theirs.forward(u, u_hat, normalize=False)
    theirs.backward(u_hat, u_back)


def ours_once():
    ours.forward(x, out=x_hat)
    ours.backward(x_hat, out=x_back)


def timed(run):
    comm.Barrier()
    start = time.perf_counter()
    run()
    return comm.allreduce(time.perf_counter() - start, op=MPI.MAX)


samples = {"mpi4py-fft": [], "a2afft " + ours.describe(): []}
runs = list(zip(samples, (theirs_once, ours_once)))
for i in range(iters + 2):  # two warm-up rounds
    for name, run in runs:
        seconds = timed(run)
        if i >= 2:
            samples[name].append(seconds)
if comm.rank == 0:
    with open(out, "w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(["n", "padded_grid", "ranks", "engine", "median_s", "min_s", "max_s"])
        for name, values in samples.items():
            writer.writerow([n, "x".join(map(str, ours.padded_shape)), comm.size, name,
                             np.median(values), min(values), max(values)])
            print(f"{n}^3 padded to {ours.padded_shape}: {name}: median "
                  f"{1e3 * np.median(values):.2f} ms (min {1e3 * min(values):.2f})")
theirs.destroy()
ours.close()
