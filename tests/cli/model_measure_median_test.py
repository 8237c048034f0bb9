#!/usr/bin/python3
"""usage: model_measure_median_test.py SCRIPTS_MODEL_MEASURE
scripts/model-measure keeps each parameter's median over its launches (issue 47). Its launches
here are this file run as a stand-in for `a2afft model --measure --json F`: launch k writes the
k-th of three parameter sets, so every median, spread and size factor is known by hand. Also:
launches that disagree on P are one error naming the key, and a failing launch stops the run."""
import json
import os
import subprocess
import sys
import tempfile

# What the three stand-in launches measure, in order: a round overhead of 3, 1 and 2 us, a sync
# stage of 5, 9 and 7 us, a latency factor above 511 B of 2, 4 and 3.
LAUNCHES = [(3e-6, 5e-6, 2.0), (1e-6, 9e-6, 4.0), (2e-6, 7e-6, 3.0)]


def stand_in(counter, json_path, ranks):
    launch = int(open(counter).read()) if os.path.exists(counter) else 0
    open(counter, "w").write(str(launch + 1))
    if launch >= len(LAUNCHES):
        sys.exit(3)  # a launch that fails
    overhead, stage, factor = LAUNCHES[launch]
    inputs = {"ranks": ranks if launch < 2 else int(os.environ.get("LAST_RANKS", ranks)),
              "ranks_per_node": 2, "measured": True, "round_overhead_seconds": overhead,
              "node_sync_stage_seconds": stage,
              "latency_factors": f"63:1;511:{factor};1048575:1", "bandwidth_factors": ""}
    json.dump({"inputs": inputs, "context": {"launch": launch}}, open(json_path, "w"))


def run(script, directory, launches, last_ranks=2):
    out = os.path.join(directory, "median.json")
    counter = os.path.join(directory, "counter")
    if os.path.exists(counter):
        os.remove(counter)
    env = dict(os.environ, LAST_RANKS=str(last_ranks))
    done = subprocess.run([script, "--launches", str(launches), "--json", out, "--",
                           sys.executable, __file__, "--stand-in", counter, "--measure"],
                          capture_output=True, text=True, env=env)
    return done, out


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--stand-in":
        stand_in(sys.argv[2], sys.argv[sys.argv.index("--json") + 1], 2)
        return
    script = sys.argv[1]
    failures = []
    with tempfile.TemporaryDirectory() as directory:
        done, out = run(script, directory, 3)
        if done.returncode != 0:
            sys.exit(f"FAILED: model-measure exited {done.returncode}: {done.stderr}")
        result = json.load(open(out))
        inputs = result["inputs"]
        expected = {"round_overhead_seconds": 2e-6, "node_sync_stage_seconds": 7e-6,
                    "latency_factors": "63:1;511:3;1048575:1", "ranks": 2}
        for key, value in expected.items():
            if inputs.get(key) != value:
                failures.append(f"{key}: {inputs.get(key)!r}, expected the median {value!r}")
        if result["spread"].get("round_overhead_seconds") != [1e-6, 3e-6]:
            failures.append(f"spread {result['spread'].get('round_overhead_seconds')}, "
                            "expected [1e-06, 3e-06]")
        if len(result["launches"]) != 3:
            failures.append(f"{len(result['launches'])} launches kept, expected 3")
        done, _ = run(script, directory, 3, last_ranks=4)
        if done.returncode == 0 or "disagree on ranks" not in done.stderr:
            failures.append(f"launches with P = 2, 2, 4: exit {done.returncode}, {done.stderr!r}")
        done, _ = run(script, directory, 4)
        if done.returncode == 0 or "launch 4 of" not in done.stderr:
            failures.append(f"a failing 4th launch: exit {done.returncode}, {done.stderr!r}")
    if failures:
        sys.exit("FAILED:\n" + "\n".join(failures))
    print("ok: medians, spread, factors by threshold, disagreement and a failed launch")


if __name__ == "__main__":
    main()
