#!/usr/bin/env bash
# usage: expect_error.sh [--prefix NAME] [--status N] REGEX COMMAND...
# Passes when COMMAND exits non-zero (with --status: exactly N) and prints exactly one
# "a2afft: error:" line (with --prefix: "NAME: error:", a script's), which matches REGEX: bad
# input gets one clear line, never a hang, a crash or a silent success.
set -u
expected_status="" prefix=a2afft
if [ "$1" = "--prefix" ]; then
  prefix=$2
  shift 2
fi
if [ "$1" = "--status" ]; then
  expected_status=$2
  shift 2
fi
regex=$1
shift
output=$("$@" 2>&1)
status=$?
errors=$(printf '%s\n' "$output" | grep -c "^$prefix: error:")
line=$(printf '%s\n' "$output" | grep "^$prefix: error:" | head -1)
printf '%s\n' "$output"
if [ "$status" -eq 0 ]; then echo "FAILED: exit status 0, expected non-zero"; exit 1; fi
if [ "$status" -gt 128 ]; then echo "FAILED: killed by a signal (status $status)"; exit 1; fi
if [ -n "$expected_status" ] && [ "$status" -ne "$expected_status" ]; then
  echo "FAILED: exit status $status, expected $expected_status"
  exit 1
fi
if [ "$errors" -ne 1 ]; then echo "FAILED: $errors '$prefix: error:' lines, expected 1"; exit 1; fi
if ! printf '%s\n' "$line" | grep -Eq -- "$regex"; then
  echo "FAILED: the error line does not match: $regex"
  exit 1
fi
echo "ok: exit $status, one error line matching: $regex"
