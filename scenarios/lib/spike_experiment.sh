# scenarios/lib/spike_experiment.sh - the spike experiment's options, query-file size and schedule,
# shared by the scenarios that run it (spike.sh, footprint.sh). Sourced after experiment.sh.

# spike_options : the option names the spike experiment takes (scenarios/lib/options.sh).
spike_options() {
	echo "$OPTS_EXPERIMENT" spikes spike_rate spike_multiple baseline_rate warmup_rate warmup_len baseline_len spike_len \
		recovery_len calibrate_len calibrate_max serial repeat
}

# spike_expected_s : about how many seconds one spike run with these options takes, then how many of
# them its calibration takes (0 with a given spike rate).
spike_expected_s() { schedule_make --spike-expected; }
