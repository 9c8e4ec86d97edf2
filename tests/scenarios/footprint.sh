#!/bin/bash
# tests/scenarios/footprint.sh - scenarios/footprint.sh end to end on one dynamic build: the live
# sampler preloaded through the row's wrapper, its poller a process of the run started once the
# row answers and stopped after the schedule, then footprint.json and footprint.md with the row's
# spikes. (footprint.sh was once broken on main for weeks with nothing to say so.)
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/scenarios/scenario_lib.sh"
scenario_require_programs
[[ -f $ALLOCSPIKE_BIN/../lib/liballocspike-live-sampler.so ]] || skip "the live sampler is not built"
variant=$(scenario_built_variants 1)
[[ -n $variant ]] || skip "no build row is built"
[[ $variant != musl ]] || skip "the first built row is the static musl build, which takes no preload"

out=$TEST_TMP/run
# shellcheck disable=SC2046
bash "$ALLOCSPIKE_SOURCE_DIR/scenarios/footprint.sh" $(scenario_short_flags 127.57.144.0/20) \
	--variants "$variant" --out "$out" >"$TEST_TMP/stdout" 2>"$TEST_TMP/stderr"
st=$?
check_eq "footprint.sh exit status" 0 "$st" || tail -20 "$TEST_TMP/stderr"
scenario_check_folder "$out" completed
check "it prints footprint.md's path" grep -qxF "$out/footprint.md" "$TEST_TMP/stdout"
check "and the report's" grep -qxF "$out/report.html" "$TEST_TMP/stdout"
check "the poller ran as a process of the run, and was asked to stop" jq -se \
	'any(.[]; .variant == "_footprint_poll" and .event == "exited" and .requested == true)' "$out/events.jsonl"
check "the sampler's size classes were polled" test -n "$(ls "$out/sizes" 2>/dev/null)"
check "footprint.json has the row's two spikes" jq_true --arg v "$variant" '.[$v].spikes | length == 2' \
	"$out/footprint.json"
check "bytes per request in flight at the peak" jq_true --arg v "$variant" \
	'.[$v].spikes | all(.inflight_peak > 0 and (.bytes_per_req_rise | type) == "number")' "$out/footprint.json"
check "footprint.md names the row" grep -q "^| $variant |" "$out/footprint.md"
check_eq "nothing of the run is left" "" "$(scenario_leftovers "$out")"
finish
