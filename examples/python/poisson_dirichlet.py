"""Spectral Poisson solve with Dirichlet boundaries, -lap(u) = f in the box (0, pi)^3 with u = 0
on its faces, with a2afft's sine transforms from Python: DST-I (FFTW's RODFT00) on every axis
over the interior points x_j = pi (j + 1) / (n + 1), whose modes sin(k x), k = 1..n, vanish on
the faces. Forward of f, divide by |k|^2, backward with full scaling; checked against the
analytic u (whose modes the grid holds exactly), so the error is round-off.
    mpirun -n 4 python3 poisson_dirichlet.py [N]"""
import sys
import numpy as np
from mpi4py import MPI
import a2afft

n = int(sys.argv[1]) if len(sys.argv) > 1 else 64
fft = a2afft.Fft3d(MPI.COMM_WORLD, (n, n, n), transforms="dst1,dst1,dst1", scaling="full")
x = [np.pi * (np.arange(n)[s] + 1) / (n + 1) for s in fft.local_input_slices]
X, Y, Z = np.meshgrid(*x, indexing="ij")
u = np.sin(X) * np.sin(2 * Y) * np.sin(3 * Z) + 0.5 * np.sin(4 * X) * np.sin(Y) * np.sin(Z)
f = 14 * np.sin(X) * np.sin(2 * Y) * np.sin(3 * Z) + 9 * np.sin(4 * X) * np.sin(Y) * np.sin(Z)

f_hat = fft.forward(f)  # real: local block fft.local_output_slices, axes in fft.output_axes order
k = [np.arange(1, n + 1)[fft.local_output_slices[a]] for a in fft.output_axes]
K = np.meshgrid(*k, indexing="ij")
u_solved = fft.backward(f_hat / (K[0] ** 2 + K[1] ** 2 + K[2] ** 2))

error = MPI.COMM_WORLD.allreduce(np.abs(u_solved - u).max(), op=MPI.MAX)
if MPI.COMM_WORLD.rank == 0:
    print(f"{fft.describe()}: n={n}, max error {error:.2e}", "PASS" if error < 1e-11 else "FAIL")
sys.exit(0 if error < 1e-11 else 1)
