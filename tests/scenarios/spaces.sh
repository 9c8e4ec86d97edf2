#!/bin/bash
# tests/scenarios/spaces.sh - paths with spaces end to end: spike.sh run from a source path, with a
# program folder and into a run folder whose names hold spaces (a short schedule, one variant)
# completes with every file and answers in every spike.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/scenarios/scenario_lib.sh"
scenario_require_programs

variant=$(scenario_built_variants 1)
ln -s "$ALLOCSPIKE_SOURCE_DIR" "$TEST_TMP/source tree"
ln -s "$ALLOCSPIKE_BIN" "$TEST_TMP/program folder"
out="$TEST_TMP/run folder"
# shellcheck disable=SC2046 # the flags are words
ALLOCSPIKE_BIN="$TEST_TMP/program folder" bash "$TEST_TMP/source tree/scenarios/spike.sh" \
	$(scenario_short_flags 127.57.112.0/20) --variants "$variant" --out "$out" \
	>"$TEST_TMP/stdout" 2>"$TEST_TMP/stderr"
st=$?
check_eq "spike.sh exit status" 0 "$st"
((st == 0)) || tail -n 20 "$TEST_TMP/stderr"
scenario_check_folder "$out" completed
check "the programs ran from the folder with a space" jq_true --arg d "$TEST_TMP/program folder/" \
	'.programs["allocspike-loadgen"].path | startswith($d)' "$out/run.json"
check "root.hints was written there" test -s "$out/root.hints"
check "every spike answered" test -z "$(scenario_spikes_unanswered "$out" "$variant")"
finish
