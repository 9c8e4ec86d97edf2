#!/bin/bash
# tests/scenarios/killed.sh - spike.sh SIGKILLed mid-spike leaves no process of its run within 5 s;
# the next run reports the killed run (a `stale_run` event), stops what it left (a process planted in
# its processes.tsv, with its real start time; one recorded with another start time is left alone)
# and marks it failed, and removes its control folder; SIGHUP ends that next run as interrupted
# (exit 130), not failed.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/scenarios/scenario_lib.sh"
scenario_require_programs

variant=$(scenario_built_variants 1)
first=$TEST_TMP/first
# shellcheck disable=SC2046 # the flags are words
bash "$SPIKE" $(scenario_short_flags 127.57.80.0/20) --variants "$variant" --out "$first" \
	>"$TEST_TMP/first.stdout" 2>"$TEST_TMP/first.stderr" &
pid=$!
_test_pids+=("$pid")
scenario_wait_for "the first spike" 90 scenario_in_spike "$first"
check "the first run reached a spike" scenario_in_spike "$first"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
no_leftovers() { [[ -z $(scenario_leftovers "$1") ]]; }
scenario_wait_for "the killed run's processes to die" 5 no_leftovers "$first"
check "no process of the killed run within 5 s" no_leftovers "$first"
[[ -z $(scenario_leftovers "$first") ]] || scenario_leftovers "$first"
check "the killed run is registered" test -s "$ALLOCSPIKE_STATE_DIR/$pid"
ctl_of() { compgen -G "$ALLOCSPIKE_STATE_DIR/ctl-$1.*" >/dev/null; }
no_ctl_of() { ! ctl_of "$1"; }
check "its control folder is in the state folder, by its PID" ctl_of "$pid"
check_eq "the killed run's status" running "$(jq -r .status "$first/run.json")"

# A process the killed run left behind (as a daemon ignoring its parent's death would be), and one
# whose PID the killed run recorded with another start time (its PID was reused): never signalled.
plant_leftovers "$first/processes.tsv"

second=$TEST_TMP/second
# shellcheck disable=SC2046
bash "$SPIKE" $(scenario_short_flags 127.57.96.0/20) --variants "$variant" --out "$second" \
	>"$TEST_TMP/second.stdout" 2>"$TEST_TMP/second.stderr" &
pid2=$!
_test_pids+=("$pid2")
hierarchy_ready() { grep -q '"_upstream", "event": "ready"' "$1/events.jsonl.pending" "$1/events.jsonl" 2>/dev/null; }
scenario_wait_for "the second run's hierarchy" 60 hierarchy_ready "$second"
kill -HUP "$pid2"
wait "$pid2"
check_eq "exit status after SIGHUP" 130 "$?"
check_eq "run.json status after SIGHUP" interrupted "$(jq -r .status "$second/run.json")"
check "interrupted event names SIGHUP" jq_true -s 'any(.[]; .event == "interrupted" and .signal == "SIGHUP")' \
	"$second/events.jsonl"
check "stale_run event names the killed run" jq_true -s --arg r "$first" \
	'any(.[]; .event == "stale_run" and .run == $r)' "$second/events.jsonl"
check "stale_run lists the planted process" jq_true -s --arg p "_planted:$planted" \
	'any(.[]; .event == "stale_run" and (.stopped | index($p)))' "$second/events.jsonl"
gone() { ! kill -0 "$planted" 2>/dev/null || [[ $(awk '{ sub(/.*\) /, ""); print $1 }' "/proc/$planted/stat") == Z ]]; }
check "the planted process was stopped" gone
check "a process whose start time differs from the recorded one was left alone" kill -0 "$reused"
check "stale_run does not list it" jq_true -s --arg p "_reused:$reused" \
	'all(.[]; .event != "stale_run" or (.stopped | index($p) | not))' "$second/events.jsonl"
check_eq "the killed run is marked failed" failed "$(jq -r .status "$first/run.json")"
check "the killed run is no longer registered" test ! -e "$ALLOCSPIKE_STATE_DIR/$pid"
check "the second run is no longer registered" test ! -e "$ALLOCSPIKE_STATE_DIR/$pid2"
check "the killed run's control folder removed by the second" no_ctl_of "$pid"
check "the second run's removed at its end" no_ctl_of "$pid2"
check "no process of the second run left" test -z "$(scenario_leftovers "$second")"
finish
