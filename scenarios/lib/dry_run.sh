# scenarios/lib/dry_run.sh - --dry-run: the run's plan printed, nothing started, built or written:
# the rows, the schedules, the expected length, and every process the run starts, made and printed
# by the controller (allocspike-run dry-run, docs/controller.md, "The dry run") with the builders the
# run starts them with, the schedule, the calibration's line and the query file's need as the run's
# steps make them. This passes what the scenario knows: its CPUs and its expected length. What is
# known only once the run starts is in capitals: RUN (the run folder, unless --out), /CTL, QUERIES,
# PORT, ADDR and PID (a row's), R (a calibrated spike rate).

# experiment_dry_run : prints the plan of this run; exit status 0, or the controller's.
experiment_dry_run() {
	local up lg run=${OPT_out:-RUN} expected args=()
	sc_need up allocspike-upstream "for the simulated DNS hierarchy"
	sc_need lg allocspike-loadgen "to send the queries and sample the processes"
	# the whole run, then its calibration's part: the plan's duration is the measured run's
	expected=$(experiment_expected_s)
	[[ -z $expected ]] || args+=(--expected-s "${expected%% *}" --calibration-s "${expected##* }")
	"$OPTS_RUN" dry-run --scenario "$SC_PROG" --options "$OPTS_JSON" --given "$(hierarchy_given)" \
		--root "$SC_ROOT" --bin "$(sc_bin_dir)" --out "$run" --cpus-harness "${SC_CPUS_HARNESS:-}" \
		--cpus-resolvers "${SC_CPUS_RESOLVERS:-}" "${args[@]}"
}
