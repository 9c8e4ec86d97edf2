# scenarios/lib/dry_run.sh - --dry-run: the run's plan printed, nothing started, built or written:
# the rows, the schedules, the expected length, and every process the run starts, made and printed
# by the controller (allocspike-run dry-run, docs/controller.md, "The dry run") with the builders the
# run starts them with. This passes what only the scenario knows: its CPUs, its schedule and its
# calibration's line (scenario_dry_plan), its expected length and its query file's need. What is
# known only once the run starts is in capitals: RUN (the run folder, unless --out), /CTL, QUERIES,
# PORT, ADDR and PID (a row's), R (a calibrated spike rate).

SC_DRY_NOTE= # a line scenario_dry_plan has printed before the schedule (the calibration's)

# experiment_dry_run : prints the plan of this run; exit status 0, or the controller's.
experiment_dry_run() {
	local up lg run=${OPT_out:-RUN} expected count words=() args=()
	sc_need up allocspike-upstream "for the simulated DNS hierarchy"
	sc_need lg allocspike-loadgen "to send the queries and sample the processes"
	# the scenario's schedules (scenario_dry_plan sets SC_SCHEDULE and SC_DRY_NOTE; without it:
	# decided at the start)
	! declare -F scenario_dry_plan >/dev/null || scenario_dry_plan
	[[ -z $SC_SCHEDULE ]] || args+=(--schedule "$SC_SCHEDULE")
	[[ -z $SC_DRY_NOTE ]] || args+=(--note "$SC_DRY_NOTE")
	# the whole run, then its calibration's part: the plan's duration is the measured run's
	expected=$(experiment_expected_s)
	[[ -z $expected ]] || args+=(--expected-s "${expected%% *}" --calibration-s "${expected##* }")
	[[ -n $OPT_queries$OPT_query_count ]] || count=$(scenario_query_count)
	[[ -z ${count:-} ]] || args+=(--queries-needed "$count")
	# spike.sh --hosts: the placement and place's command instead of the rows and the generator
	[[ -z ${OPT_hosts:-} ]] || args+=(--place "$(SC_RUN=$run spike_place_words)")
	# a --clients run gives the rows its test certificate (clients_prepare), made in RUN/tls
	clients_on && SC_TLS_DIR=$run/tls
	mapfile -t words < <(variants_rows_settings "$run/root.hints" PORT)
	"$OPTS_RUN" dry-run --scenario "$SC_PROG" --options "$OPTS_JSON" --given "$(hierarchy_given)" \
		--upstream "$up" --loadgen "$lg" --out "$run" --cpus-harness "${SC_CPUS_HARNESS:-}" \
		--cpus-resolvers "${SC_CPUS_RESOLVERS:-}" "${args[@]}" -- "${words[@]}"
}
