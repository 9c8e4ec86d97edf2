# scenarios/lib/queries.sh - the query file a run replays: the user's, or the embedded default made by
# allocspike-querydata generate from a fixed seed (cached, since the same seed gives the same file).
# The run's controller chooses it from the run's options, generates it and takes its statistics
# (_querydata, a process of the run) and records it (docs/controller.md, "The query file").

SC_QUERIES=

# queries_prepare RUN_DIR COUNT : sets SC_QUERIES (COUNT queries for the default file) and records the
# file and its statistics in run.json.
queries_prepare() {
	procs_ask queries "$2" "$SC_ROOT/.cache" "$(sc_bin_dir)/allocspike-querydata" ||
		sc_die "the query file was not made (see $1/logs/querydata.log)"
	[[ $REPLY == ok\ * ]] || sc_die "${REPLY#failed }"
	SC_QUERIES=${REPLY#ok }
}
