#!/usr/bin/env bash
# usage: expect_output.sh PRELOAD_LIBRARY COMMAND... -- REGEX...
# Runs COMMAND with LD_PRELOAD=PRELOAD_LIBRARY (empty: without) and passes when it exits 0
# and its output (stdout and stderr together) matches every REGEX.
set -u
preload=$1
shift
command=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do command+=("$1"); shift; done
shift
output=$(LD_PRELOAD=$preload "${command[@]}" 2>&1)
status=$?
printf '%s\n' "$output"
if [ "$status" -ne 0 ]; then echo "FAILED: exit status $status"; exit 1; fi
for regex in "$@"; do
  if ! printf '%s\n' "$output" | grep -Eq -- "$regex"; then
    echo "FAILED: no line matches: $regex"
    exit 1
  fi
done
echo "ok: exit 0, output matches all of: $*"
