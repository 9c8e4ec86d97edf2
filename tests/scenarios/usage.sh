#!/bin/bash
# tests/scenarios/usage.sh - bad flags get a usage message and status 2; --help lists the options.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"

for s in spike ramp steady cpu; do
	script=$ALLOCSPIKE_SOURCE_DIR/scenarios/$s.sh
	[[ -f $script ]] || continue
	out=$(bash "$script" --help 2>&1)
	check_eq "$s --help status" 0 $?
	check "$s --help lists --variants" grep -q -- '--variants' <<<"$out"
	world=internet
	[[ $s != cpu ]] || world=lan # the same work for every variant: one latency, no loss
	check "$s --help: --world, default $world" grep -qE -- "--world NAME .*\(default: $world\)" <<<"$(tr -s ' \n' ' ' <<<"$out")"
	out=$(bash "$script" --no-such-flag 2>&1)
	check_eq "$s bad flag status" 2 $?
	check "$s bad flag is named" grep -q -- "--no-such-flag" <<<"$out"
	check "$s bad flag prints usage" grep -q 'usage:' <<<"$out"
done
out=$(bash "$ALLOCSPIKE_SOURCE_DIR/scenarios/spike.sh" --variants no-such-variant --out "$TEST_TMP/run" 2>&1)
check_eq "unknown variant status" 2 $?
check "unknown variant is named" grep -q "no-such-variant" <<<"$out"
check "no run folder for bad flags" test ! -e "$TEST_TMP/run/run.json"
for bad in "--loss 1.5" "--spike-len 5x" "--spike-rate fast" "--memory-layout tree" "--cache-size lots" \
	"--latency-ms -3" "--cpu-placement 0-1" "--spikes" "--repeat 0" "--spike-len 20" "--count 5" "--rate 100" \
	"--world moon" "--flat-tlds 3" "--world flat --flat-tlds 0" "--world flat --flat-tlds x"; do
	# shellcheck disable=SC2086 # the flag and its value are two words
	out=$(bash "$ALLOCSPIKE_SOURCE_DIR/scenarios/spike.sh" $bad 2>&1)
	check_eq "'$bad' status" 2 $?
	[[ $bad != *world* && $bad != *flat* ]] || check "'$bad' names the option" grep -qE -- '--(world|flat-tlds)' <<<"$out"
done

# spike.sh's own estimate of a run (what it says at its start, and what tune.sh and scale.sh sum):
# the seconds of the run, then of its calibration; none with a given rate, more with more spikes.
if [[ -x $ALLOCSPIKE_BIN/allocspike-loadgen ]]; then
	spike_s() { SC_PLAN_ONLY=1 bash "$ALLOCSPIKE_SOURCE_DIR/scenarios/spike.sh" "$@"; }
	read -r run_s cal_s <<<"$(spike_s --quick)"
	check "the estimate: a run and its calibration" test "$run_s" -gt "$cal_s" -a "$cal_s" -gt 0
	check_eq "a given spike rate: no calibration" "$((run_s - cal_s)) 0" "$(spike_s --quick --spike-rate 3000)"
	check "more spikes take longer" test "$(spike_s --quick --spikes 5 | cut -d' ' -f1)" -gt "$run_s"
	check "a longer recovery takes longer" test "$(spike_s --quick --recovery-len 1m | cut -d' ' -f1)" -gt "$run_s"
fi

# --dry-run: the plan through the controller, nothing started or written
if [[ -x $ALLOCSPIKE_BIN/allocspike-run && -x $ALLOCSPIKE_BIN/allocspike-resolver-glibc ]]; then
	dry() { bash "$ALLOCSPIKE_SOURCE_DIR/scenarios/spike.sh" --no-build --dry-run "$@" 2>&1; }
	out=$(dry --variants glibc,musl --out "$TEST_TMP/dry")
	check_eq "--dry-run: status" 0 $?
	check "--dry-run: no run folder" test ! -e "$TEST_TMP/dry"
	check "--dry-run: no process left" test -z "$(pgrep -f -- "$TEST_TMP/dry" || true)"
	for p in _upstream glibc musl _loadgen; do
		check "--dry-run: the plan starts $p" grep -qE "^process [0-9]+: $p( |$)" <<<"$out"
	done
	check "--dry-run: the calibration and R" grep -q "R = 0.8 x the slowest row's knee" <<<"$out"
	check "--dry-run: the schedule with R" grep -q "schedule: warmup:60s@600,.*spike:20s@R" <<<"$out"
	check "--dry-run: the expected length" grep -q "expected: about 10 min" <<<"$out"
	check "--dry-run: the resolver's command, its port to come" grep -q -- "--upstream-port PORT" <<<"$out"
	check "--dry-run: the generator's targets, their addresses to come" grep -q -- "name=glibc,addr=ADDR" <<<"$out"
	out=$(dry --variants glibc --spike-rate 2000 --quick)
	check_eq "--dry-run, a given rate: no calibration" 0 "$(grep -c "calibration:" <<<"$out")"
	check "--dry-run, a given rate: the schedule has it" grep -q "spike:8s@2000" <<<"$out"
	out=$(dry --variants glibc --spike-rate 2000 --clients)
	check "--dry-run --clients: the row serves DoT with the run's certificate" \
		grep -q -- "--tls-listen 127.0.0.1:0 --tls-cert [^ ]*/tls/server.pem --tls-key [^ ]*/tls/server.key" <<<"$out"
	check "--dry-run --clients: the generator's DoT target to come" grep -q -- "name=glibc,addr=ADDR,.*,dot=DOT" <<<"$out"
	out=$(dry --variants glibc --repeat 3)
	check "--dry-run --repeat: says so" grep -q "repeats: 3 runs" <<<"$out"
fi
finish
