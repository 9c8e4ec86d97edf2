# scenarios/lib/calibrate.sh - the `auto` spike height: a short resperf-style ramp against every chosen
# variant (fresh processes, in RUN/calibration/, so the measured run starts from clean heaps); the
# capacity of each is the knee of its ramp (the highest one-second rate it still answered at 90 %);
# spikes go to the slowest variant's capacity times --spike-multiple, as the run's controller decides
# over the passes it runs (calibrate: docs/controller.md, "The calibration").
# --calibrate-max is where the ramp starts looking, not a ceiling: while the slowest variant still
# answers at the top, the ramp is run again to twice the top (calibration/extend-K/).

# At most this many extensions (each one ramp of --calibrate-len, the top doubling each time: 6000 qps
# becomes at most 48000), so a calibration lasts at most 1 + CALIBRATE_EXTENSIONS ramps.
CALIBRATE_EXTENSIONS=3

# calibrate_run RUN_DIR : sets OPT_spike_rate from the run's controller's `calibrate`
# (docs/controller.md, "The calibration"): the ramp (extended while needed) over the runnable
# variants, each pass a drive into its folder, the passes decided and recorded there.
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
