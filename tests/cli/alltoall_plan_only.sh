#!/usr/bin/env bash
# usage: alltoall_plan_only.sh ROWS COMMAND...
# COMMAND is an `a2afft alltoall --plan-only ...` command line (under mpiexec, or scripts/simulate);
# this script adds --csv and --json. Plan only, every plan is built and measured and none is run:
# the console header, the JSON settings and every CSV row must say plan only, and each of the
# ROWS rows must have a plan time and heap and no run time (empty cells, no JSON keys: never
# zeros standing in for times).
set -u
rows_expected=$1
shift
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAILED: $*"; exit 1; }
"$@" --csv "$out/a.csv" --json "$out/a.json" >"$out/console" 2>&1
status=$?
console=$(cat "$out/console")
printf '%s\n' "$console"
[ $status -eq 0 ] || fail "exit status $status"
grep -q '^# plan only (--plan-only): every plan built and measured' <<<"$console" ||
  fail "the console's settings line does not say plan only"
grep -q 'median \[us\]' <<<"$console" && fail "the console table has a time column"
grep -Eq '^ *block \[B\] +exchange +plan \[ms\] +plan heap/rank \[KiB\] *$' <<<"$console" ||
  fail "the console table's columns are not block, exchange, plan and heap"
python3 - "$out/a.json" "$out/a.csv" "$rows_expected" <<'PY' || fail "the JSON or CSV rows are wrong"
import csv, json, sys
document = json.load(open(sys.argv[1]))
rows_expected = int(sys.argv[3])
settings = document["settings"]
assert settings["plan_only"] is True and settings["iterations"] == 0, settings
results = document["results"]
assert len(results) == rows_expected, f"{len(results)} JSON rows, expected {rows_expected}"
for run in results:
    assert run["plan_only"] is True, run
    assert not {"median_seconds", "min_seconds", "max_seconds"} & run.keys(), f"times in {run}"
    assert run["plan_seconds"] > 0, run
    assert run["plan_heap_bytes_per_rank"] >= 0, run
rows = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == rows_expected, f"{len(rows)} CSV rows, expected {rows_expected}"
for row in rows:
    assert row["median_s"] == row["min_s"] == row["max_s"] == "", f"times in {row}"
    assert float(row["plan_s"]) > 0 and float(row["plan_heap_bytes_per_rank"]) >= 0, row
    assert row["run"] == "plan only (built and measured, not run)", row
    if "simulated" in row:
        assert row["simulated"].startswith("SimGrid"), row
print(f"{len(rows)} rows, each with a plan time and heap and no run time; "
      f"plan ms: {[round(run['plan_seconds'] * 1e3, 3) for run in results]}")
PY
echo "ok: plan only in the header, the JSON settings and all $rows_expected rows"
