# scenarios/lib/loadgen.sh - runs the generator over the ready variants and waits for it, recording
# any variant that dies meanwhile (the run goes on with the others).

SC_LOADGEN_STATUS=
SC_LOADGEN_ORIGIN= # the wall-clock second of the last schedule's t_s = 0 (the controller's origin)

# loadgen_command DIR SCHEDULE TARGET... : LOADGEN_ARGV, the generator's command for one schedule
# against the rows' --target words (row-targets); the launch and --dry-run both use it.
loadgen_command() {
	local dir=$1 schedule=$2 lg target client_args=()
	shift 2
	sc_need lg allocspike-loadgen "to send the queries and sample the processes"
	LOADGEN_ARGV=("$lg" --queries "$SC_QUERIES" --schedule "$schedule" --out "$dir" --interval-ms "$OPT_interval_ms")
	[[ -z $OPT_timeout_ms ]] || LOADGEN_ARGV+=(--timeout-ms "$OPT_timeout_ms")
	mapfile -t client_args < <(clients_loadgen_args) # --clients: lib/clients.sh
	LOADGEN_ARGV+=("${client_args[@]}")
	for target in "$@"; do LOADGEN_ARGV+=(--target "$target"); done
	[[ -z $SC_UP_PID ]] || LOADGEN_ARGV+=(--watch "name=_upstream,pid=$SC_UP_PID")
}

# loadgen_run DIR SCHEDULE NAMES... : one schedule against the named (ready) variants; the generator
# writes DIR/timeline.csv and appends to DIR/events.jsonl. Sets SC_LOADGEN_STATUS and SC_LOADGEN_ORIGIN.
loadgen_run() {
	local dir=$1 schedule=$2
	shift 2
	variant_targets "$@"
	loadgen_command "$dir" "$schedule" "${VARIANT_TARGETS[@]}"
	procs_start _loadgen "$dir/logs/loadgen.log" "$SC_CPUS_HARNESS" "${LOADGEN_ARGV[@]}"
	local lpid=$SC_LAST_PID
	# The schedule's clock is the generator's: the controller sets the events' origin from the
	# `started` line it appends (start_realtime) once its query file is read, so that the events
	# before the start get the negative t_s of the same clock.
	if events_origin_from _loadgen 60s && [[ $REPLY == ok\ [0-9]* ]]; then
		SC_LOADGEN_ORIGIN=${REPLY#ok }
	else # it said nothing: the controller counts from now
		SC_LOADGEN_ORIGIN=$EPOCHREALTIME
	fi
	sc_say "generator running (pid $lpid): $schedule"
	# Until the generator ends, recording any variant that dies meanwhile (the controller's waits are
	# bounded: asked again after each minute).
	local names=("$@") keep n
	SC_LOADGEN_STATUS=1
	while :; do
		if ! procs_wait_any 60s _loadgen "${names[@]}"; then
			[[ $REPLY == timeout ]] && continue
			break # the controller is gone, and the generator with it
		fi
		if [[ $SC_PROCS_EXIT_NAME == _loadgen ]]; then
			SC_LOADGEN_STATUS=$SC_PROCS_EXIT_STATUS
			break
		fi
		keep=()
		for n in "${names[@]}"; do [[ $n == "$SC_PROCS_EXIT_NAME" ]] || keep+=("$n"); done
		names=("${keep[@]}")
	done
}
