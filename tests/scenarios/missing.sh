#!/bin/bash
# tests/scenarios/missing.sh - a program missing when the run needs it: the run fails with a message
# naming it, run.json says failed with the reason, a report is still made and nothing is left running.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/scenarios/scenario_lib.sh"
scenario_require_programs

# Every program but the generator.
bin=$TEST_TMP/bin
mkdir -p "$bin"
for p in "$ALLOCSPIKE_BIN"/allocspike-*; do
	[[ $(basename "$p") == allocspike-loadgen ]] || ln -s "$p" "$bin/"
done
out=$TEST_TMP/run
# shellcheck disable=SC2046
ALLOCSPIKE_BIN=$bin bash "$SPIKE" $(scenario_short_flags 127.57.64.0/20) --variants "$(scenario_built_variants 1)" \
	--out "$out" >"$TEST_TMP/stdout" 2>"$TEST_TMP/stderr"
check_eq "exit status" 1 $?
check "the message names the missing program" grep -q "allocspike-loadgen is missing" "$TEST_TMP/stderr"
check_eq "run.json status" failed "$(jq -r .status "$out/run.json")"
check "run.json gives the reason" jq_true '.failure | test("allocspike-loadgen")' "$out/run.json"
check "failed event" jq_true -s 'any(.[]; .event == "failed" and (.reason | test("allocspike-loadgen")))' "$out/events.jsonl"
check "a report was still made" test -s "$out/report.html"
check "no process of the run left" test -z "$(scenario_leftovers "$out")"
finish
