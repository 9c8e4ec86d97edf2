# scenarios/lib/warmup.sh - checks that the warm-up brought every cache to a steady state before the
# spikes that count (DESIGN.md, "the knobs that matter"): at the end of the warm-up a variant's cache
# is at 90 % of its size cap or more, or its entry count grew less than 2 % over the warm-up's last
# fifth (entries expiring as fast as they arrive). Recorded in run.json's "warmup"; a variant that
# is still filling gets a `warmup_not_steady` event, and the report can say so.

# warmup_check RUN_DIR : reads timeline.csv (rows of phase warmup with resolver stats).
warmup_check() {
	local dir=$1 cap out result='{}' v bytes entries growth steady
	[[ -s $dir/timeline.csv ]] || return 0
	cap=$(sc_size_bytes "$OPT_cache_size")
	out=$(awk -F, '
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$col["phase"] == "warmup" && $col["cache_bytes"] != "" && $col["variant"] !~ /^_/ {
		v = $col["variant"]
		if (!(v in seen)) { seen[v] = 1; order[++n] = v }
		k = ++cnt[v]; t[v, k] = $col["t_s"]; e[v, k] = $col["cache_entries"]; b[v, k] = $col["cache_bytes"]
	}
	END {
		for (i = 1; i <= n; i++) {
			v = order[i]; last = cnt[v]
			# The first row at or after 80 % of the warm-up.
			from = last
			for (k = 1; k <= last; k++) if (t[v, k] >= 0.8 * t[v, last]) { from = k; break }
			growth = e[v, from] > 0 ? (e[v, last] - e[v, from]) / e[v, from] : 1
			printf "%s %d %d %.4f\n", v, b[v, last], e[v, last], growth
		}
	}' "$dir/timeline.csv")
	while read -r v bytes entries growth; do
		[[ -n $v ]] || continue
		steady=$(awk -v b="$bytes" -v c="$cap" -v g="$growth" 'BEGIN { print (b >= 0.9 * c || g < 0.02) ? "true" : "false" }')
		result=$(jq -c --arg v "$v" --argjson b "$bytes" --argjson e "$entries" --argjson g "$growth" \
			--argjson c "$cap" --argjson s "$steady" \
			'.[$v] = {cache_bytes_end: $b, cache_entries_end: $e, cap_bytes: $c, share_of_cap: ($b / $c),
			          entries_growth_last_fifth: $g, steady: $s}' <<<"$result")
		if [[ $steady != true ]]; then
			sc_say "warm-up: $v's cache was still filling ($bytes of $cap bytes); raise --warmup-len or --warmup-rate, or lower --cache-size"
			events_add "$v" warmup_not_steady "cache_bytes=$bytes" "cap_bytes=$cap" "entries_growth=$growth"
		fi
	done <<<"$out"
	runjson_update '.warmup = $w' --argjson w "$result"
}
