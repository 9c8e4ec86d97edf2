# scenarios/lib/loadgen.sh - the generator over the ready variants: the run's controller makes its
# command from the run's options and the rows' targets, runs it and waits for it, recording any
# variant that dies meanwhile (the run goes on with the others): docs/controller.md, "The generator".

SC_LOADGEN_STATUS=
SC_LOADGEN_ORIGIN= # the wall-clock second of the last schedule's t_s = 0 (the controller's origin)

# loadgen_run DIR SCHEDULE NAMES... : one schedule against the named (ready) variants, run by the
# controller (generate), which sets the events' origin from the generator's `started` line and
# answers once it exits; the generator writes DIR/timeline.csv and appends to DIR/events.jsonl.
# Sets SC_LOADGEN_STATUS (its status as bash's $?; 1 when it did not run) and SC_LOADGEN_ORIGIN.
loadgen_run() {
	local dir=$1 schedule=$2 lg
	shift 2
	sc_need lg allocspike-loadgen "to send the queries and sample the processes"
	sc_say "generator running: $schedule"
	SC_LOADGEN_STATUS=1
	procs_ask generate "$lg" "$dir" "$schedule" "$SC_QUERIES" "$SC_CPUS_HARNESS" "$@" || return 0
	read -r _ SC_LOADGEN_ORIGIN SC_LOADGEN_STATUS <<<"$REPLY"
}
