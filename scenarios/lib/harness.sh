# scenarios/lib/harness.sh - tells a saturated harness from a saturated resolver: `allocspike-report
# harness` reads the harness rows' CPU in timeline.csv per one-second window; its harness_saturated
# events (one per stretch of windows where the hierarchy was saturated, by the rule of
# docs/run-folder.md; the generator records its own) go to events.jsonl, and the CPU share (mean and
# maximum) of both to run.json.

# harness_scan RUN_DIR : appends the events and records parameters.harness_cpu in run.json.
harness_scan() {
	local dir=$1 rp out line
	[[ -s $dir/timeline.csv ]] || return 0
	rp=$(sc_program allocspike-report)
	[[ -n $rp ]] || {
		sc_say "allocspike-report is missing from $(sc_bin_dir): the harness's CPU was not checked"
		return 0
	}
	out=$("$rp" harness "$dir") || {
		sc_say "allocspike-report harness failed (its message is above): the harness's CPU was not checked"
		return 0
	}
	# Written by the C writer with its own t_s (a window's start): appended as they are.
	jq -c '.saturated[]' <<<"$out" >>"$dir/events.jsonl"
	while read -r line; do
		sc_say "harness saturated: $line"
	done < <(jq -r '.saturated[] | "\(.variant) used \(.cpu_share) of a core for \(.duration_s)s from t=\(.t_s)s"' <<<"$out")
	runjson_update '.parameters.harness_cpu = $s' --argjson s "$(jq -c .cpu <<<"$out")"
}
