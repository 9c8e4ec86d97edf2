#!/bin/bash
# tests/scenarios/crash.sh - a variant killed mid-run is recorded (exited by signal, crashed in
# summary.json) while the others run to the end and the run completes.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/scenarios/scenario_lib.sh"
scenario_require_programs

variants=$(scenario_built_variants 2)
[[ $variants == *,* ]] || skip "needs two built variants (have: $variants)"
victim=${variants%%,*}
survivor=${variants#*,}
out=$TEST_TMP/run
# shellcheck disable=SC2046
bash "$SPIKE" $(scenario_short_flags 127.57.32.0/20) --variants "$variants" --out "$out" \
	>"$TEST_TMP/stdout" 2>"$TEST_TMP/stderr" &
pid=$!
_test_pids+=("$pid")
victim_pid=
if scenario_wait_for "the first spike" 90 scenario_in_spike "$out"; then
	victim_pid=$(jq -r --arg v "$victim" 'select(.variant == $v and .event == "started") | .pid' "$out/events.jsonl")
	kill -KILL "$victim_pid"
fi
wait "$pid"
st=$?
check_eq "spike.sh exit status" 0 "$st"
scenario_check_folder "$out" completed
check "exit of the killed variant recorded with its signal" \
	jq -se --arg v "$victim" 'any(.[]; .variant == $v and .event == "exited" and .signal == 9)' "$out/events.jsonl"
check "$victim crashed in summary.json" jq_true --arg v "$victim" '.variants[$v].crash_count > 0' "$out/summary.json"
check "$survivor did not crash in summary.json" jq_true --arg v "$survivor" '.variants[$v].crash_count == 0' "$out/summary.json"
check "$survivor answered after the kill" test "$(awk -F, -v v="$survivor" 'NR > 1 && $2 == v && $3 == "recovery" && $4 == 2 { a += $7 } END { print a + 0 }' "$out/timeline.csv")" -gt 0
finish
