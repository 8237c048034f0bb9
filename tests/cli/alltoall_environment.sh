#!/usr/bin/env bash
# usage: alltoall_environment.sh COMMAND...
# COMMAND is an `a2afft alltoall ...` command line (under mpiexec); this script forces Open MPI's
# tuned alltoall to algorithm 2 through the environment, as a user comparing algorithms does, and
# adds --csv and --json. Issue 46: the forced algorithm must be visible next to the numbers: one
# `# environment:` line in the console header, an "environment" object in the JSON context, and
# an `environment` column on every CSV row. Without those variables, no such line or column.
set -u
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAILED: $*"; exit 1; }
OMPI_MCA_coll_tuned_use_dynamic_rules=1 OMPI_MCA_coll_tuned_alltoall_algorithm=2 \
  "$@" --csv "$out/a.csv" --json "$out/a.json" >"$out/console" 2>&1
status=$?
cat "$out/console"
[ $status -eq 0 ] || fail "exit status $status"
line='# environment: OMPI_MCA_coll_tuned_alltoall_algorithm=2, OMPI_MCA_coll_tuned_use_dynamic_rules=1'
[ "$(grep -c '^# environment:' "$out/console")" -eq 1 ] || fail "not one '# environment:' line"
grep -qxF "$line" "$out/console" || fail "the environment line is not '$line'"
python3 - "$out/a.json" "$out/a.csv" <<'PY' || fail "the JSON or CSV does not carry the environment"
import csv, json, sys
environment = json.load(open(sys.argv[1]))["context"]["environment"]
assert environment == {"OMPI_MCA_coll_tuned_alltoall_algorithm": "2",
                       "OMPI_MCA_coll_tuned_use_dynamic_rules": "1"}, environment
rows = list(csv.DictReader(open(sys.argv[2])))
assert rows, "no CSV rows"
for row in rows:
    assert row["environment"] == ("OMPI_MCA_coll_tuned_alltoall_algorithm=2;"
                                  "OMPI_MCA_coll_tuned_use_dynamic_rules=1"), row
PY
# And without them: no line, an empty object, no column.
env -u OMPI_MCA_coll_tuned_use_dynamic_rules -u OMPI_MCA_coll_tuned_alltoall_algorithm \
  "$@" --csv "$out/b.csv" --json "$out/b.json" >"$out/plain" 2>&1 || fail "plain run failed"
grep -q '^# environment:' "$out/plain" && fail "an environment line without settings"
python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["context"]["environment"] == {}' \
  "$out/b.json" || fail "the plain run's JSON environment is not {}"
head -1 "$out/b.csv" | grep -q environment && fail "the plain run's CSV has an environment column"
echo "ok: the forced algorithm is in the header, the JSON context and every CSV row"
