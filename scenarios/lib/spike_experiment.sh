# scenarios/lib/spike_experiment.sh - the spike experiment's options, query-file size and schedule,
# shared by the scenarios that run it (spike.sh, footprint.sh). Sourced after experiment.sh.

# spike_options : the option names the spike experiment takes (scenarios/lib/options.sh).
spike_options() {
	echo "$OPTS_EXPERIMENT" spikes spike_rate spike_multiple baseline_rate warmup_rate warmup_len baseline_len spike_len \
		recovery_len calibrate_len calibrate_max serial repeat
}

# spike_query_count : queries the file needs. With `auto`, it must cover the highest spike the
# calibration can ask for.
spike_query_count() {
	if [[ $OPT_spike_rate == auto ]]; then
		schedule_count "$(schedule_spike $(($(calibrate_highest_top) * OPT_spike_multiple_milli / 1000)))"
	else
		schedule_count "$(schedule_spike "$OPT_spike_rate")"
	fi
}

# One spike run's time beyond its schedules: starting the hierarchy, the query file and the variants,
# the calibration's own fresh processes, stopping everything and writing the report. Measured on two
# --quick runs of four variants on 2 cores (run.json "started" to report.html: 138 s and 144 s for
# 108 s of schedules), rounded up.
SPIKE_OVERHEAD_S=35

# spike_plan_s LOADGEN SCHEDULE : the schedule's length in whole seconds, as the generator reads it.
spike_plan_s() {
	local s
	s=$("$1" --plan --schedule "$2" | jq -r .duration_s) && [[ -n $s ]] || return 1
	LC_ALL=C printf '%.0f' "$s" # the generator writes a dot, whatever the user's locale
}

# spike_expected_s : about how many seconds one spike run with these options takes, then how many of
# them its calibration takes (0 with a given spike rate): the schedules as allocspike-loadgen --plan
# reads them (one calibration ramp; a ramp extended past --calibrate-max adds one more each time),
# plus SPIKE_OVERHEAD_S. Empty while allocspike-loadgen is not built.
spike_expected_s() {
	local loadgen run_s calibration_s=0
	loadgen=$(sc_program allocspike-loadgen)
	[[ -n $loadgen ]] || return 0
	# the spike height does not change the length: auto's stand-in is the ramp's top
	run_s=$(spike_plan_s "$loadgen" "$(schedule_spike "${OPT_spike_rate/auto/$OPT_calibrate_max}")") || return 0
	run_s=$((run_s + SPIKE_OVERHEAD_S))
	if [[ $OPT_spike_rate == auto ]]; then
		calibration_s=$(spike_plan_s "$loadgen" "$(schedule_calibrate "$OPT_calibrate_max")") || return 0
	fi
	echo "$((run_s + calibration_s)) $calibration_s"
}

# spike_dry_plan : --dry-run: the calibration it would run, and SC_SCHEDULE with R for the
# calibrated rate.
spike_dry_plan() {
	[[ $OPT_spike_rate != auto ]] || echo "calibration: $(schedule_calibrate "$OPT_calibrate_max") against" \
		"fresh processes, ramped again to twice the top while the slowest row still answers there (at" \
		"most $CALIBRATE_EXTENSIONS times); R = $OPT_spike_multiple x the slowest row's knee"
	SC_SCHEDULE=$(schedule_spike "${OPT_spike_rate/auto/R}")
}

# spike_plan : calibrates the spike height when it is `auto`, then sets the schedule.
spike_plan() {
	[[ $OPT_spike_rate != auto ]] || calibrate_run "$SC_RUN"
	SC_SCHEDULE=$(schedule_spike "$OPT_spike_rate")
	runjson_set .parameters.spike_rate_qps "$OPT_spike_rate"
}
