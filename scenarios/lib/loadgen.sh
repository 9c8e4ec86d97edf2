# scenarios/lib/loadgen.sh - runs the generator over the ready variants and waits for it, recording
# any variant that dies meanwhile (the run goes on with the others).

SC_LOADGEN_STATUS=

# loadgen_run DIR SCHEDULE NAMES... : one schedule against the named (ready) variants; the generator
# writes DIR/timeline.csv and appends to DIR/events.jsonl. Sets SC_LOADGEN_STATUS.
loadgen_run() {
	local dir=$1 schedule=$2 lg name spec
	shift 2
	lg=$(sc_require allocspike-loadgen "to send the queries and sample the processes")
	local args=(--queries "$SC_QUERIES" --schedule "$schedule" --out "$dir" --interval-ms "$OPT_interval_ms")
	[[ -z $OPT_timeout_ms ]] || args+=(--timeout-ms "$OPT_timeout_ms")
	local waitpids=()
	for name in "$@"; do
		# A wrapped variant (perf stat) is sampled through the resolver, not the wrapper.
		spec="name=$name,addr=${V_ADDR[$name]},pid=${V_SAMPLE_PID[$name]:-${V_PID[$name]}}"
		[[ -z ${V_CONTROL[$name]:-} ]] || spec+=",control=${V_CONTROL[$name]}"
		args+=(--target "$spec")
		waitpids+=("${V_PID[$name]}")
	done
	[[ -z $SC_UP_PID ]] || args+=(--watch "name=_upstream,pid=$SC_UP_PID")
	# The schedule's clock starts with the generator; pending events get their negative t_s now.
	events_origin_set "$(sc_now)"
	procs_start _loadgen "$dir/logs/loadgen.log" "$SC_CPUS_HARNESS" "$lg" "${args[@]}"
	local lpid=$SC_LAST_PID
	sc_say "generator running (pid $lpid): $schedule"
	local done_pid st
	while :; do
		done_pid=
		st=0
		wait -n -p done_pid "$lpid" "${waitpids[@]}" 2>/dev/null || st=$?
		if [[ -z $done_pid ]]; then
			# Nothing left to wait for, or the wait was cut short: look again.
			if ! procs_running "$lpid"; then
				wait "$lpid" 2>/dev/null
				st=$?
				procs_record_exit "$lpid" "$st" false
				break
			fi
			sleep 0.2
			continue
		fi
		if [[ $done_pid == "$lpid" ]]; then
			procs_record_exit "$lpid" "$st" false
			break
		fi
		procs_record_exit "$done_pid" "$st" false
		local keep=() p
		for p in "${waitpids[@]}"; do [[ $p == "$done_pid" ]] || keep+=("$p"); done
		waitpids=("${keep[@]}")
	done
	SC_LOADGEN_STATUS=$st
}
