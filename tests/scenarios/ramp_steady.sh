#!/bin/bash
# tests/scenarios/ramp_steady.sh - ramp.sh and steady.sh end to end on one build, short schedules:
# ramp.sh finds a capacity knee (run.json's capacity, a `calibrated` event per row); steady.sh
# sends its --rate for --baseline-len, every query of the schedule (the count is the schedule's,
# not a time). Neither had a test of its own.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/scenarios/scenario_lib.sh"
scenario_require_programs
variant=$(scenario_built_variants 1)
[[ -n $variant ]] || skip "no build row is built"
common=(--warmup-len 3s --warmup-rate 300 --baseline-rate 200 --cache-size 4M --no-build --variants "$variant")

out=$TEST_TMP/ramp
bash "$ALLOCSPIKE_SOURCE_DIR/scenarios/ramp.sh" "${common[@]}" --hierarchy-block 127.57.160.0/20 \
	--calibrate-len 6s --rate 3000 --out "$out" >"$TEST_TMP/ramp.out" 2>"$TEST_TMP/ramp.err"
check_eq "ramp.sh exit status" 0 $? || tail -20 "$TEST_TMP/ramp.err"
scenario_check_folder "$out" completed
check_eq "ramp.sh's schedule" "warmup:3s@300,calibrate:6s@200..3000" "$(jq -r .parameters.schedule "$out/run.json")"
check "run.json has the row's capacity" jq_true --arg v "$variant" '.capacity[$v].capacity_qps > 0' "$out/run.json"
check "a calibrated event for the row" jq -se --arg v "$variant" \
	'any(.[]; .variant == $v and .event == "calibrated" and .rate_qps > 0)' "$out/events.jsonl"
check "the capacity table on stderr names the row" grep -q "^$variant " "$TEST_TMP/ramp.err"

out=$TEST_TMP/steady
bash "$ALLOCSPIKE_SOURCE_DIR/scenarios/steady.sh" "${common[@]}" --hierarchy-block 127.57.176.0/20 \
	--rate 500 --baseline-len 5s --out "$out" >"$TEST_TMP/steady.out" 2>"$TEST_TMP/steady.err"
check_eq "steady.sh exit status" 0 $? || tail -20 "$TEST_TMP/steady.err"
scenario_check_folder "$out" completed
check_eq "steady.sh's schedule" "warmup:3s@300,baseline:5s@500" "$(jq -r .parameters.schedule "$out/run.json")"
# sum of COLUMN over the row's intervals of PHASE (all: every phase)
column_sum() {
	awk -F, -v v="$variant" -v col="$1" -v ph="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["variant"] == v && (ph == "all" || $c["phase"] == ph) { s += $c[col] } END { print s + 0 }' "$out/timeline.csv"
}
check_eq "the constant rate offered for --baseline-len (500 qps x 5 s)" 2500 "$(column_sum offered baseline)"
# counted by the interval they left in: a phase's first query can fall in the interval before it
check_eq "every query of the schedule sent (300 x 3 + 500 x 5)" 3400 "$(column_sum sent all)"
finish
