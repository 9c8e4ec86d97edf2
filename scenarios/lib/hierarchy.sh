# scenarios/lib/hierarchy.sh - the simulated DNS hierarchy (allocspike-upstream) of a run. The run's
# controller makes its command from the run's options, starts it, waits for it and records it
# (docs/controller.md, "The hierarchy"); --dry-run prints the same command (allocspike-run dry-run).

SC_UP_PID=
SC_UP_PORT=
SC_ROOT_HINTS=

# hierarchy_given : the options the user gave, comma-separated: in the internet and hostile worlds,
# which set their own, the hierarchy is given the run's latency and loss only when given.
hierarchy_given() {
	local IFS=,
	echo "${!OPT_SET[*]}"
}

# hierarchy_start DIR CPUS PORT : the controller starts the hierarchy of the run in DIR on PORT (0:
# any free port), waits for it and records it; sets SC_UP_PORT, SC_UP_PID, SC_ROOT_HINTS.
hierarchy_start() {
	local up
	sc_need up allocspike-upstream "for the simulated DNS hierarchy"
	procs_ask hierarchy "$up" "$2" "$3" "given=$(hierarchy_given)" ||
		sc_die "the simulated hierarchy did not start (see $1/logs/upstream.log)"
	read -r _ SC_UP_PORT SC_UP_PID SC_ROOT_HINTS <<<"$REPLY"
}
