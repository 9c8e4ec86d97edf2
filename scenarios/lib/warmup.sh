# scenarios/lib/warmup.sh - checks that the warm-up brought every cache to a steady state before the
# spikes that count: a cache still filling raises every variant's peaks spike after spike, whatever
# the allocator. `allocspike-report warmup` decides (reports/README.md): at the end of the warm-up
# the cache is at 90 % of its size cap or more, or its entry count (a daemon reporting none: its
# anonymous memory) grew less than 2 % over the warm-up's last fifth. Recorded in run.json's
# "warmup"; a variant still filling gets a `warmup_not_steady` event, and the report can say so.

# warmup_check RUN_DIR : reads timeline.csv (rows of phase warmup).
warmup_check() {
	local dir=$1 rp cap result v bytes growth
	[[ -s $dir/timeline.csv ]] || return 0
	rp=$(sc_program allocspike-report)
	[[ -n $rp ]] || {
		sc_say "allocspike-report is missing from $(sc_bin_dir): the warm-up was not checked"
		return 0
	}
	cap=$OPT_cache_size_bytes
	result=$("$rp" warmup "$dir" --cap-bytes "$cap") || {
		sc_say "allocspike-report warmup failed (its message is above): the warm-up was not checked"
		return 0
	}
	while read -r v bytes growth; do
		sc_say "warm-up: $v's cache was still filling ($bytes of $cap bytes); raise --warmup-len or --warmup-rate, or lower --cache-size"
		events_add "$v" warmup_not_steady "cache_bytes:=$bytes" "cap_bytes:=$cap" "entries_growth:=$growth"
	done < <(jq -r 'to_entries[] | select(.value.steady | not) |
		"\(.key) \(.value.cache_bytes_end) \(.value.growth_last_fifth)"' <<<"$result")
	runjson_set .warmup "$result"
}
