# scenarios/lib/queries.sh - the query file a run replays: the user's, or the embedded default made by
# allocspike-querydata generate from a fixed seed (cached, since the same seed gives the same file).

SC_QUERIES=

# queries_prepare RUN_DIR COUNT : sets SC_QUERIES and records the file and its statistics in run.json;
# allocspike-querydata runs as a process of the run (_querydata, procs_run_aux).
queries_prepare() {
	local dir=$1 count=$2 qd generated=null
	qd=$(sc_program allocspike-querydata)
	if [[ -n $OPT_queries ]]; then
		SC_QUERIES=$(realpath "$OPT_queries")
	else
		[[ -n $qd ]] || sc_die "allocspike-querydata is missing from $(sc_bin_dir) (needed to generate the default query file); build it or pass --queries FILE"
		local cache=$SC_ROOT/.cache
		mkdir -p "$cache" 2>/dev/null && [[ -w $cache ]] || cache=$dir
		# The generator's own digest is in the name: a changed model never reuses an old file.
		local model
		model=$(sha256sum "$qd" | cut -c1-12)
		# the flat world asks its own mix of names under its TLDs (allocspike-querydata --world flat)
		local world=() kind=''
		if [[ $OPT_world == flat ]]; then
			world=(--world flat --flat-tlds "$OPT_flat_tlds")
			kind=flat$OPT_flat_tlds-
		fi
		SC_QUERIES=$cache/queries-${kind}seed$OPT_query_seed-$count-$model.txt
		if [[ ! -s $SC_QUERIES ]]; then
			sc_say "generating $count queries (seed $OPT_query_seed${kind:+, the flat world mix}) into $SC_QUERIES"
			# --out writes beside, then renames: a run stopped midway leaves no half file under the
			# cache's name. At most 10 minutes (2 million queries, the most a schedule asks for, take
			# about a second).
			procs_run_aux _querydata "$dir/logs/querydata.log" 600s "$qd" generate --seed "$OPT_query_seed" \
				--count "$count" "${world[@]}" --out "$SC_QUERIES" ||
				sc_die "allocspike-querydata generate failed (see $dir/logs/querydata.log)"
		fi
		generated=$(jq -n --argjson seed "$OPT_query_seed" --argjson count "$count" --arg mix "${kind:+flat}" \
			'{seed: $seed, count: $count} + (if $mix == "" then {} else {mix: $mix} end)')
	fi
	local stats=null
	if [[ -n $qd ]]; then
		# At most 10 minutes: a --queries file of the user's may be far longer, and compressed.
		procs_run_aux _querydata "$dir/logs/querydata.log" 600s "$qd" stats --json --out "$dir/queryfile-stats.json" "$SC_QUERIES"
		stats=$(jq -c . "$dir/queryfile-stats.json" 2>/dev/null) || stats=null
		[[ -n $stats ]] || stats=null
	fi
	runjson_fields .queryfile "path=$SC_QUERIES" "generated:=$generated" "stats:=$stats"
}
