"""One launch of scripts/bench-python (run under mpirun): a2afft's Python Fft3d and mpi4py-fft's
PFFT on the same sizes and kinds, forward transforms interleaved (run i of each before run i+1),
each run's time the max over ranks; one CSV row per library and case, written as it finishes.
Usage: bench_python.py --sizes 64,128 --kinds c2c,r2c --iters 20 --exchange pairwise --csv F"""

import argparse
import csv

import numpy as np
from mpi4py import MPI
from mpi4py_fft import PFFT, newDistArray

import a2afft

comm = MPI.COMM_WORLD


def timed(run):
    comm.Barrier()
    start = MPI.Wtime()
    run()
    return comm.allreduce(MPI.Wtime() - start, op=MPI.MAX)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", required=True)
    parser.add_argument("--kinds", default="c2c,r2c")
    parser.add_argument("--iters", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--exchange", default="pairwise")
    parser.add_argument("--csv", required=True)
    args = parser.parse_args()
    out = open(args.csv, "w", newline="") if comm.rank == 0 else None
    writer = csv.writer(out) if out else None
    if writer:
        writer.writerow(["n", "kind", "library", "plan", "median_s", "min_s", "max_s"])
    rng = np.random.default_rng(comm.rank)
    for n in (int(size) for size in args.sizes.split(",")):
        for kind in args.kinds.split(","):
            dtype = np.complex128 if kind == "c2c" else np.float64
            ours = a2afft.Fft3d(comm, (n, n, n), kind=kind, dtype=dtype, exchange=args.exchange,
                                rigor="measure")
            u = rng.standard_normal(ours.local_input_shape).astype(dtype)
            u_hat = ours.forward(u)
            theirs = PFFT(comm, (n, n, n), axes=(0, 1, 2), dtype=dtype)
            v = newDistArray(theirs, False)
            v[:] = rng.standard_normal(v.shape).astype(dtype)
            v_hat = newDistArray(theirs, True)
            cases = {"a2afft-python": lambda: ours.forward(u, out=u_hat),
                     "mpi4py-fft": lambda: theirs.forward(v, v_hat, normalize=False)}
            seconds = {name: [] for name in cases}
            for iteration in range(args.warmup + args.iters):
                for name, run in cases.items():
                    elapsed = timed(run)
                    if iteration >= args.warmup:
                        seconds[name].append(elapsed)
            plans = {"a2afft-python": ours.describe(), "mpi4py-fft": "PFFT, FFTW_MEASURE"}
            for name, values in seconds.items():
                if writer:
                    writer.writerow([n, kind, name, plans[name], np.median(values), min(values),
                                     max(values)])
                    out.flush()
            ours.close()
            theirs.destroy()
    if out:
        out.close()


if __name__ == "__main__":
    main()
