# scenarios/lib/loadgen.sh - runs the generator over the ready variants and waits for it, recording
# any variant that dies meanwhile (the run goes on with the others).

SC_LOADGEN_STATUS=

# loadgen_command DIR SCHEDULE NAMES... : LOADGEN_ARGV, the generator's command for one schedule
# against the named variants (their V_ADDR, V_PID, V_CONTROL); the launch and --dry-run both use it.
loadgen_command() {
	local dir=$1 schedule=$2 lg name spec client_args=()
	shift 2
	sc_need lg allocspike-loadgen "to send the queries and sample the processes"
	LOADGEN_ARGV=("$lg" --queries "$SC_QUERIES" --schedule "$schedule" --out "$dir" --interval-ms "$OPT_interval_ms")
	[[ -z $OPT_timeout_ms ]] || LOADGEN_ARGV+=(--timeout-ms "$OPT_timeout_ms")
	mapfile -t client_args < <(clients_loadgen_args) # --clients: lib/clients.sh
	LOADGEN_ARGV+=("${client_args[@]}")
	for name in "$@"; do
		# A wrapped variant (perf stat) is sampled through the resolver, not the wrapper.
		spec="name=$name,addr=${V_ADDR[$name]},pid=${V_SAMPLE_PID[$name]:-${V_PID[$name]}}"
		[[ -z ${V_CONTROL[$name]:-} ]] || spec+=",control=${V_CONTROL[$name]}"
		spec+=$(clients_target_key "$name")
		LOADGEN_ARGV+=(--target "$spec")
	done
	[[ -z $SC_UP_PID ]] || LOADGEN_ARGV+=(--watch "name=_upstream,pid=$SC_UP_PID")
}

# loadgen_run DIR SCHEDULE NAMES... : one schedule against the named (ready) variants; the generator
# writes DIR/timeline.csv and appends to DIR/events.jsonl. Sets SC_LOADGEN_STATUS.
loadgen_run() {
	local dir=$1 schedule=$2 name
	shift 2
	loadgen_command "$dir" "$schedule" "$@"
	local waitpids=()
	for name in "$@"; do waitpids+=("${V_PID[$name]}"); done
	local before=0
	[[ ! -f $dir/events.jsonl ]] || before=$(stat -c %s "$dir/events.jsonl")
	procs_start _loadgen "$dir/logs/loadgen.log" "$SC_CPUS_HARNESS" "${LOADGEN_ARGV[@]}"
	local lpid=$SC_LAST_PID
	loadgen_wait_start "$dir/events.jsonl" "$before" "$lpid"
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

# loadgen_wait_start EVENTS OFFSET PID : the schedule's clock is the generator's: it appends a
# `started` event (t_s slightly below 0) once its query file is read and the schedule begins. Waits
# for that line (bounded, while the generator runs) and sets the events' origin from it, so that the
# scenario's events before the start get the negative t_s of the same clock.
loadgen_wait_start() {
	local file=$1 offset=$2 pid=$3 i t=
	for ((i = 0; i < 6000; i++)); do
		# A line being appended may be incomplete: jq skips what does not parse (fromjson?).
		t=$(tail -c +$((offset + 1)) "$file" 2>/dev/null |
			jq -R 'fromjson? | select(.variant == "_loadgen" and .event == "started") | .t_s' | head -n 1)
		[[ -z $t ]] || break
		procs_running "$pid" || break
		sleep 0.01
	done
	events_origin_set "$(awk -v now="$(sc_now)" -v t="${t:-0}" 'BEGIN { printf "%.6f", now - t }')"
}
