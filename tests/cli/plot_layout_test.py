#!/usr/bin/python3
"""usage: plot_layout_test.py SCRIPTS_PLOT
Draws every figure of scripts/plot from a study shaped like the demo's (long exchange names on
fig13's axis, a long layout line), from a Taylor-Green CSV and from launches of two ranks x
threads splits (--split, whose reading it checks), and fails if anything drawn on a saved figure (its title,
an axes with its labels, ticks and legend) reaches outside the figure: the fig13 title used to be clipped."""
import importlib.machinery
import importlib.util
import json
import os
import sys
import tempfile

try:
    import matplotlib
except ImportError:
    sys.exit("plot_layout_test: /usr/bin/python3 has no matplotlib; install python3-matplotlib "
             "(./scripts/run-tests does)")

matplotlib.use("Agg")
import matplotlib.figure  # noqa: E402


def load_plot(path):
    loader = importlib.machinery.SourceFileLoader("a2afft_plot", path)
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(module)
    return module


def study():
    layout = "4 ranks, 2 nodes of 2 (virtual: --ranks-per-node=2)"
    context = {"layout": layout, "oversubscribed": True}
    long_names = ["mpi", "multileader(ppl=2,inner=pairwise) / multileader(ppl=1,inner=pairwise)",
                  "multileader-node-aware(ppl=2,inner=pairwise) / "
                  "multileader-node-aware(ppl=1,inner=pairwise)"]
    fft_rows = [{"engine": "a2afft", "exchange": f"row={name},column={name}",
                 "total": {"median_seconds": 3e-4}, "transpose": {"median_seconds": 2e-4},
                 "compute": {"median_seconds": 1e-4}} for name in long_names]
    fft_rows.append({"engine": "fftw-mpi", "exchange": "fftw_mpi_plan_dft_3d(TRANSPOSED_OUT)",
                     "total": {"median_seconds": 2e-4}})
    sizes = [64, 1024, 16384]
    alltoall_rows = [{"exchange": name, "block_bytes": size, "median_seconds": size * 1e-9}
                     for name in ("mpi", "tra(radix=2)", "tra(radix=3)") for size in sizes]
    runs = [
        {"index": 1, "kind": "alltoall", "label": "exchanges vs block size", "context": context,
         "command": "a2afft alltoall", "results": alltoall_rows},
        {"index": 2, "kind": "alltoall", "label": "tra radix sweep", "context": context,
         "command": "a2afft alltoall --radix-sweep", "results": alltoall_rows},
        {"index": 3, "kind": "fft3d", "label": "3D FFT, every backend", "problem": "size 32",
         "context": context, "command": "a2afft fft3d", "results": fft_rows},
    ]
    return {"schema": "a2afft-study/1", "context": {"a2afft": "0.1.0 (git 4638316-dirty)"},
            "runs": runs}


def main():
    plot = load_plot(sys.argv[1])
    clipped = []
    saved = []
    original_savefig = matplotlib.figure.Figure.savefig

    def checked_savefig(figure, path, *args, **kwargs):
        figure.canvas.draw()
        renderer = figure.canvas.get_renderer()
        bounds = figure.bbox
        # What is drawn: each axes with its title, labels, ticks and legend, and the figure's
        # own texts (a suptitle).
        parts = [(repr(axes.get_title() or axes.get_xlabel()), axes.get_tightbbox(renderer))
                 for axes in figure.axes]
        parts += [(repr(text.get_text()), text.get_window_extent(renderer))
                  for text in figure.texts if text.get_visible() and text.get_text().strip()]
        for name, extent in parts:
            if (extent.x0 < bounds.x0 - 1 or extent.x1 > bounds.x1 + 1 or
                    extent.y0 < bounds.y0 - 1 or extent.y1 > bounds.y1 + 1):
                clipped.append(f"{os.path.basename(path)}: {name}")
        saved.append(os.path.basename(path))
        return original_savefig(figure, path, *args, **kwargs)

    matplotlib.figure.Figure.savefig = checked_savefig
    with tempfile.TemporaryDirectory() as directory:
        results = os.path.join(directory, "study.json")
        with open(results, "w") as file:
            json.dump(study(), file)
        sys.argv = ["plot", results, "--out", directory]
        plot.main()
        # A Taylor-Green CSV (examples/taylor_green --csv), recognised by its header.
        taylor_green = os.path.join(directory, "tg.csv")
        with open(taylor_green, "w") as file:
            file.write("t,energy,dissipation\n")
            for step in range(101):
                t = step * 0.1
                file.write(f"{t:g},{0.125 - 1e-4 * t * t:.17g},{2e-4 * t + 4.6875e-4:.17g}\n")
        sys.argv = ["plot", taylor_green, "--out", directory]
        plot.main()
        # Ranks x threads (--split): two launches of each split, as `a2afft fft3d --json` writes.
        launches = []
        for split, seconds in (("2 ranks x 1 thread", 0.010), ("1 rank x 2 threads", 0.008)):
            for launch in (0, 0.5):
                command = {"settings": f"size 128x128x128, grid 2x1, {split}, transposed output, "
                                       "c2c double, measure",
                           "results": [{"engine": "a2afft", "total": {"median_seconds":
                                                                         seconds + launch / 64}},
                                       {"engine": "fftw-mpi", "total": {"median_seconds": 0.02}}]}
                launches.append(os.path.join(directory, f"{len(launches)}.json"))
                with open(launches[-1], "w") as file:
                    json.dump(command, file)
        points = plot.split_points(launches)
        got = {key: dict(engines) for key, engines in points["size 128x128x128, c2c double"].items()}
        want = {(2, 1): {"a2afft": [0.010, 0.010 + 1 / 128], "fftw-mpi": [0.02, 0.02]},
                (1, 2): {"a2afft": [0.008, 0.008 + 1 / 128], "fftw-mpi": [0.02, 0.02]}}
        if got != want:
            sys.exit(f"FAILED: --split read {got}, expected {want}")
        sys.argv = ["plot", "--split", *launches, "--out", directory]
        plot.main()
    expected = {"fig10-run1.png", "fig08-run2.png", "fig13-run3.png", "tg.png", "split-1.png"}
    if not expected <= set(saved):
        sys.exit(f"FAILED: drew {sorted(saved)}, expected at least {sorted(expected)}")
    if clipped:
        sys.exit("FAILED: text outside the figure:\n  " + "\n  ".join(clipped))
    print(f"ok: {len(saved)} figures, every text inside its figure")


if __name__ == "__main__":
    main()
