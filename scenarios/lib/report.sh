# scenarios/lib/report.sh - makes summary.json and report.html with allocspike-report.

# report_make RUN_DIR : runs the report; prints the report's path on stdout (nothing when it cannot).
report_make() {
	local dir=$1 rp out
	rp=$(sc_program allocspike-report)
	if [[ -z $rp ]]; then
		sc_say "allocspike-report is missing from $(sc_bin_dir): no report made (run it later: allocspike-report $dir)"
		return 1
	fi
	if ! out=$("$rp" "$dir" 2>>"$dir/logs/report.log"); then
		sc_say "allocspike-report failed (see $dir/logs/report.log)"
		return 1
	fi
	out=$(tail -n 1 <<<"$out")
	[[ -n $out ]] || out=$dir/report.html
	echo "$out"
}
