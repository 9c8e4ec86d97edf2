# scenarios/lib/plan.sh - how long a plan of several spike.sh runs takes (tune.sh, scale.sh), said
# before anything starts. One run's length is spike.sh's own estimate (spike_expected_s): the
# scenario asks spike.sh, which also judges the options passed on.

# plan_spike_s ARGS... : the seconds one spike.sh run with ARGS takes, then the part of them its
# calibration takes; status 2 when spike.sh refuses ARGS (it has said why).
plan_spike_s() {
	SC_PLAN_ONLY=1 bash "$SC_ROOT/scenarios/spike.sh" "$@" || return 2
}

# plan_spike_say RUNS CALIBRATING ARGS... : asks spike.sh how long a run with ARGS takes and says how
# long RUNS of them take when only the first CALIBRATING calibrate (the others are given their rate).
plan_spike_say() {
	local runs=$1 cal=$2 expected run_s cal_s
	shift 2
	expected=$(plan_spike_s "$@") || exit 2
	read -r run_s cal_s <<<"$expected"
	plan_say "$runs" "$cal" "$run_s" "${run_s:+$((run_s - cal_s))}"
}

# plan_say RUNS CALIBRATING CALIBRATING_S OTHER_S : one line on stderr: how many spike runs, how many
# of them calibrate first, and about how long they take in all.
plan_say() {
	local runs=$1 cal=$2 cal_s=$3 other_s=$4 each
	if ((cal == 0 || cal == runs)); then
		each=$((cal ? cal_s : other_s))
		sc_say "$runs spike runs of about $(sc_seconds_text "$each") each: about $(sc_seconds_text $((runs * each))) in all"
	else
		sc_say "$runs spike runs, $cal of them calibrating first (about $(sc_seconds_text "$cal_s")), the others" \
			"about $(sc_seconds_text "$other_s") each: about $(sc_seconds_text $((cal * cal_s + (runs - cal) * other_s))) in all"
	fi
}
