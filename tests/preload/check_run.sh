#!/usr/bin/env bash
# usage: check_run.sh PRELOAD REPORT_CHECK -- LAUNCHER... -- PROGRAM... -- REGEX... [-- CHECKS...]
# Runs `LAUNCHER env LD_PRELOAD=PRELOAD A2AFFT_REPORT=<temporary> PROGRAM` (the preload reaches
# the ranks only, not the launcher) and passes when it exits 0, its output (stdout and stderr)
# matches every REGEX, and `REPORT_CHECK <report> CHECKS...` passes (report_check.cpp: calls
# routed per kind, the only fallback reasons allowed).
set -u
preload=$1 report_check=$2
[ "${3:-}" = "--" ] || { echo "usage: $0 PRELOAD REPORT_CHECK -- LAUNCHER... -- PROGRAM... -- REGEX... [-- CHECKS...]"; exit 2; }
shift 3
launcher=() program=() regexes=() checks=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do launcher+=("$1"); shift; done
shift
while [ $# -gt 0 ] && [ "$1" != "--" ]; do program+=("$1"); shift; done
shift
while [ $# -gt 0 ] && [ "$1" != "--" ]; do regexes+=("$1"); shift; done
[ $# -gt 0 ] && shift
checks=("$@")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
output=$("${launcher[@]}" env LD_PRELOAD="$preload" A2AFFT_REPORT="$work/report.json" \
         "${program[@]}" 2>&1)
status=$?
printf '%s\n' "$output"
if [ "$status" -ne 0 ]; then echo "FAILED: exit status $status"; exit 1; fi
for regex in "${regexes[@]}"; do
  if ! printf '%s\n' "$output" | grep -Eq -- "$regex"; then
    echo "FAILED: no line matches: $regex"
    exit 1
  fi
done
if [ ${#checks[@]} -gt 0 ]; then
  "$report_check" "$work/report.json" "${checks[@]}" || exit 1
fi
echo "ok: exit 0, output matches all of: ${regexes[*]}"
