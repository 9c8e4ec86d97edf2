#!/bin/bash
# tests/scenarios/quick.sh - what CI checks of `spike.sh --quick --out DIR`: a completed run folder with
# every file, memory samples for every variant on every interval, answers in every spike, nothing left.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/scenarios/scenario_lib.sh"
scenario_require_programs

variants=$(scenario_built_variants 4)
out=$TEST_TMP/run
bash "$SPIKE" --quick --no-build --variants "$variants" --hierarchy-block 127.57.0.0/20 --out "$out" \
	>"$TEST_TMP/stdout" 2>"$TEST_TMP/stderr"
st=$?
check_eq "spike.sh --quick exit status" 0 "$st"
((st == 0)) || tail -n 20 "$TEST_TMP/stderr"
scenario_check_folder "$out" completed
check "stdout is the report's path" test -s "$(tail -n 1 "$TEST_TMP/stdout")"
check_eq "variants in run.json" "$variants" "$(jq -r '[.variants[].name] | join(",")' "$out/run.json")"
check "the default world, which sets its own loss" jq_true '.parameters.hierarchy | .world == "internet" and .loss == null' "$out/run.json"
check "calibration recorded" jq_true '.calibration.spike_rate_qps > 0' "$out/run.json"
check "calibrated event" grep -q '"calibrated"' "$out/events.jsonl"
check "machine context recorded" jq_true '.machine.cores > 0 and (.machine.thp | length > 0)' "$out/run.json"
check "query file statistics recorded" jq_true '.queryfile.stats != null' "$out/run.json"
unsampled=$(scenario_missing_samples "$out" "$variants")
check "every variant sampled on every interval" test -z "$unsampled"
[[ -z $unsampled ]] || head -5 <<<"$unsampled"
unanswered=$(scenario_spikes_unanswered "$out" "$variants")
check "every variant answered in every spike" test -z "$unanswered"
[[ -z $unanswered ]] || echo "$unanswered"
check "no variant crashed (stops the scenario asked for are no crash)" \
	jq_true '[.variants[].crash_count] | all(. == 0)' "$out/summary.json"
# the truth test on a real run: every number the report states is the figure it names
check "every number of the report agrees with summary.json (tests/reports/truth_check.py)" \
	python3 "$ALLOCSPIKE_SOURCE_DIR/tests/reports/truth_check.py" "$out"
spikes=$(awk -F, 'NR > 1 && $3 == "spike" { s[$4] = 1 } END { print length(s) }' "$out/timeline.csv")
check_eq "spikes in the timeline" 3 "$spikes"
finish
