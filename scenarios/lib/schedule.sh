# scenarios/lib/schedule.sh - the schedules a scenario runs (docs/schedule.md) and what they cost,
# made by the controller from the run's options (allocspike-run schedule,
# controller/scenario_schedule.c).

# schedule_make KIND ARG [--count | --seconds] : the schedule (spike RATE, calibrate TOP, ramp TOP,
# steady RATE), or its queries or whole seconds; schedule_make --spike-expected | --spike-queries
# EXTENSIONS : a spike run's seconds and its calibration's, the queries its file must hold.
schedule_make() { "$OPTS_RUN" schedule --options "$OPTS_JSON" "$@"; }

# schedule_round_count N : a query-file size for N queries (allocspike-run schedule --round-count);
# COUNT for an N not known.
schedule_round_count() {
	if [[ -n $1 ]]; then "$OPTS_RUN" schedule --round-count "$1"; else echo COUNT; fi
}
