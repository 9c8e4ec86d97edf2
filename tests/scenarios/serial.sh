#!/bin/bash
# tests/scenarios/serial.sh - --serial runs one variant at a time and leaves the same folder shape,
# each variant's timeline starting at t=0 so the report can align them.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/scenarios/scenario_lib.sh"
scenario_require_programs

variants=$(scenario_built_variants 2)
out=$TEST_TMP/run
# shellcheck disable=SC2046
bash "$SPIKE" $(scenario_short_flags 127.57.48.0/20) --serial --variants "$variants" --out "$out" \
	>"$TEST_TMP/stdout" 2>"$TEST_TMP/stderr"
st=$?
check_eq "spike.sh --serial exit status" 0 "$st"
((st == 0)) || tail -n 20 "$TEST_TMP/stderr"
scenario_check_folder "$out" completed
check_eq "mode" serial "$(jq -r .parameters.mode "$out/run.json")"
header=$(head -1 "$ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal/timeline.csv")
check_eq "timeline header" "$header" "$(head -1 "$out/timeline.csv")"
check_eq "one header line" 1 "$(grep -c '^t_s,' "$out/timeline.csv")"
IFS=, read -r -a vs <<<"$variants"
for v in "${vs[@]}"; do
	first=$(awk -F, -v v="$v" 'NR > 1 && $2 == v { print $1; exit }' "$out/timeline.csv")
	check "$v starts near t=0 (first row at $first s)" awk -v t="$first" 'BEGIN { exit !(t > 0 && t < 1) }'
done
unanswered=$(scenario_spikes_unanswered "$out" "$variants")
check "every variant answered in every spike" test -z "$unanswered"
finish
