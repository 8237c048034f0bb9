#!/usr/bin/env bash
# usage: expect_output.sh PRELOAD_LIBRARY COMMAND... -- REGEX...
# Runs COMMAND with LD_PRELOAD=PRELOAD_LIBRARY (empty: without) and passes when it exits 0
# and its output (stdout and stderr together) matches every REGEX. The last `--` separates
# them: COMMAND may have its own.
set -u
preload=$1
shift
last=0
for ((i = 1; i <= $#; ++i)); do [ "${!i}" = "--" ] && last=$i; done
[ "$last" -gt 1 ] || { echo "usage: $0 PRELOAD_LIBRARY COMMAND... -- REGEX..."; exit 2; }
command=("${@:1:last-1}")
shift "$last"
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
