#!/usr/bin/env bash
# usage: interrupt_resume.sh STUDY_RUNS DECK LAUNCHER... -- A2AFFT
# A study interrupted after its first runs keeps them: SIGTERM to mpirun and its ranks (as a
# batch system sends at the time limit) once the CSV holds run 1 must leave a valid JSON and CSV with the
# finished runs, say how many and exit non-zero; `--resume` then runs the rest and the results
# equal a clean run's in count. SIGINT (Ctrl-C) to a2afft run without mpirun exits 130 the
# same way. Works in ./interrupt/.
set -u
study_runs=$1
deck=$2
shift 2
launcher=()
while [ "$1" != "--" ]; do launcher+=("$1"); shift; done
a2afft=$2
rm -rf interrupt && mkdir interrupt
fail() { echo "FAILED: $*"; exit 1; }

# children_of PID: the processes whose parent is PID (from /proc, which every Linux has).
children_of() {
  local stat fields
  for stat in /proc/[0-9]*/stat; do
    read -r fields <"$stat" 2>/dev/null || continue
    fields=${fields##*) }  # after the command name: state, parent, ...
    fields=${fields#* }
    if [ "${fields%% *}" = "$1" ]; then
      stat=${stat#/proc/}
      echo "${stat%/stat}"
    fi
  done
  return 0
}

# interrupt SIGNAL PREFIX COMMAND...: starts COMMAND, sends SIGNAL once PREFIX.csv holds a row
# of run 1, and leaves its exit status in $status and its output in PREFIX.out.
interrupt() {
  local signal=$1 prefix=$2
  shift 2
  "$@" >"$prefix.out" 2>&1 &
  local pid=$! waited=0
  until grep -q '^1,' "$prefix.csv" 2>/dev/null; do
    if ! kill -0 $pid 2>/dev/null; then
      wait $pid
      status=$?
      cat "$prefix.out"
      fail "it exited ($status) before run 1 was in $prefix.csv"
    fi
    sleep 0.05
    waited=$((waited + 1))
    [ $waited -lt 1200 ] || { kill -KILL $pid; cat "$prefix.out"; fail "no run finished in 60 s"; }
  done
  # Like a batch system: the signal goes to every process of the job, not only to mpirun
  # (which would pass it on only a second or two later).
  kill "-$signal" $pid $(children_of $pid)
  wait $pid
  status=$?
  cat "$prefix.out"
}

# kept PREFIX: checks the interrupted results and prints how many runs they kept.
kept() {
  local prefix=$1 summary runs
  summary=$("$study_runs" "$prefix.json" "$prefix.csv") || fail "$prefix: results not valid"
  runs=${summary%% of *}
  grep -q "^a2afft run: interrupted: $runs of $planned runs kept in $prefix.json" "$prefix.out" ||
    fail "no 'interrupted: $runs of $planned runs kept' line"
  [ "$runs" -ge 1 ] && [ "$runs" -lt "$planned" ] ||
    fail "$runs runs kept, expected 1 to $((planned - 1))"
  ls "$prefix".run*.json "$prefix".json.tmp >/dev/null 2>&1 && fail "scratch files left"
  echo "$summary"
}

echo "== a clean run"
"${launcher[@]}" "$a2afft" run "$deck" --output interrupt/clean || fail "the clean run failed"
clean=$("$study_runs" interrupt/clean.json interrupt/clean.csv) || fail "clean results not valid"
echo "clean: $clean"
planned=${clean#* of }
planned=${planned%% *}
[ "${clean%% of *}" = "$planned" ] || fail "the clean run has $clean"

echo "== SIGTERM to mpirun after the first run, then --resume"
interrupt TERM interrupt/cut "${launcher[@]}" "$a2afft" run "$deck" --output interrupt/cut
[ "$status" -ne 0 ] || fail "exit status 0 after SIGTERM"
summary=$(kept interrupt/cut) || { echo "$summary"; exit 1; }
echo "interrupted (exit $status): $summary"
"${launcher[@]}" "$a2afft" run "$deck" --output interrupt/cut --resume >interrupt/resume.out 2>&1 ||
  { cat interrupt/resume.out; fail "--resume failed"; }
cat interrupt/resume.out
grep -q "^# --resume: [1-9][0-9]* of $planned runs already in interrupt/cut.json" interrupt/resume.out ||
  fail "--resume did not say what it kept"
resumed=$("$study_runs" interrupt/cut.json interrupt/cut.csv) || fail "resumed results not valid"
echo "resumed: $resumed"
[ "$resumed" = "$clean" ] || fail "resumed: $resumed; a clean run: $clean"

echo "== --resume with another deck's results is refused, not started over"
sed 's/^iters = 300$/iters = 301/' "$deck" >interrupt/other.toml
# (Without mpirun's wait after a non-zero exit; the signals above need it: mpirun sends SIGKILL
# that long after SIGTERM.)
OMPI_MCA_odls_base_sigkill_timeout=0 "${launcher[@]}" "$a2afft" run interrupt/other.toml \
  --output interrupt/cut --resume \
  >interrupt/other.out 2>&1
status=$?
cat interrupt/other.out
[ "$status" -eq 2 ] || fail "exit status $status, expected 2"
grep -q "^a2afft: error: --resume: run 1 in interrupt/cut.json is '.*--iters 300.*', but interrupt/other.toml runs '.*--iters 301.*' there" \
  interrupt/other.out || fail "not the expected error"
"$study_runs" interrupt/cut.json interrupt/cut.csv >/dev/null || fail "the refusal changed the results"

echo "== SIGINT to a2afft run without mpirun"
interrupt INT interrupt/single "$a2afft" run "$deck" --output interrupt/single
[ "$status" -eq 130 ] || fail "exit status $status after SIGINT, expected 130"
summary=$(kept interrupt/single) || { echo "$summary"; exit 1; }
echo "interrupted (exit $status): $summary"
echo "ok: interrupted studies keep their finished runs, --resume completes them"
