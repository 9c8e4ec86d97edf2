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
		schedule_queries "$(awk -v c="$(calibrate_highest_top)" -v m="$OPT_spike_multiple" 'BEGIN { printf "%d", c * m }')"
	else
		schedule_queries "$OPT_spike_rate"
	fi
}

# spike_plan : calibrates the spike height when it is `auto`, then sets the schedule.
spike_plan() {
	[[ $OPT_spike_rate != auto ]] || calibrate_run "$SC_RUN"
	SC_SCHEDULE=$(schedule_spike "$OPT_spike_rate")
	runjson_update '.parameters.spike_rate_qps = $r' --argjson r "$OPT_spike_rate"
}
