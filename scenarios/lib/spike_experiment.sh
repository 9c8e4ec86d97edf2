# scenarios/lib/spike_experiment.sh - the spike experiment's options, query-file size and schedule,
# shared by the scenarios that run it (spike.sh, footprint.sh). Sourced after experiment.sh.

# spike_options : the option names the spike experiment takes (scenarios/lib/options.sh).
spike_options() {
	echo "$OPTS_EXPERIMENT" spikes spike_rate spike_multiple baseline_rate warmup_rate warmup_len baseline_len spike_len \
		recovery_len calibrate_len calibrate_max serial repeat
}

# At most this many extensions of the `auto` calibration's ramp (each one ramp of --calibrate-len,
# the top doubling each time: 6000 qps becomes at most 48000): at most 1 + CALIBRATE_EXTENSIONS ramps.
CALIBRATE_EXTENSIONS=3

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

# spike_place_words : with --hosts, drive's place= word (docs/controller.md, "spike.sh --hosts"):
# allocspike-run place's options, one a line: the hosts file and the token, the run's id (its
# folder's name), the agents reading twice per timeline interval (the report looks for a read in
# each), each row answering this host (where the generator sends from), our resolver's settings.
spike_place_words() {
	local id=${SC_RUN##*/} half=$((OPT_interval_ms / 2)) settings=()
	((half >= 10)) || half=10
	mapfile -t settings < <(variants_resolver_settings)
	printf '%s\n' --hosts "$OPT_hosts" --token-file "$OPT_token_file" --run "run-${id//[^A-Za-z0-9._-]/_}" \
		--interval "${half}ms" --timeline-interval "${OPT_interval_ms}ms" --allow-controller -- "${settings[@]}"
}

# calibrate_run RUN_DIR : the `auto` spike height into OPT_spike_rate, the run's controller's
# `calibrate` (docs/controller.md, "The calibration"): a resperf-style ramp over the runnable
# variants (fresh processes in RUN/calibration/, so the measured run starts from clean heaps), run
# again to twice the top while the slowest still answers there (calibration/extend-K/); spikes at
# the slowest one's knee times --spike-multiple.
calibrate_run() {
	local rate min slowest
	experiment_drive_words "${SC_RUNNABLE[@]}"
	procs_ask calibrate "$1" "$OPT_spike_multiple" "$CALIBRATE_EXTENSIONS" "$OPT_calibrate_max" \
		"${SC_DRIVE_WORDS[@]}" -- "${SC_RUNNABLE[@]}" || sc_die "the calibration of $1 decided nothing (see above)"
	read -r _ rate min slowest _ <<<"$REPLY" # rate RATE CAPACITY SLOWEST [at-limit]
	((min > 0)) || sc_die "calibration: variant $slowest answered nothing (see $1/calibration/logs/$slowest.log)"
	OPT_spike_rate=$rate
	sc_say "calibrated: slowest variant $slowest answers $min qps; spikes at $OPT_spike_rate qps"
}
