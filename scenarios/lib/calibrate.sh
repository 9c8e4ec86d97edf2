# scenarios/lib/calibrate.sh - the `auto` spike height: a short resperf-style ramp against every chosen
# variant (fresh processes, in RUN/calibration/, so the measured run starts from clean heaps); the
# capacity of each is the knee of its ramp (the highest one-second rate it still answered at 90 %);
# spikes go to the slowest variant's capacity times --spike-multiple, as the run's controller decides
# over the passes (calibration-step: docs/controller.md, "The calibration").
# --calibrate-max is where the ramp starts looking, not a ceiling: while the slowest variant still
# answers at the top, the ramp is run again to twice the top (calibration/extend-K/).

# At most this many extensions (each one ramp of --calibrate-len, the top doubling each time: 6000 qps
# becomes at most 48000), so a calibration lasts at most 1 + CALIBRATE_EXTENSIONS ramps.
CALIBRATE_EXTENSIONS=3

# calibrate_pass DIR TOP NAMES... : one ramp to TOP against the named variants (fresh processes) in
# DIR. (Not in $(...): the processes it starts are this shell's.)
calibrate_pass() {
	local dir=$1 top=$2 schedule
	shift 2
	mkdir -p "$dir/logs"
	schedule=$(schedule_make calibrate "$top")
	sc_say "calibrating the spike height: $schedule"
	events_push "$dir/events.jsonl"
	local SC_RUNNABLE=("$@") # experiment_drive runs these
	experiment_drive "$dir" "$schedule"
	events_pop
	[[ -s $dir/timeline.csv ]] || sc_die "calibration wrote no timeline ($dir/timeline.csv)"
}

# calibrate_run RUN_DIR : runs the ramp (extended while needed), sets OPT_spike_rate; the run's
# controller decides after each pass and records the calibration (calibration-step).
calibrate_run() {
	local top=$OPT_calibrate_max folder=calibration k rate min slowest limit
	local names=("${SC_RUNNABLE[@]}")
	for ((k = 0; ; k++)); do
		((k == 0)) || folder=calibration/extend-$k
		calibrate_pass "$1/$folder" "$top" "${names[@]}"
		procs_ask calibration-step "$1" "$OPT_spike_multiple" "$CALIBRATE_EXTENSIONS" "$top" "$folder" \
			"$(schedule_make calibrate "$top")" || sc_die "the calibration of $1 decided nothing"
		[[ $REPLY == extend\ * ]] || break
		read -r -a names <<<"${REPLY#extend }"
		top=$((top * 2))
		sc_say "calibration: ${names[*]} still answered at the top; ramping again to $top qps"
	done
	read -r _ rate min slowest limit <<<"$REPLY" # rate RATE CAPACITY SLOWEST [at-limit]
	[[ -z $limit ]] ||
		sc_say "calibration: every variant still answered at $top qps after $k extensions; its capacity is at least that"
	((min > 0)) || sc_die "calibration: variant $slowest answered nothing (see $1/calibration/logs/$slowest.log)"
	OPT_spike_rate=$rate
	sc_say "calibrated: slowest variant $slowest answers $min qps; spikes at $OPT_spike_rate qps"
}
