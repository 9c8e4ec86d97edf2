#!/bin/bash
# tests/controller/conduct.sh - a conducted run (docs/controller.md, "A conducted run"), with small
# shell steps in place of a scenario's: the steps see the socket and the run folder and ask
# requests; their outcome is the run's (exit 0: completed; `failure TEXT` then exit 1: failed with
# that reason; exit 3: "exit status 3"; killed: "killed by SIGKILL"); SIGTERM to the controller
# interrupts the run (exit 130, the steps' group gone, a process they started stopped, the
# interrupted event), and a second signal hurries the stop; the control folder is removed; the
# report is made whatever the end (--report run) or not (none); usage errors exit 2.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
served_controller_test

# conduct NAME REPORT STEPS [$0] : a run in TEST_TMP/NAME with STEPS (bash) as its steps; its stdout in
# NAME.out, stderr in NAME.err; its exit status.
conduct() {
	"$RUN" conduct --scenario spike --out "$TEST_TMP/$1" --report "$2" -- bash -c "$3" "${@:4}" >"$1.out" 2>"$1.err"
}
status_of() { jq -r .status "$TEST_TMP/$1/run.json"; }
failure_of() { jq -r .failure "$TEST_TMP/$1/run.json"; }
ctl_dirs() { compgen -G "$ALLOCSPIKE_STATE_DIR/ctl-*" || true; }

conduct ok none 'echo "$ALLOCSPIKE_CONTROL" >'"$TEST_TMP"'/sock; echo "$ALLOCSPIKE_RUN_DIR" >'"$TEST_TMP"'/dir
	"$0" ask "$ALLOCSPIKE_CONTROL" runjson-set .parameters.note "\"asked\"" >/dev/null' "$RUN"
check_eq "steps that exit 0: exit 0" 0 $?
check_eq "run.json completed" completed "$(status_of ok)"
check_eq "the steps were given the run folder" "$TEST_TMP/ok" "$(cat dir)"
check "and the socket, in the state folder's control folder" grep -q "^$ALLOCSPIKE_STATE_DIR/ctl-[0-9]*\.[A-Za-z0-9]*/run.sock$" sock
check_eq "their request was answered" asked "$(jq -r .parameters.note ok/run.json)"
check "processes.tsv lists the steps" grep -q '^_steps	' ok/processes.tsv
check_eq "the owner and the controller are one process" 1 \
	"$(awk -F'\t' '$1 == "_scenario" || $1 == "_controller" { print $2 }' ok/processes.tsv | sort -u | wc -l)"
check "said the end" grep -q "^spike: run completed: $TEST_TMP/ok$" ok.err
check_eq "no report with --report none" "" "$(cat ok.out)"
check_eq "the control folder removed" "" "$(ctl_dirs)"
check "the run unregistered" test -z "$(ls -A "$ALLOCSPIKE_STATE_DIR")"

conduct said run '"$0" ask "$ALLOCSPIKE_CONTROL" failure "the generator is missing" >/dev/null; exit 1' "$RUN"
check_eq "steps that fail: exit 1" 1 $?
check_eq "run.json failed" failed "$(status_of said)"
check_eq "with the reason they gave" "the generator is missing" "$(failure_of said)"
check "a failed event" jq_true -s 'any(.[]; .event == "failed" and .reason == "the generator is missing")' said/events.jsonl
check "the report made all the same, its path printed" grep -qx "$TEST_TMP/said/report.html" said.out
check "there" test -s said/report.html

conduct three none 'exit 3'
check_eq "steps that exit 3 without a reason: exit 1" 1 $?
check_eq "the reason is their exit status" "exit status 3" "$(failure_of three)"

conduct killed none 'kill -KILL $$'
check_eq "steps killed: exit 1" 1 $?
check_eq "the reason names the signal" "the run's steps were killed by SIGKILL" "$(failure_of killed)"

# Interrupted: the steps start a process of the run and wait; SIGTERM to the controller.
"$RUN" conduct --scenario spike --out "$TEST_TMP/int" --report none -- bash -c '
	"$0" ask "$ALLOCSPIKE_CONTROL" start sleeper '"$TEST_TMP"'/sleeper.log "" -- sleep 300 >/dev/null
	echo $$ >'"$TEST_TMP"'/steps.pid
	sleep 300' "$RUN" >int.out 2>int.err &
