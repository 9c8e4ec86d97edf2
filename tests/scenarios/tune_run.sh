#!/bin/bash
# tests/scenarios/tune_run.sh - tune.sh end to end: a default row and one setting in one spike run
# (short schedule, fixed spike rate), then the advisor: its page and advice.json with both rows,
# the table and the advice on stderr, the page's path on stdout.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/scenarios/scenario_lib.sh"
scenario_require_programs
TUNE=$ALLOCSPIKE_SOURCE_DIR/scenarios/tune.sh
[[ -x $ALLOCSPIKE_BIN/allocspike-resolver-glibc ]] || skip "the glibc build is not built"

out=$TEST_TMP/tune
# shellcheck disable=SC2046
bash "$TUNE" --variants glibc,glibc-trim4k --batch 2 $(scenario_short_flags 127.57.208.0/20) --out "$out" \
	>"$TEST_TMP/stdout" 2>"$TEST_TMP/stderr"
check_eq "tune.sh exit status" 0 "$?"
check_eq "stdout: the advisor page's path" "$out/advisor.html" "$(tail -n 1 "$TEST_TMP/stdout")"
check "the advisor page written" test -s "$out/advisor.html"
check_eq "one spike run with both rows, completed" "completed glibc,glibc-trim4k" \
	"$(jq -r '"\(.status) \([.variants[].name] | join(","))"' "$out/run-1-1/run.json")"
check_eq "advice.json: both rows" "glibc glibc-trim4k" "$(jq -r '.variants | keys | join(" ")' "$out/advice.json")"
check "advice.json: figures for the setting (held memory after the spikes)" \
	jq_true '.variants["glibc-trim4k"].held_after_spikes_mb | type == "number"' "$out/advice.json"
check "advice.json: at least one sentence of advice" jq_true '.sentences | length > 0' "$out/advice.json"
check "stderr: the table, with the setting's row" grep -q '^glibc-trim4k ' "$TEST_TMP/stderr"
check "no process of the run left" test -z "$(scenario_leftovers "$out/run-1-1")"
((_test_failures == 0)) || { echo "--- stderr"; tail -30 "$TEST_TMP/stderr"; }
finish
