"""Spectral Poisson solve, -lap(u) = f on the periodic box [0, 2pi)^3, with a2afft from Python:
r2c forward of f, divide by |k|^2, c2r backward with full scaling; checked against the analytic
u (whose modes the grid holds exactly), so the error is round-off. Plans stay open to the end:
a2afft closes them before MPI finalizes.    mpirun -n 4 python3 poisson.py [N]"""
import sys
import numpy as np
from mpi4py import MPI
import a2afft

n = int(sys.argv[1]) if len(sys.argv) > 1 else 64
fft = a2afft.Fft3d(MPI.COMM_WORLD, (n, n, n), kind="r2c", scaling="full")
x = [2 * np.pi * np.arange(n)[s] / n for s in fft.local_input_slices]
X, Y, Z = np.meshgrid(*x, indexing="ij")
u = np.sin(X) * np.cos(2 * Y) + 0.5 * np.cos(3 * Z) + 0.25 * np.sin(X + 2 * Y - 4 * Z)
f = 5 * np.sin(X) * np.cos(2 * Y) + 4.5 * np.cos(3 * Z) + 5.25 * np.sin(X + 2 * Y - 4 * Z)

f_hat = fft.forward(f)  # local block fft.local_output_slices, axes in fft.output_axes order
k = [np.fft.fftfreq(n, 1 / n), np.fft.fftfreq(n, 1 / n), np.fft.rfftfreq(n, 1 / n)]
k = [k[a][fft.local_output_slices[a]] for a in fft.output_axes]
K = np.meshgrid(*k, indexing="ij")
k2 = K[0] ** 2 + K[1] ** 2 + K[2] ** 2
u_hat = np.divide(f_hat, k2, out=np.zeros_like(f_hat), where=k2 > 0)
u_solved = fft.backward(u_hat)

error = MPI.COMM_WORLD.allreduce(np.abs(u_solved - u).max(), op=MPI.MAX)
if MPI.COMM_WORLD.rank == 0:
    print(f"{fft.describe()}: n={n}, max error {error:.2e}", "PASS" if error < 1e-11 else "FAIL")
sys.exit(0 if error < 1e-11 else 1)
