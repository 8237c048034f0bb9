#!/usr/bin/env bash
# usage: model_measure.sh SCRIPTS_SIMULATE SOURCE_DIR
# `a2afft model --measure` inside a simulated platform recovers the platform file's published
# parameters within 20% (issue 47): 8 ranks on 2 hosts of 4 of test-cluster, whose numbers
# inputs/platforms/test-cluster.json states (alpha of 2 links, one link's rate for a rank and
# for the node's injection, the loopback's latency and rate). SimGrid 3.32 does not share a
# cluster's loopback among the host's flows (the 4 ranks copying at once each get its rate), so
# the node's copy rate is checked against 4 x the loopback's rate.
# SMPI's own piecewise latency and bandwidth factors are not in the platform file (by default
# they double a small message's latency, measured 2.02 us against a 1 us loopback on
# theta-like), so this run sets both to 1: it checks that the microbenchmarks measure what the
# simulator models, not SMPI's calibration. It also turns off smpi/simulate-computation: SMPI
# otherwise injects this machine's real CPU time between MPI calls (the timers, the loop) into
# simulated time, which made the 0.2 us loopback latency measure 2.2 us in one CI run and 0.21 us
# in another; the network's parameters are what this test checks, so the run is deterministic.
# With it off, the host copy terms (a memcpy timed on rank 0) must come out next to free.
set -u
simulate=$1
source_dir=$2
fail() { echo "FAILED: $*"; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$simulate" --platform test-cluster --ranks 8 --ranks-per-node 4 \
  --cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1 --cfg=smpi/simulate-computation:no -- \
  a2afft model --measure --block-bytes 1K --json "$out/measured.json" || fail "exit status $?"
python3 - "$out/measured.json" "$source_dir/inputs/platforms/test-cluster.json" <<'PY' || exit 1
import json, sys
measured = json.load(open(sys.argv[1]))["inputs"]
published = json.load(open(sys.argv[2]))
bad = []
for key in ("alpha_intra_seconds", "beta_intra_seconds_per_byte", "alpha_inter_seconds",
            "beta_inter_seconds_per_byte", "node_injection_bytes_per_second",
            "node_copy_bytes_per_second"):
    expected = published[key]
    if key == "node_copy_bytes_per_second":  # 0 in the file: no shared limit; 4 flows at once
        expected = 4 / published["beta_intra_seconds_per_byte"]
    ratio = measured[key] / expected
    print(f"{key}: measured {measured[key]:.4g}, platform {expected:.4g}, ratio {ratio:.3f}")
    if not 0.8 <= ratio <= 1.2:
        bad.append(key)
overhead = measured["message_overhead_seconds"]
print(f"message_overhead_seconds: measured {overhead:.3g} (SMPI's smpi/os and smpi/or: 0)")
if overhead > 0.2e-6:
    bad.append("message_overhead_seconds")
# With smpi/simulate-computation:no the host's own time is not injected, so the host copies
# (the exchanges' packing, a memcpy on rank 0) take next to no simulated time (MPI_Wtime itself
# advances the clock by smpi/wtime's few ns): 64 MiB must cost under 1 us (this machine's memcpy
# takes milliseconds) and a memcpy call under 0.01 ns, or the rate 0 when no time passed at all.
rate, call = measured["host_copy_bytes_per_second"], measured["host_copy_call_seconds"]
print(f"host_copy_bytes_per_second: measured {rate:.3g} (no host time injected: 64 MiB < 1 us)")
print(f"host_copy_call_seconds: measured {call:.3g} (no host time injected: < 0.01 ns)")
if rate != 0 and 64 * 2**20 / rate >= 1e-6:
    bad.append("host_copy_bytes_per_second")
if call >= 1e-11:
    bad.append("host_copy_call_seconds")
# A node sync (MPI_Win_sync, barrier, MPI_Win_sync) with SMPI's recursive-doubling barrier
# (scripts/simulate sets smpi/barrier:ompi_recursivedoubling) is ceil(log2 4) = 2 stages of one
# zero-byte message over the loopback each; MPI_Win_sync costs no simulated time.
stage = measured["node_sync_stage_seconds"]
ratio = stage / published["alpha_intra_seconds"]
print(f"node_sync_stage_seconds: measured {stage:.4g}, the loopback's latency "
      f"{published['alpha_intra_seconds']:.4g}, ratio {ratio:.3f}")
if not 0.8 <= ratio <= 1.2:
    bad.append("node_sync_stage_seconds")
if bad:
    sys.exit("FAILED: not within 20% of the platform file (or host time injected): " +
             ", ".join(bad))
print("ok: every parameter within 20% of the platform file")
PY
