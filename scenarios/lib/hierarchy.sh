# scenarios/lib/hierarchy.sh - starts the simulated DNS hierarchy (allocspike-upstream) for a run.

SC_UP_PID=
SC_UP_PORT=
SC_ROOT_HINTS=

# hierarchy_sets OPTION : true when the run passes OPTION (latency_ms, loss) to the hierarchy: always in
# the lan and flat worlds, whose values they are (options.sh); in the other worlds, which set their
# own, only when given.
hierarchy_sets() {
	[[ $OPT_world == lan || $OPT_world == flat || -n ${OPT_SET[$1]:-} ]]
}

# hierarchy_world_args : the hierarchy's world, latency and loss options for this run, one a line.
hierarchy_world_args() {
	printf '%s\n' --world "$OPT_world"
	[[ $OPT_world != flat ]] || printf '%s\n' --flat-tlds "$OPT_flat_tlds"
	if hierarchy_sets latency_ms; then
		if ((${OPT_latency_ms%%,*} == 0)); then
			echo --no-latency
		else
			printf '%s\n' --latency-ms "$OPT_latency_ms"
		fi
	fi
	if hierarchy_sets loss; then
		if sc_is_zero "$OPT_loss"; then
			echo --no-loss
		else
			printf '%s\n' --loss "$OPT_loss"
		fi
	fi
}

# hierarchy_command DIR PORT : HIERARCHY_ARGV, the hierarchy's command for a run in DIR on PORT (the
# launch and --dry-run both use it); sets SC_ROOT_HINTS.
hierarchy_command() {
	local dir=$1 port=$2 up
	sc_need up allocspike-upstream "for the simulated DNS hierarchy"
	SC_ROOT_HINTS=$dir/root.hints
	HIERARCHY_ARGV=("$up" --hierarchy-block "$OPT_hierarchy_block" --port "$port" --seed "$OPT_seed"
		--root-hints "$SC_ROOT_HINTS" --control "$SC_CTL_DIR/upstream.sock"
		--applied-summary "$dir/upstream-applied-summary.tsv" --stats-file "$dir/upstream-stats.json"
		--ready-file "$SC_CTL_DIR/upstream.ready")
	# the per-query log is ~20 MB gzipped for a quick run: only on request
	if ((OPT_applied_log)); then
		HIERARCHY_ARGV+=(--applied-log "$dir/upstream-applied.log")
	fi
	mapfile -t -O "${#HIERARCHY_ARGV[@]}" HIERARCHY_ARGV < <(hierarchy_world_args)
}

# hierarchy_start DIR CPUS PORT : starts the hierarchy on PORT (0: any free port), waits for it,
# writes its root hints to DIR/root.hints; sets SC_UP_PID, SC_UP_PORT, SC_ROOT_HINTS.
hierarchy_start() {
	local dir=$1 cpus=$2 port=$3 addr
	hierarchy_command "$dir" "$port"
	rm -f "$SC_CTL_DIR/upstream.ready"
	procs_start _upstream "$dir/logs/upstream.log" "$cpus" "${HIERARCHY_ARGV[@]}"
	SC_UP_PID=$SC_LAST_PID
	addr=$(procs_wait_ready _upstream "$SC_CTL_DIR/upstream.ready" 30) ||
		sc_die "the simulated hierarchy did not start (see $dir/logs/upstream.log)"
	SC_UP_PORT=${addr##*:}
	[[ -s $SC_ROOT_HINTS ]] || sc_die "the hierarchy wrote no root hints to $SC_ROOT_HINTS"
	events_add _upstream ready "addr=$addr" "pid:=$SC_UP_PID"
}
