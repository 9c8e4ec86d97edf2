#!/bin/bash
# tests/scenarios/stale_rerun.sh - what a killed run left is cleaned before the next run writes
# anything: a rerun into the folder of a killed run that was deleted since is not taken for the killed
# run (its run.json stays running, with no failure), and a killed run whose folder is still there is
# marked failed, with a stale_run event in the new run's events. A stand-in scenario that stops once
# its run folder is set up (standin_conduct); nothing is started.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/scenarios/scenario_lib.sh"
[[ -x $ALLOCSPIKE_BIN/allocspike-report ]] || skip "allocspike-report is not built yet (it writes the events)"
[[ -x $ALLOCSPIKE_BIN/allocspike-run ]] || skip "allocspike-run is not built yet (it cleans what killed runs left)"

scenario_standin "$TEST_TMP/scenario.sh"
cat >>"$TEST_TMP/scenario.sh" <<SCENARIO
standin_conduct "\$@"
jq -c '{status, failure}' "\$SC_RUN/run.json" >"$TEST_TMP/status-after-setup"
SCENARIO

# killed_run DIR : registers DIR as the folder of a run whose script was killed (its pid gone).
killed_run() {
	local pid
	pid=$(bash -c 'echo $$')
	mkdir -p "$ALLOCSPIKE_STATE_DIR" "$1"
	printf '%s\n' "$1" >"$ALLOCSPIKE_STATE_DIR/$pid"
	printf 'name\tpid\tstart_ticks\n_scenario\t%s\t1\n' "$pid" >"$1/processes.tsv"
	jq -n '{format: 1, status: "running", scenario: "spike"}' >"$1/run.json"
	echo "$pid"
}

# The killed run's folder deleted, the same --out given again.
run=$TEST_TMP/run
pid=$(killed_run "$run")
rm -r -- "$TEST_TMP/run"
bash "$TEST_TMP/scenario.sh" --out "$run" 2>"$TEST_TMP/err1"
check_eq "the rerun sets up its folder" 0 $?
check_eq "its run.json is its own: running, no failure" '{"status":"running","failure":null}' \
	"$(cat "$TEST_TMP/status-after-setup" 2>/dev/null)"
check "the killed run is no longer registered" test ! -e "$ALLOCSPIKE_STATE_DIR/$pid"
check "the stale_run event names the killed run" jq_true -s --arg r "$run" \
	'any(.[]; .event == "stale_run" and .run == $r and .stopped == [])' "$run/events.jsonl"

# A killed run whose folder is still there: marked failed, as before.
old=$TEST_TMP/old
pid=$(killed_run "$old")
rm -f "$TEST_TMP/status-after-setup"
bash "$TEST_TMP/scenario.sh" --out "$TEST_TMP/new" 2>"$TEST_TMP/err2"
check_eq "the next run sets up its folder" 0 $?
check_eq "the killed run is marked failed" failed "$(jq -r .status "$old/run.json")"
check_eq "the new run is running" '{"status":"running","failure":null}' \
	"$(cat "$TEST_TMP/status-after-setup" 2>/dev/null)"
check "its stale_run event names the killed run" jq_true -s --arg r "$old" \
	'any(.[]; .event == "stale_run" and .run == $r)' "$TEST_TMP/new/events.jsonl"
check "the killed run is no longer registered" test ! -e "$ALLOCSPIKE_STATE_DIR/$pid"
finish
