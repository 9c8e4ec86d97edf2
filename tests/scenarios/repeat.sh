#!/bin/bash
# tests/scenarios/repeat.sh - --repeat N (experiment_repeat): the repeats share one spike height. A
# stand-in scenario built on scenarios/lib/experiment.sh calibrates to a different rate on every call
# (as a real calibration does on a busy machine); only the first repeat may calibrate, the others must
# be given its rate, and each run.json records which repeat it is and where its rate came from. A
# stand-in allocspike-report records the comparison it is asked for. Seconds long, nothing started.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/scenarios/scenario_lib.sh"

bin=$TEST_TMP/bin
mkdir -p "$bin"
cat >"$bin/allocspike-report" <<EOF
#!/bin/bash
echo "\$*" >"$TEST_TMP/compare-args"
EOF
chmod +x "$bin/allocspike-report"
ln -s "$ALLOCSPIKE_BIN/allocspike-run" "$bin/" # it reads the options

# The stand-in scenario: the spike experiment's options and experiment_repeat, then in place of a run a
# run.json with the rate it ran at; "calibrating" gives 1000 more each time.
scenario_standin "$TEST_TMP/scenario.sh"
cat >>"$TEST_TMP/scenario.sh" <<EOF
((OPT_repeat == 1)) || experiment_repeat "\$@"
standin_conduct "\$@"
echo "\$*" >>"$TEST_TMP/calls"
procs_ask parameters "\$OPTS_JSON" "\$(sc_bin_dir)" \${ALLOCSPIKE_REPEAT:+"\$ALLOCSPIKE_REPEAT"}
# the default query file's length follows the rate (auto: the highest a calibration could ask for)
count=999999
if [[ \$OPT_spike_rate == auto ]]; then
	n=\$(cat "$TEST_TMP/calibrations" 2>/dev/null || echo 0)
	echo \$((n + 1)) >"$TEST_TMP/calibrations"
	OPT_spike_rate=\$((2000 + 1000 * n))
else
	count=\$((OPT_spike_rate * 100))
fi
runjson_set .parameters.spike_rate_qps "\$OPT_spike_rate"
runjson_set .queryfile "{\"generated\": {\"seed\": 1, \"count\": \${OPT_query_count:-\$count}}}"
EOF

export ALLOCSPIKE_BIN=$bin ALLOCSPIKE_STATE_DIR=$TEST_TMP/state
page=$(bash "$TEST_TMP/scenario.sh" --repeat 3 --quick --out "$TEST_TMP/x3" 2>"$TEST_TMP/err")
check_eq "--repeat 3 exits 0" 0 $?
check_eq "it prints the comparison's path" "$TEST_TMP/x3/compare.html" "$page"
check_eq "three runs" 3 "$(wc -l <"$TEST_TMP/calls")"
check_eq "one calibration" 1 "$(cat "$TEST_TMP/calibrations")"
rates=$(for i in 1 2 3; do jq -r .parameters.spike_rate_qps "$TEST_TMP/x3/run-$i/run.json"; done | paste -sd' ')
check_eq "every repeat spikes at the first's calibrated rate" "2000 2000 2000" "$rates"
check_eq "the later repeats are given it" "--spike-rate 2000" \
	"$(sed -n 3p "$TEST_TMP/calls" | grep -o -- '--spike-rate [0-9]*')"
check_eq "and replay the first's query file (its length)" "999999 999999 999999" \
	"$(for i in 1 2 3; do jq -r .queryfile.generated.count "$TEST_TMP/x3/run-$i/run.json"; done | paste -sd' ')"
check_eq "each run.json says which repeat it is and where its rate came from" \
	'{"run":1,"of":3,"spike_rate_from":null} {"run":2,"of":3,"spike_rate_from":"run-1"} {"run":3,"of":3,"spike_rate_from":"run-1"}' \
	"$(for i in 1 2 3; do jq -c .parameters.repeat "$TEST_TMP/x3/run-$i/run.json"; done | paste -sd' ')"
check_eq "the comparison is of the three runs" \
	"compare $TEST_TMP/x3/run-1 $TEST_TMP/x3/run-2 $TEST_TMP/x3/run-3 -o $TEST_TMP/x3/compare.html" \
	"$(cat "$TEST_TMP/compare-args")"

# A rate given by the user is every run's, and nothing calibrates.
rm -f "$TEST_TMP/calls" "$TEST_TMP/calibrations"
bash "$TEST_TMP/scenario.sh" --repeat 2 --spike-rate 1500 --out "$TEST_TMP/x2" >/dev/null 2>&1
check_eq "--repeat 2 --spike-rate 1500 exits 0" 0 $?
check "nothing calibrated" test ! -e "$TEST_TMP/calibrations"
check_eq "both runs at the given rate, recorded as given" "1500 null 1500 null" \
	"$(for i in 1 2; do jq -r '.parameters | "\(.spike_rate_qps) \(.repeat.spike_rate_from)"' "$TEST_TMP/x2/run-$i/run.json"; done | paste -sd' ')"
finish
