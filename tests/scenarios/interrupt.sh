#!/bin/bash
# tests/scenarios/interrupt.sh - SIGINT in the middle of a spike, then SIGTERM during the stop: status
# interrupted, exit 130, every process of the run gone, and a report of what was recorded.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/scenarios/scenario_lib.sh"
scenario_require_programs

out=$TEST_TMP/run
# Job control on: a background job of a script otherwise starts with SIGINT ignored, as after `&`.
set -m
# shellcheck disable=SC2046 # the flags are words
bash "$SPIKE" $(scenario_short_flags 127.57.16.0/20) --variants "$(scenario_built_variants 2)" --out "$out" \
	>"$TEST_TMP/stdout" 2>"$TEST_TMP/stderr" &
pid=$!
set +m
_test_pids+=("$pid")
if scenario_wait_for "the first spike" 90 scenario_in_spike "$out"; then
	kill -INT "$pid"
	# A second signal while the run is being stopped (a CI job escalating) must not cut the stop short.
	sleep 0.5
	kill -TERM "$pid" 2>/dev/null
fi
wait "$pid"
st=$?
check_eq "exit status after SIGINT" 130 "$st"
check "the timeline reached a spike before the interrupt" scenario_in_spike "$out"
check "the run did not reach its end" test -z "$(grep '^[^,]*,[^,]*,recovery,2,' "$out/timeline.csv")"
check_eq "run.json status" interrupted "$(jq -r .status "$out/run.json")"
check "interrupted event" grep -q '"interrupted"' "$out/events.jsonl"
check "ended recorded" jq_true '.ended != null' "$out/run.json"
check "no process of the run left" test -z "$(scenario_leftovers "$out")"
check "a report was made" test -s "$out/report.html"
check "summary.json says interrupted" grep -q interrupted "$out/summary.json"
finish
