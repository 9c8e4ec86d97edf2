# scenarios/lib/spike_experiment.sh - the spike experiment's options, query-file size and schedule,
# shared by the scenarios that run it (spike.sh, footprint.sh). Sourced after experiment.sh.

# spike_options : the option names the spike experiment takes (scenarios/lib/options.sh).
spike_options() {
	echo "$OPTS_EXPERIMENT" spikes spike_rate spike_multiple baseline_rate warmup_rate warmup_len baseline_len spike_len \
		recovery_len calibrate_len calibrate_max serial repeat
}

# spike_query_count : queries the file needs. With `auto`, it must cover the highest spike the
# calibration can ask for.
spike_query_count() { schedule_make --spike-queries "$CALIBRATE_EXTENSIONS"; }

# spike_expected_s : about how many seconds one spike run with these options takes, then how many of
# them its calibration takes (0 with a given spike rate).
spike_expected_s() { schedule_make --spike-expected; }

# spike_dry_plan : --dry-run: the calibration it would run (SC_DRY_NOTE), and SC_SCHEDULE with R for
# the calibrated rate.
spike_dry_plan() {
	[[ $OPT_spike_rate != auto ]] || SC_DRY_NOTE="calibration: $(schedule_make calibrate "$OPT_calibrate_max") against \
fresh processes, ramped again to twice the top while the slowest row still answers there (at \
most $CALIBRATE_EXTENSIONS times); R = $OPT_spike_multiple x the slowest row's knee"
	SC_SCHEDULE=$(schedule_make spike "${OPT_spike_rate/auto/R}")
}

# spike_plan : calibrates the spike height when it is `auto`, then sets the schedule.
spike_plan() {
	[[ $OPT_spike_rate != auto ]] || calibrate_run "$SC_RUN"
	SC_SCHEDULE=$(schedule_make spike "$OPT_spike_rate")
	runjson_set .parameters.spike_rate_qps "$OPT_spike_rate"
}