pid=$!
_test_pids+=("$pid")
wait_until 10 test -s steps.pid
sleeper=$(awk -F'\t' '$1 == "sleeper" { print $2 }' int/processes.tsv)
kill -TERM "$pid"
wait "$pid"
check_eq "SIGTERM: exit 130" 130 $?
check_eq "run.json interrupted" interrupted "$(status_of int)"
check "the interrupted event names SIGTERM" jq_true -s 'any(.[]; .event == "interrupted" and .signal == "SIGTERM")' int/events.jsonl
check "the steps are gone" gone "$(cat steps.pid)"
check "the process they started is stopped" gone "$sleeper"
check_eq "the control folder removed" "" "$(ctl_dirs)"

# A second signal hurries the stop: a process that ignores SIGTERM is killed at once.
"$RUN" conduct --scenario spike --out "$TEST_TMP/hurry" --report none -- bash -c '
	"$0" ask "$ALLOCSPIKE_CONTROL" start stubborn '"$TEST_TMP"'/stubborn.log "" -- bash -c "trap \"\" TERM; sleep 300 & wait" >/dev/null
	echo $$ >'"$TEST_TMP"'/steps2.pid
	sleep 300' "$RUN" >hurry.out 2>hurry.err &
pid=$!
_test_pids+=("$pid")
wait_until 10 test -s steps2.pid
kill -INT "$pid"
wait_until 10 grep -q 'interrupted by SIGINT' hurry.err
sleep 0.5
kill -TERM "$pid"
wait "$pid"
check_eq "SIGINT then SIGTERM: exit 130" 130 $?
check "said the hurry" grep -q 'signal during the stop: killing what is left at once' hurry.err
check "the stubborn process did not outlast the run" test -z "$("$RUN" leftovers --run "$TEST_TMP/hurry")"

"$RUN" conduct --scenario 'a b' --out "$TEST_TMP/x" -- true 2>usage.err
check_eq "a scenario name that is not an identifier: exit 2" 2 $?
"$RUN" conduct --scenario spike --out "$TEST_TMP/x" 2>usage.err
check_eq "no command: exit 2" 2 $?
"$RUN" conduct --scenario spike --out "$TEST_TMP/x" --root / --options '{}' 2>usage.err
check_eq "the controller's own steps without --bin: exit 2" 2 $?
check "said what they take" grep -q -- "take --root, --bin and --options, and no command" usage.err
"$RUN" conduct --scenario spike --out "$TEST_TMP/x" --root / --bin / --options '{}' -- true 2>usage.err
check_eq "both its own steps and a command: exit 2" 2 $?
# a scenario the controller has no steps for: the run begun, then failed with the reason
"$RUN" conduct --scenario nosteps --out "$TEST_TMP/nosteps" --report none --root "$ALLOCSPIKE_SOURCE_DIR" \
	--bin "$ALLOCSPIKE_BIN" --options '{}' 2>nosteps.err
check_eq "no steps for the scenario: exit 1" 1 $?
check "said so" grep -q "the controller has no steps for scenario 'nosteps'" nosteps.err
check_eq "run.json failed: the steps could not be started" "failed the run's steps could not be started" \
	"$(jq -r '"\(.status) \(.failure)"' "$TEST_TMP/nosteps/run.json")"
# options that are no JSON object: the same
"$RUN" conduct --scenario spike --out "$TEST_TMP/badopts" --report none --root "$ALLOCSPIKE_SOURCE_DIR" \
	--bin "$ALLOCSPIKE_BIN" --options '[1]' 2>badopts.err
check_eq "options that are no object: exit 1" 1 $?
check "said so" grep -q -- "--options: not a JSON object" badopts.err
check "nothing made" test ! -e "$TEST_TMP/x"
mkdir -p full && touch full/file
"$RUN" conduct --scenario spike --out "$TEST_TMP/full" -- true 2>full.err
check_eq "a folder that cannot be begun: exit 1" 1 $?
check "said why" grep -q "the run could not begin in $TEST_TMP/full" full.err
check_eq "the control folder removed" "" "$(ctl_dirs)"
finish
