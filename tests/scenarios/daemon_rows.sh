#!/bin/bash
# tests/scenarios/daemon_rows.sh - spike.sh with daemon rows end to end: kresd-glibc (the glibc shim
# and the mallocx adapter under the live sampler: the allocator probe must show glibc serving malloc
# AND free) and named-1t (its env cell sets a definition knob, ALLOCSPIKE_DAEMON_THREADS, that is no
# allocator setting). Both must be judged ready by the served controller's row-ready, answer the
# spikes, and be recorded with their probe; no other test runs a daemon row through a scenario.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/scenarios/scenario_lib.sh"
scenario_require_programs
command -v kresd >/dev/null || skip "kresd (knot-resolver) is not installed"
command -v named >/dev/null || skip "named (bind9) is not installed"
[[ -e $ALLOCSPIKE_BUILD_DIR/lib/liballocspike-alloc-probe.so ]] || skip "the preload objects are not built"

variants=kresd-glibc,named-1t
out=$TEST_TMP/run
# shellcheck disable=SC2046
bash "$SPIKE" $(scenario_short_flags 127.57.192.0/20) --spike-rate 300 --variants "$variants" --out "$out" \
	>"$TEST_TMP/stdout" 2>"$TEST_TMP/stderr"
check_eq "spike.sh exit status" 0 "$?"
scenario_check_folder "$out" completed
for v in kresd-glibc named-1t; do
	check "$v was judged ready (not failed)" jq -se --arg v "$v" \
		'any(.[]; .variant == $v and .event == "ready") and all(.[]; .variant != $v or .event != "failed")' \
		"$out/events.jsonl"
	check "$v answered queries" jq_true --arg v "$v" '.variants[$v].answered > 0' "$out/summary.json"
done
check_eq "kresd-glibc's probe: glibc serves malloc, and free from the same object" "glibc true" \
	"$(jq -r '.variants[] | select(.name == "kresd-glibc") | "\(.version.allocator) \(.version.release_matches_malloc)"' "$out/run.json")"
check_eq "named-1t's probe: its own allocator (jemalloc)" "jemalloc" \
	"$(jq -r '.variants[] | select(.name == "named-1t") | .version.allocator' "$out/run.json")"
((_test_failures == 0)) || { echo "--- stderr"; tail -30 "$TEST_TMP/stderr"; }
finish
