# scenarios/lib/procs.sh - the requests to the run's controller. A scenario's steps run as the child
# of `allocspike-run conduct` (experiment_conduct; docs/controller.md, "A conducted run"), which
# began the run and starts, reaps and stops every process the steps ask for (each in its own process
# group tied to its life, recorded with its start time in processes.tsv before any signal); the
# steps name each process (a variant, _upstream, _loadgen, _querydata) and ask over the socket in
# $ALLOCSPIKE_CONTROL (docs/controller.md, "Requests"). Signals and the run's end are the
# controller's.

SC_PROCS_SOCKET=${ALLOCSPIKE_CONTROL:-}

# procs_ask REQUEST WORD... : the controller's answer in REPLY; fails when it is an error (said on
# stderr) or none came.
procs_ask() {
	[[ -n $SC_PROCS_SOCKET ]] || return 1
	REPLY=$("$(sc_bin_dir)/allocspike-run" ask "$SC_PROCS_SOCKET" "$@" </dev/null)
}
