#!/usr/bin/env bash
# usage: check_progress.sh RUNS COMMAND...
# Runs an `a2afft run` COMMAND with stdout and stderr in one pipe, as a terminal or a batch log
# shows them, and checks that rank 0's progress lines neither land inside a run's output (each
# is followed by the blank line that opens the next run, or the results line) nor break: RUNS
# whole progress lines, each on one line, and no piece of one anywhere else.
set -u
runs=$1
shift
output=$("$@" 2>&1)
status=$?
printf '%s\n' "$output"
if [ "$status" -ne 0 ]; then echo "FAILED: exit status $status"; exit 1; fi
printf '%s\n' "$output" | awk -v runs="$runs" '
  function fail(why) { print "FAILED: line " NR ": " why; failed = 1 }
  expect_blank { if ($0 != "") fail("a progress line is followed by \"" $0 "\", not a blank line"); expect_blank = 0 }
  /a2afft run: run / {
    if ($0 !~ /^a2afft run: run [0-9]+\/[0-9]+ \(ETA [^)]*\): a2afft [a-z0-9]+( .*)?$/) fail("a broken progress line: " $0)
    else { progress++; expect_blank = 1 }
    next
  }
  /a2afft run: [0-9]+ runs in / {
    if ($0 !~ /^a2afft run: [0-9]+ runs in [0-9]+ s$/) fail("a broken progress line: " $0)
    else { finished++; expect_blank = 1 }
    next
  }
  /(^|[^#] )(run [0-9]+\/[0-9]+|ETA [0-9-]|runs in [0-9]+ s)/ { fail("a piece of a progress line: " $0) }
  END {
    if (progress != runs) { print "FAILED: " progress " progress lines, expected " runs; failed = 1 }
    if (finished != 1) { print "FAILED: " finished " final progress lines, expected 1"; failed = 1 }
    exit failed
  }' || exit 1
echo "ok: $runs progress lines, whole, each between two runs"
