#!/bin/bash
# tests/scenarios/calibrate_fast.sh - the calibration finds a knee above 6000 qps (the old fixed top
# of its ramp) when the variant has one: the bench responder (each query comes back at once as its
# own answer) stands for a fast variant (a stand-in row ready at its address), the real generator
# ramps against it as the run's controller's `calibrate` drives it, extending the ramp past
# --calibrate-max 6000 until the answered share falls or the bound is reached.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/scenarios/scenario_lib.sh"
SC_PROG=calibrate_fast
source "$ALLOCSPIKE_SOURCE_DIR/scenarios/lib/experiment.sh"
opts_defaults
for p in allocspike-bench-responder allocspike-loadgen allocspike-report allocspike-run; do
	[[ -x $ALLOCSPIKE_BIN/$p ]] || skip "$p is not built yet"
done

start_server responder "$TEST_TMP/responder.log" "$ALLOCSPIKE_BIN/allocspike-bench-responder" 127.0.0.1:0 \
	>"$TEST_TMP/addr" || exit 1
addr=$(cat "$TEST_TMP/addr")
responder_pid=${_test_pids[-1]}
for ((i = 0; i < 2000; i++)); do echo "name$i.example. A"; done >"$TEST_TMP/queries.txt"

# In place of the variants: a stand-in row ready at the responder's address, the real generator
# driven against it by the run's controller.
stand=$TEST_TMP/stand
mkdir -p "$stand"
echo "$addr" >"$stand/addr-fast"

run=$TEST_TMP/run
served_begin calibrate_fast "$run" # its controller writes run.json and the events
procs_ask runjson-set .parameters.options "$OPTS_JSON" # the ramp's schedule is made from them
procs_ask runjson-set .variants '[{"name":"fast"}]'
standin_calibrate "$run" "$stand" "$ALLOCSPIKE_BIN/allocspike-loadgen" "$TEST_TMP/queries.txt" fast
served_end
knee=$(jq '.calibration.capacity_of_slowest_qps' "$run/run.json")
echo "ramps: $(jq -r '[.calibration.passes[].schedule] | join(" ")' "$run/run.json")"
check "knee above 6000 qps: $knee" test "$knee" -gt 6000
check "the ramp was extended" jq_true '.calibration.passes | length >= 2' "$run/run.json"
check_eq "spikes at the knee x 1.2" "$(awk -v k="$knee" 'BEGIN { printf "%d", k * 1.2 }')" "${CALIBRATED:-}"
check "a calibrated event" jq_true -s 'map(select(.event == "calibrated")) | length == 1' "$run/events.jsonl"
finish
